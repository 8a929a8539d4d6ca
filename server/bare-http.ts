import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Logger } from "pino";
import proxyAddr from "proxy-addr";
import { requestIdOf } from "./request-id";

/**
 * What the endpoints answered on the bare HTTP server, ahead of Express, share (the checkout's
 * and the waiting room's: docs/decisions/009): the client as Express would see it, the
 * same-origin check, the body read with a cap, and JSON answers that are never cached.
 */

/** Express's compiled TRUST_PROXY (`app.get("trust proxy fn")`): which hops may speak for the client. */
export type TrustProxy = (address: string, hop: number) => boolean;

export type ClientFacts = { ip: string; protocol: string };

/** Answers a request it took; called with the client as Express would compute it. */
export type BareHandler = (req: IncomingMessage, res: ServerResponse, client: ClientFacts) => Promise<void>;

/** `/api/checkout`, `/api/checkout/` and `/api/checkout?x` alike, as Express routes match. */
export function routePath(url: string): string {
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

/** Runs a handler, answering 500 (or cutting the connection mid-answer) if it throws. */
export function runHandler(handler: BareHandler, req: IncomingMessage, res: ServerResponse, client: ClientFacts, logger: Logger, label: string): void {
  handler(req, res, client).catch((error: unknown) => {
    logger.error({ err: error, method: req.method, url: req.url, requestId: requestIdOf(req) }, `${label} failed`);
    if (!res.headersSent) sendJson(res, 500, { error: "Erreur interne du serveur", code: "INTERNAL" });
    else res.destroy();
  });
}

/** A JSON answer, never cached; the length is set by `end` (no chunked encoding). */
export function sendJson(res: ServerResponse, status: number, body: unknown, cookies: string[] = []): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  res.end(JSON.stringify(body));
}

/** The request's headers read as a Fetch `Headers.get` would. */
export function headerReader(req: IncomingMessage) {
  return {
    get(name: string): string | null {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : (value ?? null);
    },
  };
}

/** A post from the shop's own pages: its Origin, or a browser's `Sec-Fetch-Site: same-origin`. */
export function isSameOrigin(req: IncomingMessage, client: ClientFacts, configuredOrigin: string | null): boolean {
  const requestOrigin = `${client.protocol}://${req.headers.host ?? ""}`;
  const given = req.headers.origin;
  if (given) return given === (configuredOrigin ?? requestOrigin) || given === requestOrigin;
  return req.headers["sec-fetch-site"] === "same-origin";
}

/** The body as text, rejected past `maxBytes` (the rest is read and dropped). */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size > maxBytes) return; // refused already: the rest is read and dropped
      size += chunk.length;
      if (size > maxBytes) return reject(new Error("body too large"));
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
