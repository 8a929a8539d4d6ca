import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

const ids = new WeakMap<IncomingMessage, string>();
/** What a proxy's X-Request-Id may be to be kept (a log correlation id, never trusted for more). */
const READABLE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Gives the request its id: the proxy's X-Request-Id when it is a plain token, else a new UUID;
 * sent back as X-Request-Id, and carried by every log line written for the request (pino's
 * `requestId`), so that a customer's report, the proxy's log and the shop's meet.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers["x-request-id"];
  const id = typeof given === "string" && READABLE_ID.test(given) ? given : randomUUID();
  ids.set(req, id);
  res.setHeader("X-Request-Id", id);
  return id;
}

/** The id given by assignRequestId ("unknown" for a request that did not go through it). */
export function requestIdOf(req: IncomingMessage): string {
  return ids.get(req) ?? "unknown";
}
