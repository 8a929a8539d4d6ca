import { CheckCircle2, XCircle } from "lucide-react";
import { AuthCard } from "~/components/account/auth-card";
import { buttonVariants } from "~/components/ui/button";
import { verifyEmail } from "~/services/auth-actions.server";
import type { Route } from "./+types/verify-email";
import { Link } from "react-router";

/** The link of the confirmation e-mail: confirms the address, then invites to sign in. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const confirmed = token.length > 0 && token.length < 2_000 && (await verifyEmail(context, token));
  return { confirmed };
}

export const meta: Route.MetaFunction = () => [{ title: "Confirmation de l'adresse e-mail" }, { name: "robots", content: "noindex" }];

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  return loaderData.confirmed ? (
    <AuthCard title="Adresse e-mail confirmée">
      <p className="flex items-start gap-3 text-sm">
        <CheckCircle2 className="size-5 shrink-0 text-success" aria-hidden="true" />
        Merci ! Votre compte est activé : vous pouvez maintenant vous connecter.
      </p>
      <Link to="/login" className={buttonVariants({ className: "mt-6 w-full" })}>
        Se connecter
      </Link>
    </AuthCard>
  ) : (
    <AuthCard title="Lien invalide ou expiré">
      <p className="flex items-start gap-3 text-sm">
        <XCircle className="size-5 shrink-0 text-destructive" aria-hidden="true" />
        Ce lien de confirmation ne fonctionne plus. Connectez-vous : un nouveau lien vous sera envoyé par e-mail.
      </p>
      <Link to="/login" className={buttonVariants({ className: "mt-6 w-full" })}>
        Se connecter
      </Link>
    </AuthCard>
  );
}
