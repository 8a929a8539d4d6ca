import { MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { CODE_DIGITS, CODE_MINUTES, collectorCodeSchema, collectorEmailSchema } from "~/domain/drop-identity";
import { fieldErrors, type FieldErrors } from "~/domain/field-errors";

// This whole form is a chunk of its own, loaded when a join asks for it: its schemas (zod) come with it.
const SCHEMAS = { collectorEmailSchema, collectorCodeSchema };

const UNREACHABLE = "Impossible de joindre la boutique pour le moment. Réessayez dans un instant.";

/**
 * A fair start's "one place per collector" (issue 50): a guest gives their e-mail address, gets a
 * code by e-mail, types it; the browser then holds the collector's cookie and `onConfirmed`
 * joins the line. Loaded only when a join asks for it (drop-waiting-room.tsx).
 */
export function DropCollectorForm({ productId, onConfirmed }: { productId: number; onConfirmed: () => void }) {
  const [email, setEmail] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function post(path: string, input: Record<string, string>, schema: "collectorEmailSchema" | "collectorCodeSchema"): Promise<boolean> {
    setBusy(true);
    setFailure(null);
    try {
      const parsed = SCHEMAS[schema].safeParse(input);
      if (!parsed.success) {
        setErrors(fieldErrors(parsed.error));
        return false;
      }
      setErrors({});
      const response = await fetch(`/api/drops/${productId}/${path}`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(input) });
      if (response.ok) return true;
      const body = (await response.json().catch(() => null)) as { error?: string } | null;
      setFailure(body?.error ?? UNREACHABLE);
    } catch {
      setFailure(UNREACHABLE);
    } finally {
      setBusy(false);
    }
    return false;
  }

  async function askCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get("email") ?? "");
    if (await post("identite", { email: typed }, "collectorEmailSchema")) setEmail(typed);
  }

  async function checkCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    if (await post("identite/code", { email: email ?? "", code }, "collectorCodeSchema")) onConfirmed();
  }

  return (
    <div className="flex flex-col gap-3 rounded-xl border border-border bg-background p-3" data-testid="collector-form">
      <p className="flex items-start gap-2 text-sm">
        <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Une place par collectionneur : confirmez votre adresse e-mail avec le code que nous vous envoyons.
      </p>
      {email === null ? (
        <form noValidate onSubmit={(event) => void askCode(event)} className="flex flex-col gap-3">
          <FormField label="Adresse e-mail" name="email" type="email" autoComplete="email" inputMode="email" required error={errors.email} />
          <Button type="submit" disabled={busy}>
            {busy ? "Envoi…" : "Recevoir un code"}
          </Button>
        </form>
      ) : (
        <form noValidate onSubmit={(event) => void checkCode(event)} className="flex flex-col gap-3">
          <p className="text-sm" role="status">
            Code envoyé à <strong>{email}</strong> (valable {CODE_MINUTES} minutes).
          </p>
          <FormField label="Code reçu par e-mail" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={CODE_DIGITS} required error={errors.code} />
          <Button type="submit" disabled={busy}>
            {busy ? "Vérification…" : "Confirmer et rejoindre la file"}
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setEmail(null)}>
            Changer d'adresse ou renvoyer un code
          </Button>
        </form>
      )}
      {failure ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
