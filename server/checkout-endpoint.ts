import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { parse as parseCookies } from "cookie";
import { admissionsFromCookies } from "~/domain/drop-cookies";
import type { Database } from "~/db/client.server";
import type { CheckoutFailure } from "~/domain/checkout";
import type { Auth } from "~/lib/auth.server";
import { type CheckoutContext, cancelCheckout, startCheckout } from "~/services/checkout.server";
import type { PaymentProvider } from "~/services/payments/types";
import type { WebhookDeps } from "~/services/payment-webhooks.server";
import { viewerFromHeaders } from "~/services/session.server";
import type { DropRefusalTally } from "~/services/drop-refusal-tally.server";
import type { StockGate } from "~/services/stock-gate.server";
import { receiptCookieAfterCheckout } from "~/lib/receipt-cookie.server";
import { parseJson } from "~/lib/request-input.server";
import { type BareHandler, type TrustProxy, clientFacts, headerReader, isSameOrigin, readBody, routePath, runHandler, sendJson as send } from "./bare-http";

const MAX_BODY_BYTES = 64 * 1024;

export type CheckoutEndpointDeps = {
  database: Database;
  payments: PaymentProvider;
  stockGate: StockGate;
  refusalTally?: DropRefusalTally;
  auth: Auth;
  /** PUBLIC_URL's origin, or null to use the request's own. */
  configuredOrigin: string | null;
  orderPrefix: string;
  /** What the CGV in force are rendered from (as /legal), read at each checkout. */
  cgv: () => NonNullable<CheckoutContext["cgv"]>;
  reservationMinutes: number;
  /** What paying an order by store credit alone needs (invoice, e-mails), read at each checkout. */
  paidDeps: () => WebhookDeps;
  trustProxy: TrustProxy;
  logger: Logger;
  /** Signs a drop's admissions, which the browser brings as cookies, and (derived) the receipt cookie of /merci. */
  dropSecret: string;
  /** Told each checkout's outcome: "ok", or the refusal's code (metrics). */
  onOutcome?: (outcome: string) => void;
};

/**
 * POST /api/checkout and POST /api/checkout/cancel, answered on the bare HTTP server ahead of
 * Express and the page machinery (CSP nonce, helmet, page cache, compression, React Router):
 * during a drop a thousand buyers post at once, and the 990 who come after the last unit must
 * each cost as little as possible (docs/decisions/009). Returns whether it took the request.
 */
export function checkoutRoutes(deps: CheckoutEndpointDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const routes: Record<string, BareHandler> = { "/api/checkout": checkout(deps), "/api/checkout/cancel": cancel(deps) };
  return (req, res) => {
    if (req.method !== "POST") return false;
    const handler = routes[routePath(req.url ?? "")];
    if (!handler) return false;
    runHandler(handler, req, res, clientFacts(req, deps.trustProxy), deps.logger, "checkout endpoint");
    return true;
  };
}

function checkout(deps: CheckoutEndpointDeps): BareHandler {
  return async (req, res, client) => {
    if (!isSameOrigin(req, client, deps.configuredOrigin)) {
      return send(res, 403, { error: "Requête refusée : elle doit venir du site de la boutique.", code: "FORBIDDEN" } satisfies CheckoutFailure);
    }
    let body: unknown;
    try {
      body = parseJson(await readBody(req, MAX_BODY_BYTES));
    } catch {
      return send(res, 400, { error: "Requête illisible", details: "Le panier envoyé n'est pas lisible.", code: "INVALID", fieldErrors: { body: "JSON invalide" } } satisfies CheckoutFailure);
    }
    const result = await startCheckout(deps.database.db, deps.payments, body, {
      now: new Date(),
      customer: async () => {
        const viewer = await viewerFromHeaders(headerReader(req), { auth: deps.auth, clientIp: client.ip });
        return viewer ? { id: viewer.id, email: viewer.email } : null;
      },
      clientIp: client.ip,
      orderPrefix: deps.orderPrefix,
      origin: deps.configuredOrigin ?? `${client.protocol}://${req.headers.host ?? ""}`,
      reservationMinutes: deps.reservationMinutes,
      cgv: deps.cgv(),
      paidDeps: deps.paidDeps(),
      gate: deps.stockGate,
      refusalTally: deps.refusalTally,
      admissions: { tokens: admissionsFromCookies(parseCookies(req.headers.cookie ?? "")), secret: deps.dropSecret },
      idempotencyKey: idempotencyKeyOf(req),
    });
    if ("retryAfterS" in result && result.retryAfterS) res.setHeader("Retry-After", String(result.retryAfterS));
    deps.onOutcome?.(result.status === 200 ? "ok" : ((result.body as { code?: string }).code ?? String(result.status)));
    // The browser that starts the checkout is the one /merci shows the order to (lib/receipt-cookie.server.ts).
    const receipt =
      result.status === 200
        ? [receiptCookieAfterCheckout(req.headers.cookie, result.body.orderId, { secret: deps.dropSecret, secure: (deps.configuredOrigin ?? `${client.protocol}:`).startsWith("https:"), now: Date.now() })]
        : [];
    send(res, result.status, result.body, receipt);
  };
}

/** The cart's key for this attempt (32 hex digits): kept only when it looks like a key (16 to 64 letters, digits or dashes). */
function idempotencyKeyOf(req: IncomingMessage): string | null {
  const key = req.headers["idempotency-key"];
  return typeof key === "string" && /^[A-Za-z0-9-]{16,64}$/.test(key) ? key : null;
}

/** The cart page calls it when the buyer comes back with "cancel" from the payment page. */
function cancel(deps: CheckoutEndpointDeps): BareHandler {
  return async (req, res, client) => {
    if (!isSameOrigin(req, client, deps.configuredOrigin)) return send(res, 403, { error: "Requête refusée." });
    let orderId: unknown;
    try {
      orderId = (parseJson(await readBody(req, MAX_BODY_BYTES)) as { orderId?: unknown })?.orderId;
    } catch {
      return send(res, 400, { error: "Requête illisible." });
    }
    const cancelled = typeof orderId === "string" && (await cancelCheckout(deps.database.db, deps.payments, orderId));
    send(res, 200, { cancelled });
  };
}

