import { stockAlertSchema, ALERT_REQUESTED } from "~/domain/stock-alerts";
import { fieldErrors } from "~/domain/field-errors";
import { tooManyAttemptsMessage } from "~/domain/rate-limits";
import { readForm } from "~/lib/request-input.server";
import { consumeRateLimit } from "~/services/rate-limit.server";
import { isSameOriginPost } from "~/services/session.server";
import { requestAlert } from "~/services/stock-alerts.server";
import type { Route } from "./+types/api.alerts";

/**
 * POST /api/alerts/:productId, "Prévenez-moi": a pending alert and its confirmation e-mail. The
 * address's limit is counted before the form is read; the answer is the same whether the address
 * already waited or not; past the per-mailbox limit nothing more is sent, silently.
 */
const NO_STORE = { "Cache-Control": "no-store" };

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) return Response.json({ error: "Requête refusée." }, { status: 403, headers: NO_STORE });
  if (!/^\d{1,9}$/.test(params.productId)) return Response.json({ error: "Produit inconnu." }, { status: 404, headers: NO_STORE });
  const perIp = await consumeRateLimit(context.db, "alertPerIp", context.clientIp);
  if (perIp.blocked) {
    const headers = { ...NO_STORE, "Retry-After": String(Math.ceil(perIp.retryAfterMs / 1000)) };
    return Response.json({ error: tooManyAttemptsMessage(perIp.retryAfterMs) }, { status: 429, headers });
  }
  const parsed = stockAlertSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return Response.json({ fieldErrors: fieldErrors(parsed.error) }, { status: 400, headers: NO_STORE });
  const perEmail = await consumeRateLimit(context.db, "alertPerEmail", parsed.data.email);
  if (!perEmail.blocked) {
    const shop = { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl };
    const known = await requestAlert({ db: context.db, shop, secret: context.dropSecret }, { productId: Number(params.productId), email: parsed.data.email });
    if (!known) return Response.json({ error: "Produit inconnu." }, { status: 404, headers: NO_STORE });
    context.kickMail();
  }
  return Response.json({ ok: true, message: ALERT_REQUESTED }, { headers: NO_STORE });
}

export function loader() {
  return Response.json({ error: "Méthode non autorisée." }, { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}
