import type { Request, Response } from "express";
import type { Database } from "~/db/client.server";
import type { CheckoutFailure } from "~/domain/checkout";
import type { Auth } from "~/lib/auth.server";
import { cancelCheckout, startCheckout } from "~/services/checkout.server";
import type { PaymentProvider } from "~/services/payments/types";
import { viewerFromHeaders } from "~/services/session.server";
import type { StockGate } from "~/services/stock-gate.server";

const MAX_BODY_BYTES = 64 * 1024;

export type CheckoutEndpointDeps = {
  database: Database;
  payments: PaymentProvider;
  stockGate: StockGate;
  auth: Auth;
  /** PUBLIC_URL's origin, or null to use the request's own. */
  configuredOrigin: string | null;
  orderPrefix: string;
  reservationMinutes: number;
};

/**
 * POST /api/checkout, SPEC.md's create-checkout-session made real (services/checkout.server.ts
 * decides everything). Mounted on Express ahead of the page machinery (CSP nonce, page cache,
 * compression, React Router): during a drop a thousand buyers post at once, and the 990 who
 * come after the last unit must each cost as little as possible (docs/decisions/008).
 */
export function checkoutEndpoint(deps: CheckoutEndpointDeps) {
  return async (req: Request, res: Response) => {
    // Written by hand, not res.json: no ETag hash of a body that is never cached.
    const send = (status: number, body: unknown) =>
      res
        .status(status)
        .set({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" })
        .end(JSON.stringify(body));
    const origin = deps.configuredOrigin ?? `${req.protocol}://${req.get("host") ?? ""}`;
    if (!isSameOrigin(req, deps.configuredOrigin)) {
      return send(403, { error: "Requête refusée : elle doit venir du site de la boutique.", code: "FORBIDDEN" } satisfies CheckoutFailure);
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return send(400, { error: "Requête illisible", details: "Le panier envoyé n'est pas lisible.", code: "INVALID", fieldErrors: { body: "JSON invalide" } } satisfies CheckoutFailure);
    }
    const clientIp = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const viewer = await viewerFromHeaders({ get: (name: string) => req.get(name) ?? null }, { auth: deps.auth, clientIp });
    const result = await startCheckout(deps.database.db, deps.payments, body, {
      now: new Date(),
      customer: viewer ? { id: viewer.id, email: viewer.email } : null,
      clientIp,
      orderPrefix: deps.orderPrefix,
      origin,
      reservationMinutes: deps.reservationMinutes,
      gate: deps.stockGate,
    });
    if ("retryAfterS" in result && result.retryAfterS) res.set("Retry-After", String(result.retryAfterS));
    send(result.status, result.body);
  };
}

/**
 * POST /api/checkout/cancel `{ orderId }`: the cart page calls it when the buyer comes back with
 * "cancel" from the payment page (services/checkout.server.ts cancelCheckout). Same-origin only.
 */
export function cancelCheckoutEndpoint(deps: Pick<CheckoutEndpointDeps, "database" | "payments" | "configuredOrigin">) {
  return async (req: Request, res: Response) => {
    res.set({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
    if (!isSameOrigin(req, deps.configuredOrigin)) return res.status(403).json({ error: "Requête refusée." });
    let orderId: unknown;
    try {
      orderId = (JSON.parse(await readBody(req)) as { orderId?: unknown })?.orderId;
    } catch {
      return res.status(400).json({ error: "Requête illisible." });
    }
    const cancelled = typeof orderId === "string" && (await cancelCheckout(deps.database.db, deps.payments, orderId));
    res.json({ cancelled });
  };
}

function isSameOrigin(req: Request, configuredOrigin: string | null): boolean {
  const requestOrigin = `${req.protocol}://${req.get("host") ?? ""}`;
  const given = req.get("origin");
  if (given) return given === (configuredOrigin ?? requestOrigin) || given === requestOrigin;
  return req.get("sec-fetch-site") === "same-origin";
}

function readBody(req: Request): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
