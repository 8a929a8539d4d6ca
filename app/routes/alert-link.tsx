import { BellRing } from "lucide-react";
import { data, Form, Link, useLocation, useNavigation } from "react-router";
import { AuthCard } from "~/components/account/auth-card";
import { Button, buttonVariants } from "~/components/ui/button";
import { formPageHeaders } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { alertOfLink, confirmAlert, unsubscribeAlert } from "~/services/stock-alerts.server";
import type { Route } from "./+types/alert-link";

/**
 * /alertes/confirmer and /alertes/desinscription, the links of a "Prévenez-moi" e-mail. The page
 * says what the link is about; its button does it (a mail scanner that opens links confirms or
 * unsubscribes nothing). No account needed: the link's token is the proof.
 */
type Step = "confirmer" | "desinscription";

function stepOf(params: { step?: string }): Step {
  if (params.step === "confirmer" || params.step === "desinscription") return params.step;
  throw data(null, { status: 404 });
}

function linkOf(request: Request) {
  const url = new URL(request.url);
  return { alertId: url.searchParams.get("alerte") ?? "", token: url.searchParams.get("jeton") ?? "" };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const step = stepOf(params);
  const { alertId, token } = linkOf(request);
  const alert = await alertOfLink(context.db, context.dropSecret, step, alertId, token);
  return data({ step, alert, done: false }, { status: alert ? 200 : 404 });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const step = stepOf(params);
  await readForm(request);
  const { alertId, token } = linkOf(request);
  const alert = await alertOfLink(context.db, context.dropSecret, step, alertId, token);
  if (!alert) return data({ step, alert, done: false }, { status: 404 });
  if (step === "confirmer") await confirmAlert(context.db, context.dropSecret, alertId, token);
  else await unsubscribeAlert(context.db, context.dropSecret, alertId, token);
  return { step, alert: await alertOfLink(context.db, context.dropSecret, step, alertId, token), done: true };
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = ({ params }) => [
  { title: params.step === "desinscription" ? "Se désinscrire d'une alerte" : "Confirmer une alerte" },
  { name: "robots", content: "noindex" },
];

export default function AlertLink({ loaderData, actionData }: Route.ComponentProps) {
  const { step, alert, done } = actionData ?? loaderData;
  const busy = useNavigation().state !== "idle";
  // The link's id and token travel in its query string: the button posts them back.
  const { pathname, search } = useLocation();
  const confirming = step === "confirmer";
  return (
    <AuthCard
      title={confirming ? "Confirmer l'alerte" : "Se désinscrire"}
      description={
        <span className="inline-flex items-center gap-1.5">
          <BellRing className="size-3.5" aria-hidden="true" /> Prévenez-moi
        </span>
      }
    >
      {!alert ? (
        <p role="alert" className="text-sm">
          Ce lien est invalide. Copiez-le en entier depuis l'e-mail reçu, ou demandez une nouvelle alerte sur la fiche du produit.
        </p>
      ) : done || alert.status === "unsubscribed" || (confirming && alert.status !== "pending") ? (
        <div role="status" className="flex flex-col gap-3 text-sm">
          <p className="font-semibold">
            {alert.status === "unsubscribed"
              ? `Vous êtes désinscrit : aucun e-mail ne vous sera envoyé pour « ${alert.productTitle} ».`
              : alert.status === "sent"
                ? `« ${alert.productTitle} » est déjà en vente : l'e-mail vous a été envoyé.`
                : `Alerte confirmée : vous recevrez un e-mail quand « ${alert.productTitle} » sera en vente.`}
          </p>
          <Link to="/catalog" className={buttonVariants({ variant: "outline" })}>
            Retour au catalogue
          </Link>
        </div>
      ) : (
        <Form method="post" action={`${pathname}${search}`} className="flex flex-col gap-4">
          <p className="text-sm">
            {confirming
              ? `Recevoir un e-mail quand « ${alert.productTitle} » sera en vente ? Un seul e-mail, et vous pourrez vous désinscrire à tout moment.`
              : `Ne plus être prévenu pour « ${alert.productTitle} » ?`}
          </p>
          <Button type="submit" disabled={busy}>
            {confirming ? "Confirmer l'alerte" : "Me désinscrire"}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
