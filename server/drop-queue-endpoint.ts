import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { parse as parseCookies, serialize } from "cookie";
import type { Db } from "~/db/types";
import type { ZodType } from "zod";
import { DROP_TICKET_SECONDS } from "~/domain/browser-storage";
import { admissionCookie, ticketCookie } from "~/domain/drop-cookies";
import { type Collector, COLLECTOR_COOKIE, COLLECTOR_HOURS, collectorCodeSchema, collectorEmailSchema } from "~/domain/drop-identity";
import type { MailShop } from "~/domain/email-templates";
import { networkKey } from "~/domain/network-key";
import { NETWORK_FULL_MESSAGE, type QueueView, ticketsPerNetwork } from "~/domain/waiting-room";
import type { Auth } from "~/lib/auth.server";
import { parseJson } from "~/lib/request-input.server";
import { OneAtATimePerKey } from "~/lib/semaphore.server";
import { collectorFromToken, collectorOfAccount, confirmCollectorCode, requestCollectorCode } from "~/services/drop-identity.server";
import { viewerFromHeaders } from "~/services/session.server";
import { admissionToken, type JoinResult, joinQueue, queueView } from "~/services/waiting-room.server";
import { type BareHandler, type ClientFacts, type TrustProxy, clientFacts, headerReader, isSameOrigin, readBody, routePath, runHandler, sendJson } from "./bare-http";

export type DropQueueEndpointDeps = {
  db: Db;
  /** The shop's public address (PUBLIC_URL, or this server's): cookies are `Secure` under https. */
  publicUrl: () => string;
  /** PUBLIC_URL's origin, or null to use the request's own. */
  configuredOrigin: string | null;
  trustProxy: TrustProxy;
  logger: Logger;
  /** Signs a drop's admissions and its collectors' cookies. */
  dropSecret: string;
  /** Who is signed in (a fair start's collector may be an account). */
  auth: Auth;
  /** The shop, for the fair start's code e-mails. */
  shop: () => MailShop;
};

const ROUTE = /^\/api\/drops\/([^/]+)\/(file|identite|identite\/code)$/;
/** An e-mail address and a code: a few hundred bytes at most. */
const MAX_IDENTITY_BODY_BYTES = 2 * 1024;
const NO_ROOM = { error: "Ce produit n'a pas de file d'attente." };

/**
 * /api/drops/:productId/file, a drop's waiting room for this browser: GET its place (or its
 * admission, or sold out) with the figures, polled every 2 s by the product page; POST takes a
 * ticket (free, nothing held). Answered on the bare HTTP server ahead of Express, as the
 * checkout is (docs/decisions/009): a thousand waiting pages poll, and the opening brings a
 * burst of joins. The ticket and the admission are httpOnly cookies: the admission reaches the
 * checkout without any script handling it.
 */
export function dropQueueRoutes(deps: DropQueueEndpointDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "POST") return false;
    const match = ROUTE.exec(routePath(req.url ?? ""));
    if (!match || (match[2] !== "file" && req.method !== "POST")) return false;
    const productId = /^\d{1,9}$/.test(match[1]!) ? Number(match[1]) : null;
    const handler = match[2] === "identite" ? askCode(deps, productId) : match[2] === "identite/code" ? checkCode(deps) : req.method === "GET" ? poll(deps, productId) : join(deps, productId);
    runHandler(handler, req, res, clientFacts(req, deps.trustProxy), deps.logger, "waiting room endpoint");
    return true;
  };
}

function poll(deps: DropQueueEndpointDeps, productId: number | null): BareHandler {
  return async (req, res) => {
    if (productId === null) return sendJson(res, 404, NO_ROOM);
    const ticketId = ticketOf(req, productId);
    const view = await queueView(deps.db, productId, ticketId, new Date());
    if (!view) return sendJson(res, 404, NO_ROOM);
    answer(deps, res, productId, ticketId, view);
  };
}

function join(deps: DropQueueEndpointDeps, productId: number | null): BareHandler {
  return async (req, res, client) => {
    // A join carries nothing: a body is refused unread (a script's 8 MB cost a read to its end),
    // the connection closed behind the answer rather than drained.
    if (Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined) {
      res.setHeader("Connection", "close");
      return sendJson(res, 413, { error: "Rejoindre la file d'attente n'attend aucune donnée." });
    }
    if (!isSameOrigin(req, client, deps.configuredOrigin)) return sendJson(res, 403, { error: "Requête refusée." });
    if (productId === null) return sendJson(res, 404, NO_ROOM);
    const now = new Date();
    const current = ticketOf(req, productId);
    if (current) {
      // Already in line or admitted: the same place, no second ticket.
      const before = await queueView(deps.db, productId, current, now);
      if (!before) return sendJson(res, 404, NO_ROOM);
      if (before.state === "waiting" || before.state === "admitted" || before.state === "sold_out") return answer(deps, res, productId, current, before);
    }
    const network = networkKey(client.ip);
    const collectorKey = collectorJoinKey(req, productId, network);
    const networkTurn = `${productId} ${network}`;
    // As many of the network's joins under way here as it may hold tickets: refused at once, not
    // after them (a script's 40 joins at the opening: 2 go on, the rest are answered now).
    if (!(collectorKey && collectorJoins.has(collectorKey)) && networkJoins.pending(networkTurn) >= ticketsPerNetwork(network, collectorKey !== null)) {
      return sendJson(res, 429, { error: NETWORK_FULL_MESSAGE });
    }
    const joined = await sameCollectorOnce(collectorKey, () =>
      networkJoins.run(networkTurn, () => joinQueue(deps.db, productId, { network, now, collector: () => collectorOf(deps, req, client, now) })),
    );
    if (!joined.ok) return sendJson(res, joined.status, "needs" in joined ? { error: joined.error, needs: joined.needs } : { error: joined.error });
    answer(deps, res, productId, joined.ticketId, joined.view, [serialize(ticketCookie(productId), joined.ticketId, cookieOptions(deps, DROP_TICKET_SECONDS))]);
  };
}

/**
 * A network's joins of a drop, one at a time in this instance (issue 50, point 5). A script's
 * burst (40 joins from one /64 in 100 ms) would otherwise pass the plain read together and open
 * 40 transactions that wait on the network's advisory lock, each holding one of the pool's
 * connections: every other join and poll then waits for a connection (p99 1.4–2.8 s for 800
 * joins). In turn, the first ones take the network's tickets and the next ones are refused from
 * memory; past the network's bound in this queue, a join is refused before it waits; other
 * networks' joins go on meanwhile. The lock still orders the instances.
 */
const networkJoins = new OneAtATimePerKey();

/**
 * Joins that speak for the same collector (the same signed cookie or session) from the same
 * network, on this instance at the same time: one join for all of them, its answer for each
 * (the same ticket, as the collector's one ticket would be anyway). A script's 40 cookie jars
 * carrying one confirmed mailbox then cost one read and one ticket, not 40 reads in turn.
 */
const collectorJoins = new Map<string, Promise<JoinResult>>();

function sameCollectorOnce(key: string | null, join: () => Promise<JoinResult>): Promise<JoinResult> {
  if (key === null) return join();
  const pending = collectorJoins.get(key);
  if (pending) return pending;
  const started = join().finally(() => collectorJoins.delete(key));
  collectorJoins.set(key, started);
  return started;
}

/** What names the collector of a join (its collector cookie, its session), or null when nothing does (each browser its own ticket). */
function collectorJoinKey(req: IncomingMessage, productId: number, network: string): string | null {
  const cookies = parseCookies(req.headers.cookie ?? "");
  const who = [cookies[COLLECTOR_COOKIE], ...Object.entries(cookies).filter(([name]) => name.includes("session_token")).map(([, value]) => value)].filter(Boolean);
  return who.length > 0 ? `${productId} ${network} ${who.join(" ")}` : null;
}

/** The collector this request speaks for: its signed-in account, else the mailbox its cookie names (domain/drop-identity.ts). */
async function collectorOf(deps: DropQueueEndpointDeps, req: IncomingMessage, client: ClientFacts, now: Date): Promise<Collector | null> {
  const viewer = await viewerFromHeaders(headerReader(req), { auth: deps.auth, clientIp: client.ip });
  if (viewer) return collectorOfAccount(viewer.email);
  return collectorFromToken(parseCookies(req.headers.cookie ?? "")[COLLECTOR_COOKIE], deps.dropSecret, now);
}

/** A small JSON body checked by the form's own schema: its value, or the answer already sent (400, 413, 422). */
async function readInput<T>(req: IncomingMessage, res: ServerResponse, schema: ZodType<T>): Promise<T | null> {
  let body: unknown;
  try {
    body = parseJson(await readBody(req, MAX_IDENTITY_BODY_BYTES));
  } catch (error) {
    if (error instanceof Error && error.message === "body too large") {
      res.setHeader("Connection", "close");
      sendJson(res, 413, { error: "Requête trop volumineuse." });
    } else sendJson(res, 400, { error: "Requête illisible." });
    return null;
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  sendJson(res, 422, { error: parsed.error.issues[0]?.message ?? "Saisie invalide." });
  return null;
}

/** POST /api/drops/:id/identite {email}: e-mails a one-time code for this fair start's waiting room. */
function askCode(deps: DropQueueEndpointDeps, productId: number | null): BareHandler {
  return async (req, res, client) => {
    if (!isSameOrigin(req, client, deps.configuredOrigin)) return sendJson(res, 403, { error: "Requête refusée." });
    if (productId === null) return sendJson(res, 404, NO_ROOM);
    const input = await readInput(req, res, collectorEmailSchema);
    if (!input) return;
    const sent = await requestCollectorCode(deps.db, { shop: deps.shop(), secret: deps.dropSecret }, { productId, email: input.email, clientIp: client.ip, now: new Date() });
    if (!sent.ok) return sendJson(res, sent.status, { error: sent.error });
    sendJson(res, 202, { sent: true });
  };
}

/** POST /api/drops/:id/identite/code {email, code}: a right code gives the browser the collector's cookie (every drop). */
function checkCode(deps: DropQueueEndpointDeps): BareHandler {
  return async (req, res, client) => {
    if (!isSameOrigin(req, client, deps.configuredOrigin)) return sendJson(res, 403, { error: "Requête refusée." });
    const input = await readInput(req, res, collectorCodeSchema);
    if (!input) return;
    const checked = await confirmCollectorCode(deps.db, deps.dropSecret, { email: input.email, code: input.code, now: new Date() });
    if (!checked.ok) return sendJson(res, checked.status, { error: checked.error });
    sendJson(res, 200, { confirmed: true }, [serialize(COLLECTOR_COOKIE, checked.token, cookieOptions(deps, COLLECTOR_HOURS * 3_600))]);
  };
}

function ticketOf(req: IncomingMessage, productId: number): string | null {
  return parseCookies(req.headers.cookie ?? "")[ticketCookie(productId)] ?? null;
}

function cookieOptions(deps: DropQueueEndpointDeps, maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: deps.publicUrl().startsWith("https:"), maxAge: maxAgeSeconds };
}

/** The view, with the admission's cookie once the turn has come. */
function answer(deps: DropQueueEndpointDeps, res: ServerResponse, productId: number, ticketId: string | null, view: QueueView, cookies: string[] = []) {
  if (view.state === "admitted" && ticketId) {
    const expiresAt = new Date(view.expiresAt);
    const token = admissionToken(ticketId, productId, expiresAt, deps.dropSecret);
    const seconds = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
    cookies = [...cookies, serialize(admissionCookie(productId), token, cookieOptions(deps, seconds))];
  }
  sendJson(res, 200, view, cookies);
}
