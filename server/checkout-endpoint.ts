import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { parse as parseCookies } from "cookie";
import proxyAddr from "proxy-addr";
import { admissionsFromCookies } from "~/domain/drop-cookies";
import type { Database } from "~/db/client.server";
import type { CheckoutFailure } from "~/domain/checkout";
import type { Auth } from "~/lib/auth.server";
import { cancelCheckout, startCheckout } from "~/services/checkout.server";
import type { PaymentProvider } from "~/services/payments/types";
import { viewerFromHeaders } from "~/services/session.server";
import type { StockGate } from "~/services/stock-gate.server";
import { parseJson } from "~/lib/request-input.server";

const MAX_BODY_BYTES = 64 * 1024;

/** Express's compiled TRUST_PROXY (`app.get("trust proxy fn")`): which hops may speak for the client. */
export type TrustProxy = (address: string, hop: number) => boolean;

export type CheckoutEndpointDeps = {
  database: Database;
  payments: PaymentProvider;
  stockGate: StockGate;
  auth: Auth;
  /** PUBLIC_URL's origin, or null to use the request's own. */
  configuredOrigin: string | null;
  orderPrefix: string;
  reservationMinutes: number;
  trustProxy: TrustProxy;
  /** Signs a drop's admissions, which the browser brings as cookies. */
  dropSecret: string;
};

type Handler = (req: IncomingMessage, res: ServerResponse, client: ClientFacts) => Promise<void>;
type ClientFacts = { ip: string; protocol: string };

/**
 * POST /api/checkout and POST /api/checkout/cancel, answered on the bare HTTP server ahead of
 * Express and the page machinery (CSP nonce, helmet, page cache, compression, React Router):
 * during a drop a thousand buyers post at once, and the 990 who come after the last unit must
 * each cost as little as possible (docs/decisions/008). Returns whether it took the request.
 */
export function checkoutRoutes(deps: CheckoutEndpointDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const routes: Record<string, Handler> = { "/api/checkout": checkout(deps), "/api/checkout/cancel": cancel(deps) };
  return (req, res) => {
    if (req.method !== "POST") return false;
    const handler = routes[routePath(req.url ?? "")];
    if (!handler) return false;
    const client = clientFacts(req, deps.trustProxy);
    handler(req, res, client).catch((error: unknown) => {
      console.error("checkout endpoint failed:", error);
      if (!res.headersSent) send(res, 500, { error: "Erreur interne du serveur", code: "INTERNAL" });
      else res.destroy();
    });
    return true;
  };
}

/** `/api/checkout`, `/api/checkout/` and `/api/checkout?x` alike, as Express routes match. */
function routePath(url: string): string {
  const end = url.indexOf("?");
  const path = (end < 0 ? url : url.slice(0, end)).toLowerCase();
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** The client's address and protocol as Express computes them (req.ip, req.protocol). */
export function clientFacts(req: IncomingMessage, trust: TrustProxy): ClientFacts {
  const direct = (req.socket as TLSSocket).encrypted ? "https" : "http";
  let protocol = direct;
  if (trust(req.socket.remoteAddress ?? "", 0)) {
    const header = req.headers["x-forwarded-proto"];
    protocol = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim() || direct;
  }
  return { ip: proxyAddr(req, trust) ?? "unknown", protocol };
}

function checkout(deps: CheckoutEndpointDeps): Handler {
  return async (req, res, client) => {
    if (!isSameOrigin(req, client, deps.configuredOrigin)) {
      return send(res, 403, { error: "Requête refusée : elle doit venir du site de la boutique.", code: "FORBIDDEN" } satisfies CheckoutFailure);
    }
    let body: unknown;
    try {
      body = parseJson(await readBody(req));
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
      gate: deps.stockGate,
      admissions: { tokens: admissionsFromCookies(parseCookies(req.headers.cookie ?? "")), secret: deps.dropSecret },
    });
    if ("retryAfterS" in result && result.retryAfterS) res.setHeader("Retry-After", String(result.retryAfterS));
    send(res, result.status, result.body);
  };
}

/** The cart page calls it when the buyer comes back with "cancel" from the payment page. */
function cancel(deps: CheckoutEndpointDeps): Handler {
  return async (req, res, client) => {
    if (!isSameOrigin(req, client, deps.configuredOrigin)) return send(res, 403, { error: "Requête refusée." });
    let orderId: unknown;
    try {
      orderId = (parseJson(await readBody(req)) as { orderId?: unknown })?.orderId;
    } catch {
      return send(res, 400, { error: "Requête illisible." });
    }
    const cancelled = typeof orderId === "string" && (await cancelCheckout(deps.database.db, deps.payments, orderId));
    send(res, 200, { cancelled });
  };
}

/** A JSON answer, never cached; the length is set by `end` (no chunked encoding). */
function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(JSON.stringify(body));
}

function headerReader(req: IncomingMessage) {
  return {
    get(name: string): string | null {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : (value ?? null);
    },
  };
}

function isSameOrigin(req: IncomingMessage, client: ClientFacts, configuredOrigin: string | null): boolean {
  const requestOrigin = `${client.protocol}://${req.headers.host ?? ""}`;
  const given = req.headers.origin;
  if (given) return given === (configuredOrigin ?? requestOrigin) || given === requestOrigin;
  return req.headers["sec-fetch-site"] === "same-origin";
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return; // refused already: the rest is read and dropped
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return reject(new Error("body too large"));
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
