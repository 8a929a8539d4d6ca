import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { METHOD_NOT_ALLOWED } from "~/lib/http";
import { FORM_LIMIT_BYTES } from "~/lib/request-input.server";
import { requestIdOf } from "./request-id";

/**
 * What Express refuses before any route runs, in French and as a 4xx: requests a browser on
 * the shop never makes, which otherwise reached Express's or React Router's English answers,
 * a 500, or a stack trace in the log for each one a script sends.
 */

/** The methods the shop answers; `OPTIONS` gets them in `Allow` (no cross-origin API here). */
const ALLOWED_METHODS = "GET, HEAD, POST";

function refuse(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  afterSmallBody(res.req, () => {
    res.status(status).set({ "Cache-Control": "no-store", ...headers }).type("text/plain; charset=utf-8").send(message);
  });
}

/**
 * Calls `answer` once the request's body has been read, when it is no larger than a form post:
 * a refusal sent while the client is still sending closes the connection (closeAfterUnreadBody), and
 * the client, still writing, gets a reset (EPIPE) instead of the answer; a browser then shows
 * its own network error, not the French reason. A larger body is not worth reading: the
 * answer goes at once, and the connection closes.
 */
function afterSmallBody(req: IncomingMessage, answer: () => void): void {
  // No Content-Length and no Transfer-Encoding: no body (a GET), nothing to wait for.
  const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (!hasBody || req.complete || req.readableEnded || declared === 0 || declared > FORM_LIMIT_BYTES) return answer();
  let seen = 0;
  let answered = false;
  const once = () => {
    if (answered) return;
    answered = true;
    req.off("data", count).off("end", once).off("error", once);
    answer();
  };
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > FORM_LIMIT_BYTES) {
      req.pause();
      once();
    }
  };
  req.on("data", count).on("end", once).on("error", once);
  req.resume();
}

/**
 * A method other than GET, HEAD or POST: 405 (TRACE reached React Router, whose Request refuses
 * it: a 500), and OPTIONS answers 204 with the methods instead of running the page's loader.
 */
export const onlyShopMethods: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "POST") return next();
  if (req.method === "OPTIONS") return void res.status(204).set({ Allow: ALLOWED_METHODS, "Cache-Control": "no-store" }).end();
  refuse(res, 405, METHOD_NOT_ALLOWED, { Allow: ALLOWED_METHODS });
};

/**
 * An address no route can take: a NUL character (%00), which PostgreSQL cannot compare text
 * with, or a percent sign that decodes to nothing (`/%FF`), on which Express's router throws.
 */
export const readableAddress: RequestHandler = (req, res, next) => {
  if (/%00|\0/.test(req.originalUrl)) return refuse(res, 400, "Adresse invalide : elle contient un caractère nul (%00).");
  try {
    decodeURIComponent(req.path);
  } catch {
    return refuse(res, 400, "Adresse invalide : elle contient un encodage incorrect.");
  }
  next();
};

/**
 * A form posted from another site: React Router refuses it too (its CSRF check), but with an
 * English "Bad Request" and a stack trace in the log. Same rule as its check: an `Origin`
 * header, `null` included, that is not this server's own address. The payment webhooks come
 * from servers, without `Origin`.
 */
export const sameSitePosts: RequestHandler = (req, res, next) => {
  const origin = req.get("origin");
  if (req.method !== "POST" || origin === undefined) return next();
  let sameSite = false;
  try {
    sameSite = origin !== "null" && new URL(origin).origin === ownOrigin(req);
  } catch {
    sameSite = false;
  }
  if (sameSite) return next();
  refuse(res, 403, "Requête refusée : ce formulaire a été envoyé depuis un autre site.");
};

/**
 * This request's origin as React Router sees it: @react-router/express builds the request's
 * URL this way (X-Forwarded-Host only behind a trusted proxy), and its CSRF check compares the
 * `Origin` header with that URL's origin.
 */
function ownOrigin(req: Request): string {
  const [, forwardedPort] = req.app.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort].map((value) => Number.parseInt(value ?? "", 10)).find(Number.isSafeInteger);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${port !== undefined ? `:${port}` : ""}`).origin;
}

/**
 * Last in the chain: an error nothing answered (React Router answers its own) gets French text,
 * never Express's English page. Client errors (a body Express could not read) are not logged.
 */
export function frenchErrors(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const declared = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
    const status = typeof declared === "number" && declared >= 400 && declared < 600 ? declared : 500;
    if (status >= 500) logger.error({ err: error, method: req.method, url: req.originalUrl, requestId: requestIdOf(req) }, "request failed");
    refuse(res, status, status >= 500 ? "Une erreur est survenue. Réessayez dans un instant." : "Requête invalide.");
  };
}

/**
 * How long a connection closed after an unread body keeps reading (and dropping) what the client
 * still sends. Closing a socket with unread data sends a reset, and a client still writing its
 * upload may then lose the answer sent just before (RFC 9112 §9.6, "lingering close"): the
 * browser showed its own network error instead of the French 413.
 */
export const LINGER_MS = 2_000;

/**
 * An answer written before its request's body was all read (a refusal past a ceiling: the
 * rest is never read) closes the connection, as HTTP allows for a 413: a client reusing it
 * would send its next request into the rest of that body and get a reset. A body declared no
 * larger than a form post (one refused from its headers: signed out, another site's) is left to
 * Node, which reads and drops what is left after the answer: a client still writing it then
 * gets the answer instead of a broken connection (EPIPE).
 *
 * A route that stops reading (lib/read-at-most.server.ts, lib/multipart.server.ts cancel the
 * body's stream, which destroys the request and with it the socket, before any answer) leaves
 * the rest of the body to be dropped instead: nothing of it is kept, and the answer is sent.
 * After the answer the connection lingers: it reads and drops for at most LINGER_MS, then closes.
 */
export function closeAfterUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  // Pages read no body: Node discards one after the answer. Kept off the page cache's hot path.
  if (req.method === "GET" || req.method === "HEAD") return;
  if (Number(req.headers["content-length"] ?? Number.NaN) <= FORM_LIMIT_BYTES) return;
  const destroy = req.destroy;
  req.destroy = function (this: IncomingMessage, ...args: Parameters<typeof destroy>) {
    // The client still connected and sending: drop the rest (flowing, with no one listening).
    if (this.complete || !this.socket || this.socket.destroyed || res.writableFinished) return destroy.apply(this, args);
    this.resume();
    return this;
  } as typeof destroy;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) {
      this.setHeader("Connection", "close");
      if (req.socket) lingerOnClose(req.socket);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

/** Node closes a `Connection: close` answer's socket with destroySoon: end it, drop what comes, then close. */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    this.end(); // the answer is complete: FIN
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("end", () => this.destroy()).once("close", () => clearTimeout(timer));
    this.resume();
  };
}
