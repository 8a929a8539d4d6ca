import { Hammer, Home, LayoutGrid, Mail } from "lucide-react";
import { buttonVariants } from "~/components/ui/button";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import type { Route } from "./+types/construction";
import { Link } from "react-router";

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, {
    title: `Page en construction | ${root.shop.name}`,
    description: "Cette partie de la boutique arrive bientôt. En attendant, le catalogue et le contact restent ouverts.",
    path: "/construction",
    noindex: true,
  });
};

const WAYS_BACK = [
  { to: "/", label: "Retour à l'accueil", icon: Home, variant: "primary" },
  { to: "/catalog", label: "Voir le catalogue", icon: LayoutGrid, variant: "outline" },
  { to: "/contact", label: "Nous contacter", icon: Mail, variant: "outline" },
] as const;

/** A section announced before it is ready: says so, and leads back to the shop. */
export default function Construction() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <span className="inline-flex size-20 items-center justify-center rounded-3xl border border-primary/40 bg-primary/10">
        <Hammer className="size-10 text-amber-700 dark:text-primary" aria-hidden="true" />
      </span>
      <p className="mt-6 text-sm font-semibold uppercase tracking-widest text-amber-700 dark:text-primary">Bientôt disponible</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Page en construction</h1>
      <p className="mt-4 max-w-lg text-muted-foreground">
        Cette partie de la boutique est en cours de préparation et arrive très bientôt. En attendant, le reste du comptoir est ouvert&nbsp;: les nouveautés vous
        attendent dans le catalogue.
      </p>
      <nav aria-label="Revenir à la boutique" className="mt-8">
        <ul className="flex flex-wrap justify-center gap-3">
          {WAYS_BACK.map(({ to, label, icon: Icon, variant }) => (
            <li key={to}>
              <Link to={to} className={buttonVariants({ variant })}>
                <Icon aria-hidden="true" /> {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="mt-8 text-sm text-muted-foreground">Une question sur un produit ou une commande&nbsp;? Écrivez-nous, nous répondons rapidement.</p>
    </section>
  );
}
