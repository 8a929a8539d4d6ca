import type { CheckoutFailure } from "~/domain/checkout";
import { isSameOriginRequest } from "~/lib/http";
import { startCheckout } from "~/services/checkout.server";
import { getViewer } from "~/services/session.server";
import type { Route } from "./+types/api.checkout";

const MAX_BODY_BYTES = 64 * 1024;

const failure = (status: number, body: CheckoutFailure, headers: HeadersInit = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

/** POST /api/checkout: SPEC.md's create-checkout-session, decided on the server (services/checkout). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return failure(405, { error: "Méthode non autorisée.", code: "INVALID" }, { Allow: "POST" });
  if (!isSameOriginRequest(request, context.origin)) {
    return failure(403, { error: "Requête refusée : elle doit venir du site de la boutique.", code: "FORBIDDEN" });
  }
  const text = await request.text();
  let body: unknown;
  try {
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new Error("too large");
    body = JSON.parse(text);
  } catch {
    return failure(400, { error: "Requête illisible", details: "Le panier envoyé n'est pas lisible.", code: "INVALID", fieldErrors: { body: "JSON invalide" } });
  }
  const viewer = await getViewer(request, context);
  const result = await startCheckout(context.db, context.payments, body, {
    now: new Date(),
    customer: viewer ? { id: viewer.id, email: viewer.email } : null,
    clientIp: context.clientIp,
    orderPrefix: context.checkout.orderPrefix,
    origin: context.origin,
    reservationMinutes: context.checkout.reservationMinutes,
    gate: context.stockGate,
  });
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if ("retryAfterS" in result && result.retryAfterS) headers["Retry-After"] = String(result.retryAfterS);
  return Response.json(result.body, { status: result.status, headers });
}

export function loader() {
  return new Response("Méthode non autorisée.", { status: 405, headers: { Allow: "POST" } });
}
