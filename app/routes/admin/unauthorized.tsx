import { ShieldAlert } from "lucide-react";
import { data, Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import type { Route } from "./+types/unauthorized";

export function loader() {
  return data(null, { status: 403 });
}

export const meta: Route.MetaFunction = () => [{ title: "Accès non autorisé" }, { name: "robots", content: "noindex" }];

export default function Unauthorized() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <ShieldAlert className="mx-auto size-12 text-destructive" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-extrabold">Accès non autorisé</h1>
      <p className="mt-3 text-muted-foreground">Vous n'avez pas les permissions nécessaires pour accéder à cette section.</p>
      <Link to="/" className={buttonVariants({ className: "mt-8" })}>
        Retour à l'accueil
      </Link>
    </section>
  );
}
