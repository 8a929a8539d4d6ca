import { methodNotAllowed } from "~/lib/http";
import { bodyAtMost } from "~/lib/request-input.server";
import { receiveWebhook, webhookDepsFrom } from "~/services/payment-webhooks.server";
import type { Route } from "./+types/api.payment-webhook";

const WEBHOOK_LIMIT_BYTES = 1024 * 1024;

/**
 * POST /api/payments/{stripe|test}/webhook: the provider's signed events. The signature is
 * checked on the raw body (nothing parses it before: Express has no body parser here).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (params.provider !== context.payments.name || request.method !== "POST") {
    return Response.json({ received: false, error: "Fournisseur de paiement inconnu." }, { status: 404 });
  }
  // Stripe's events weigh a few KB; nothing past 1 MB is read.
  const body = await bodyAtMost(request, WEBHOOK_LIMIT_BYTES);
  if (!body) return Response.json({ received: false, error: "Événement trop volumineux." }, { status: 413 });
  const raw = new TextDecoder().decode(body);
  const result = await receiveWebhook(context.db, context.payments, raw, request.headers, webhookDepsFrom(context));
  // A payment queues the confirmation and the seller's notice: they leave now, not at the mail worker's next round.
  if (result.status === 200) context.kickMail();
  return Response.json(result.body, { status: result.status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return methodNotAllowed("POST");
}
