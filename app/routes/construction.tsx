import { Hammer } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import type { Route } from "./+types/construction";

export const meta: Route.MetaFunction = ({ matches }) => {
  const shop = matches[0]?.loaderData as { shop?: { name: string } } | undefined;
  return [{ title: `Page en construction | ${shop?.shop?.name ?? "Comptoir"}` }, { name: "robots", content: "noindex" }];
};

export default function Construction() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <Hammer className="size-12 text-primary" aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-extrabold">Page en construction</h1>
      <p className="mt-3 text-muted-foreground">Cette partie de la boutique arrive bientôt. Merci de votre patience&nbsp;!</p>
      <Link to="/" className={buttonVariants({ className: "mt-8" })}>
        Retour à l'accueil
      </Link>
    </section>
  );
}
