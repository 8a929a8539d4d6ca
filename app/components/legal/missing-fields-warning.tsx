import { AlertTriangle, CheckCircle2 } from "lucide-react";
import { type IdentityKey, identityField } from "~/domain/shop-identity";
import { cn } from "~/lib/utils";

/** The admin's list of the identity fields still to give, each a link to its input. */
export function MissingFieldsWarning({ missing, className }: { missing: IdentityKey[]; className?: string }) {
  if (missing.length === 0) {
    return (
      <p className={cn("flex items-center gap-2 rounded-xl border border-success/40 bg-success/10 p-4 text-sm font-medium", className)}>
        <CheckCircle2 className="size-5 shrink-0 text-success" aria-hidden="true" />
        Tous les champs sont renseignés&nbsp;: les informations légales sont complètes.
      </p>
    );
  }
  const count = missing.length;
  return (
    <section aria-labelledby="champs-manquants" className={cn("flex gap-3 rounded-xl border border-warning/50 bg-warning/10 p-4 text-sm", className)}>
      <AlertTriangle className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
      <div>
        <h2 id="champs-manquants" className="font-semibold">
          {`${count} champ${count > 1 ? "s" : ""} à compléter`}
        </h2>
        <p className="mt-1 text-muted-foreground">
          La loi impose de publier ces informations. Tant qu'elles manquent, la page Informations légales affiche «&nbsp;À compléter par le vendeur&nbsp;» à leur
          place.
        </p>
        <ul className="mt-2 flex flex-wrap gap-x-1 gap-y-0" aria-label="Champs à compléter">
          {missing.map((key, index) => (
            <li key={key}>
              <a href={`#identite-${key}`} className="inline-flex min-h-11 items-center font-medium text-foreground underline decoration-warning underline-offset-4 hover:decoration-2">
                {identityField(key).label}
              </a>
              {index < count - 1 ? <span aria-hidden="true">, </span> : null}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
