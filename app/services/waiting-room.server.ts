import { randomInt } from "node:crypto";
import type { Logger } from "pino";
import type { DropRefusalTally } from "./drop-refusal-tally.server";
import { and, asc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import { dropQueue, orderItems, orders, productDrops, products, type QueueStatus } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type DropStartMode } from "~/domain/drop-form";
import { type Collector, type IdentityNeeded, identityNeeded, identityNeededMessage } from "~/domain/drop-identity";
import {
  ADMISSION_MINUTES,
  admissionSlots,
  FAIR_RANK_RANGE,
  isSoldOut,
  NETWORK_FULL_MESSAGE,
  type QueueFigures,
  type QueueView,
  queueOpensAt,
  ticketsPerNetwork,
  ticketRank,
} from "~/domain/waiting-room";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import { readToken, signToken } from "~/lib/signed-token.server";

/**
 * A drop's waiting room (issue 39, point 3; rules in domain/waiting-room.ts). A product that is a
 * drop and has an opening time is bought through it: a browser joins (a ticket, placed by
 * arrival or by the fair start's draw), waits for its turn, is admitted while units are free
 * (about 1.5 × the units neither sold nor held, less the admissions open), and its admission,
 * signed and valid a few minutes, is used once by a checkout. Everything is in the database: the
 * instances agree, and one stopped mid-drop loses nobody's place.
 */

type Room = { productId: number; dropTime: Date; startMode: DropStartMode; windowMinutes: number; stock: number; accountRequired: boolean };

/** The product's waiting room, or null when it has none (not a drop, or no opening time). */
export async function roomOf(db: Db | Tx, productId: number): Promise<Room | null> {
  const [row] = await db
    .select({
      productId: products.id,
      dropTime: products.dropTime,
      startMode: productDrops.startMode,
      windowMinutes: productDrops.fairWindowMinutes,
      stock: products.stock,
      accountRequired: productDrops.accountRequired,
    })
    .from(productDrops)
    .innerJoin(products, eq(products.id, productDrops.productId))
    .where(eq(productDrops.productId, productId));
  if (!row?.dropTime) return null;
  return { ...row, dropTime: row.dropTime };
}

/** Units on sale, held by unpaid orders, and paid for since this opening: the figures every waiting page shows. */
export async function queueFigures(db: Db | Tx, room: Pick<Room, "productId" | "stock" | "dropTime">): Promise<QueueFigures> {
  const [row] = await db
    .select({
      held: sql<number>`coalesce(sum(${orderItems.quantity}) filter (where ${orders.status} = 'pending_payment'), 0)::int`,
      sold: sql<number>`coalesce(sum(${orderItems.quantity}) filter (where ${orders.status} in ('paid', 'shipped')), 0)::int`,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    // A restock's opening counts its own sales, not the earlier drops' (decision 038).
    .where(and(eq(orderItems.productId, room.productId), gte(orders.createdAt, room.dropTime)));
  return { available: Math.max(0, room.stock), held: row?.held ?? 0, sold: row?.sold ?? 0 };
}

export type JoinResult =
  | { ok: true; ticketId: string; view: QueueView }
  | { ok: false; status: 404 | 409 | 429; error: string }
  | { ok: false; status: 401; error: string; needs: IdentityNeeded };

/**
 * Takes a ticket: free, nothing held (the fair start is no lottery). Refused before the room
 * opens, and past the tickets one network may take for this drop. In a fair start the ticket is
 * a collector's (domain/drop-identity.ts): one without is asked to prove one (401), and a
 * collector who joins again, from any browser, gets their one ticket back. Answers with the
 * ticket's view, from the instance's reading of the room (no second read).
 */
export async function joinQueue(db: Db, productId: number, client: { network: string; now: Date; collector?: () => Promise<Collector | null> }): Promise<JoinResult> {
  const shared = await roomSnapshot(db, productId, client.now);
  if (!shared) return { ok: false, status: 404, error: "Ce produit n'a pas de file d'attente." };
  const { room } = shared;
  const opensAt = queueOpensAt(room.dropTime, room.windowMinutes);
  if (client.now < opensAt) return { ok: false, status: 409, error: "La file d'attente n'est pas encore ouverte." };
  // Only a fair start asks who joins (a session's lookup costs a read).
  const collector = room.startMode === "fair_start" ? ((await client.collector?.()) ?? null) : null;
  const needs = identityNeeded(room, collector);
  if (needs) return { ok: false, status: 401, error: identityNeededMessage(needs), needs };
  const identity = collector?.key ?? null;
  if (identity) {
    const held = await collectorTicket(db, room, identity);
    if (held && isLive(held, client.now)) return { ok: true, ticketId: held.id, view: viewOf(shared, held, client.now) };
    if (held) return rejoin(db, shared, held.id, client.now);
  }
  const bound = ticketsPerNetwork(client.network, identity !== null);
  const full = { ok: false as const, status: 429 as const, error: NETWORK_FULL_MESSAGE };
  // Tickets are never given back during a drop: a network once at its bound stays there, and this
  // instance refuses it from memory; else from a plain read, before waiting on its lock (a
  // script's burst of joins at the opening).
  const atBound = networksAtBound(db, room);
  if (atBound.has(client.network)) return full;
  // A collector's join skips it (a flood bound, rarely reached: the transaction counts anyway).
  if (!identity && (await networkTickets(db, room, client.network)) >= bound) {
    atBound.add(client.network);
    return full;
  }
  const rank = ticketRank(room.startMode, room.dropTime, client.now, randomInt(0, FAIR_RANK_RANGE));
  const joined = await db.transaction(async (tx) => {
    // One network's tickets are counted under its own lock: parallel joins cannot all pass.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`queue:${productId}:${client.network}`}, 0))`);
    // Counted and taken in one statement, its snapshot taken after the lock (a round trip less in
    // a join's burst); the same collector joining on two browsers at once: no second ticket.
    const { rows } = (await tx.execute(sql`
      with taken as (
        select count(*)::int as n from ${dropQueue}
        where ${dropQueue.productId} = ${productId} and ${dropQueue.dropTime} = ${room.dropTime} and ${dropQueue.network} = ${client.network}
      ), ticket as (
        insert into ${dropQueue} (product_id, drop_time, rank, network, identity, joined_at)
        select ${productId}::int, ${room.dropTime}::timestamptz, ${rank}::bigint, ${client.network}::text, ${identity}::text, ${client.now}::timestamptz
        from taken where n < ${bound}
        on conflict do nothing
        returning id
      )
      select (select n from taken) as taken, (select id from ticket) as id`)) as unknown as { rows: { taken: number; id: string | null }[] };
    const taken = Number(rows[0]?.taken ?? 0);
    if (taken >= bound) return null;
    const ticketId = rows[0]?.id ?? null;
    if (!ticketId) return { held: await collectorTicket(tx, room, identity!) };
    if (taken + 1 >= bound) atBound.add(client.network);
    return { ticketId };
  });
  if (!joined) {
    atBound.add(client.network);
    return full;
  }
  if ("held" in joined) return joined.held ? { ok: true, ticketId: joined.held.id, view: viewOf(shared, joined.held, client.now) } : full;
  return { ok: true, ticketId: joined.ticketId, view: viewOf(shared, { status: "waiting", rank, admissionExpiresAt: null }, client.now) };
}

/** Whether a ticket still has its place: in line, or admitted and in time. */
function isLive(ticket: TicketState, now: Date): boolean {
  return ticket.status === "waiting" || (ticket.status === "admitted" && ticket.admissionExpiresAt! > now);
}

/**
 * A collector whose turn passed (admission unused in time, or used by a checkout that was not
 * paid) joins again with the same ticket, at the back of the line: still one ticket each.
 */
async function rejoin(db: Db, shared: RoomSnapshot, ticketId: string, now: Date): Promise<JoinResult> {
  const rank = ticketRank(shared.room.startMode, shared.room.dropTime, now, randomInt(0, FAIR_RANK_RANGE));
  await db
    .update(dropQueue)
    .set({ status: "waiting", rank, admittedAt: null, admissionExpiresAt: null, joinedAt: now })
    .where(and(eq(dropQueue.id, ticketId), or(inArray(dropQueue.status, ["used", "expired"]), and(eq(dropQueue.status, "admitted"), lte(dropQueue.admissionExpiresAt, now)))));
  return { ok: true, ticketId, view: viewOf(shared, { status: "waiting", rank, admissionExpiresAt: null }, now) };
}

/** The ticket a collector holds for this opening, if any. */
async function collectorTicket(db: Db | Tx, room: Room, identity: string): Promise<(TicketState & { id: string }) | null> {
  const [ticket] = await db
    .select({ id: dropQueue.id, status: dropQueue.status, rank: dropQueue.rank, admissionExpiresAt: dropQueue.admissionExpiresAt })
    .from(dropQueue)
    .where(and(eq(dropQueue.productId, room.productId), eq(dropQueue.dropTime, room.dropTime), eq(dropQueue.identity, identity)));
  return ticket ?? null;
}

async function networkTickets(db: Db | Tx, room: Room, network: string): Promise<number> {
  const [taken] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(dropQueue)
    .where(and(eq(dropQueue.productId, room.productId), eq(dropQueue.dropTime, room.dropTime), eq(dropQueue.network, network)));
  return taken?.n ?? 0;
}

/** Per database handle, per drop (product and opening): the networks this instance saw at their bound. */
const fullNetworks = new WeakMap<Db, Map<string, Set<string>>>();

function networksAtBound(db: Db, room: Room): Set<string> {
  let byDrop = fullNetworks.get(db);
  if (!byDrop) fullNetworks.set(db, (byDrop = new Map()));
  const key = `${room.productId}@${room.dropTime.getTime()}`;
  let networks = byDrop.get(key);
  if (!networks) {
    // A handful of drops at a time; an old one's set is dropped when a new one starts.
    if (byDrop.size >= 32) byDrop.clear();
    byDrop.set(key, (networks = new Set()));
  }
  return networks;
}

/**
 * Admits the next in line while units are free, after ending the admissions whose time is up.
 * One instance at a time per drop (a try-lock: the others skip this round). Returns how many
 * were admitted.
 */
export async function advanceQueue(db: Db, productId: number, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = ((await tx.execute(sql`select pg_try_advisory_xact_lock(hashtextextended(${`queue:${productId}`}, 0)) as ok`)) as unknown as { rows: { ok: boolean }[] }).rows;
    if (!lock?.ok) return 0;
    await tx
      .update(dropQueue)
      .set({ status: "expired" })
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.status, "admitted"), lte(dropQueue.admissionExpiresAt, now)));
    const room = await roomOf(tx, productId);
    if (!room || now < room.dropTime) return 0;
    const [open] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(dropQueue)
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.dropTime, room.dropTime), eq(dropQueue.status, "admitted")));
    const slots = admissionSlots(room.stock, open?.n ?? 0);
    if (slots === 0) return 0;
    const next = await tx
      .select({ id: dropQueue.id })
      .from(dropQueue)
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.dropTime, room.dropTime), eq(dropQueue.status, "waiting")))
      .orderBy(asc(dropQueue.rank))
      .limit(slots)
      .for("update", { skipLocked: true });
    if (next.length === 0) return 0;
    await tx
      .update(dropQueue)
      .set({ status: "admitted", admittedAt: now, admissionExpiresAt: new Date(now.getTime() + ADMISSION_MINUTES * 60_000) })
      .where(inArray(dropQueue.id, next.map((row) => row.id)));
    return next.length;
  });
}

/** The drops whose waiting room has someone in it for the product's current opening: the ones to advance. */
export async function activeQueues(db: Db): Promise<number[]> {
  const rows = await db
    .selectDistinct({ productId: dropQueue.productId })
    .from(dropQueue)
    .innerJoin(products, and(eq(products.id, dropQueue.productId), eq(products.dropTime, dropQueue.dropTime)))
    .where(inArray(dropQueue.status, ["waiting", "admitted"]));
  return rows.map((row) => row.productId);
}

/** What the ticket's page shows: its place, its admission, or the drop sold out; with the figures. */
export async function queueView(db: Db, productId: number, ticketId: string | null, now: Date): Promise<QueueView | null> {
  const shared = await roomSnapshot(db, productId, now);
  if (!shared) return null;
  const { room, figures } = shared;
  if (isSoldOut(figures) && now >= room.dropTime) return { state: "sold_out", figures };
  // The ticket itself is read fresh: an admission shows at once, whatever the snapshot's age.
  const [ticket] =
    ticketId && UUID.test(ticketId)
      ? await db
          .select({ status: dropQueue.status, rank: dropQueue.rank, admissionExpiresAt: dropQueue.admissionExpiresAt })
          .from(dropQueue)
          .where(and(eq(dropQueue.id, ticketId), eq(dropQueue.productId, productId), eq(dropQueue.dropTime, room.dropTime)))
      : [];
  return viewOf(shared, ticket ?? null, now);
}

type TicketState = { status: QueueStatus; rank: number; admissionExpiresAt: Date | null };

/** A ticket's view from a reading of its room (null: no ticket for this opening). */
function viewOf({ room, figures, waitingRanks }: RoomSnapshot, ticket: TicketState | null, now: Date): QueueView {
  if (isSoldOut(figures) && now >= room.dropTime) return { state: "sold_out", figures };
  const opensAt = queueOpensAt(room.dropTime, room.windowMinutes);
  if (!ticket || ticket.status === "used" || ticket.status === "expired" || (ticket.status === "admitted" && ticket.admissionExpiresAt! <= now)) {
    return now < opensAt ? { state: "closed", opensAt: opensAt.toISOString(), figures } : { state: "open", figures };
  }
  if (ticket.status === "admitted") return { state: "admitted", expiresAt: ticket.admissionExpiresAt!.toISOString(), figures };
  return { state: "waiting", position: countBelow(waitingRanks, Number(ticket.rank)) + 1, figures };
}

/** How many of these ascending ranks are below `rank` (a binary search). */
function countBelow(ranks: number[], rank: number): number {
  let low = 0;
  let high = ranks.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ranks[middle]! < rank) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How long every waiting page of an instance shares one reading of a room. */
const SNAPSHOT_MS = 1_000;

type RoomSnapshot = { room: Room; figures: QueueFigures; waitingRanks: number[] };

/** Per database handle (an instance's pool), per product: the last reading and when it was taken. */
const snapshots = new WeakMap<Db, Map<number, { at: number; reading: Promise<RoomSnapshot | null> }>>();

/**
 * A room as its waiting pages see it: the room, its figures and the ranks in line, read at most
 * once a second per instance and shared by every page that asks meanwhile. A thousand pages
 * polling every 2 s then cost three queries a second and one each (its ticket), instead of four
 * each with a count that grows with the line. Places and figures may be a second old.
 */
function roomSnapshot(db: Db, productId: number, now: Date): Promise<RoomSnapshot | null> {
  let byProduct = snapshots.get(db);
  if (!byProduct) snapshots.set(db, (byProduct = new Map()));
  const last = byProduct.get(productId);
  if (last && Math.abs(now.getTime() - last.at) < SNAPSHOT_MS) return last.reading;
  const reading = readRoom(db, productId);
  byProduct.set(productId, { at: now.getTime(), reading });
  // A failed reading is not kept: the next page asks again.
  reading.catch(() => byProduct.delete(productId));
  return reading;
}

async function readRoom(db: Db, productId: number): Promise<RoomSnapshot | null> {
  const room = await roomOf(db, productId);
  if (!room) return null;
  const [figures, waiting] = await Promise.all([
    queueFigures(db, room),
    db
      .select({ rank: dropQueue.rank })
      .from(dropQueue)
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.dropTime, room.dropTime), eq(dropQueue.status, "waiting")))
      .orderBy(asc(dropQueue.rank)),
  ]);
  return { room, figures, waitingRanks: waiting.map((row) => Number(row.rank)) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type AdmissionPayload = { t: string; p: number; e: number };

/** The admission a token carries if this shop signed it for this product and it has not ended (not whether it was used). */
export function admissionOf(token: string | undefined, productId: number, secret: string, now: Date): AdmissionPayload | null {
  if (!token) return null;
  const payload = readToken(token, secret) as Partial<AdmissionPayload> | null;
  if (!payload || payload.p !== productId || typeof payload.t !== "string" || !UUID.test(payload.t) || typeof payload.e !== "number" || payload.e <= now.getTime()) return null;
  return payload as AdmissionPayload;
}

/**
 * The first of these drops that is bought through a waiting room and for which the browser
 * brings no admission this shop signed and that has not ended: checked before any limit is
 * counted or lock taken, so checkouts posted out of turn (scripts at the opening) cost the
 * drops' one read. Whether the admission was already used is the transaction's to say (useAdmission).
 */
export function firstWithoutAdmission(
  drops: Iterable<{ productId: number; name: string; waitingRoom: boolean }>,
  admissions: { tokens: Map<number, string>; secret: string } | undefined,
  now: Date,
): { productId: number; name: string } | null {
  for (const drop of drops) {
    if (drop.waitingRoom && !admissionOf(admissions?.tokens.get(drop.productId), drop.productId, admissions?.secret ?? "", now)) return drop;
  }
  return null;
}

/** The admission a browser carries to the checkout (a cookie): the ticket, the product, the end; signed. */
export function admissionToken(ticketId: string, productId: number, expiresAt: Date, secret: string): string {
  return signToken({ t: ticketId, p: productId, e: expiresAt.getTime() } satisfies AdmissionPayload, secret);
}

/**
 * Uses an admission for this product, once, in the checkout's transaction: the token must be
 * signed by this shop, for this product, not past its end, and its ticket still admitted. A
 * rollback (the checkout refused later) leaves it usable.
 */
export async function useAdmission(tx: Db | Tx, token: string | undefined, productId: number, secret: string, now: Date): Promise<boolean> {
  const payload = admissionOf(token, productId, secret, now);
  if (!payload) return false;
  const used = await tx
    .update(dropQueue)
    .set({ status: "used" })
    .where(and(eq(dropQueue.id, payload.t), eq(dropQueue.productId, productId), eq(dropQueue.status, "admitted"), sql`${dropQueue.admissionExpiresAt} > ${now}`))
    .returning({ id: dropQueue.id });
  return used.length > 0;
}

/** How often each instance moves the lines on (a try-lock per drop: one of them does it). */
export const QUEUE_ADVANCE_MS = 1_000;

/** Moves every waiting room with someone in it on, every second, until stopped; writes the refusals counted meanwhile. */
export function startWaitingRooms(db: Db, logger: Logger, options: { intervalMs?: number; refusals?: DropRefusalTally } = {}) {
  const job = startPeriodicJob({
    async run() {
      await options.refusals?.flush(db);
      const now = new Date();
      for (const productId of await activeQueues(db)) {
        const admitted = await advanceQueue(db, productId, now);
        if (admitted > 0) logger.info({ productId, admitted }, "drop: admitted from the waiting room");
      }
    },
    intervalMs: options.intervalMs ?? QUEUE_ADVANCE_MS,
    logger,
    failure: "drop: waiting room round failed",
  });
  return {
    async stop() {
      await job.stop();
      await options.refusals?.flush(db);
    },
  };
}
