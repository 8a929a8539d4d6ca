import { sliceText } from "~/domain/text-rules";
import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { buybackOffers, inboxEvents, inboxMessages, users } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type FieldErrors, fieldErrors } from "~/domain/auth-forms";
import type { InboxKind, InboxStatus } from "~/domain/inbox-values";
import { buybackSchema, contactSchema } from "~/domain/contact-form-schemas";
import { HONEYPOT_FIELD, MAX_BUYBACK_PHOTOS, PHOTOS_FIELD, TOO_MANY_PHOTOS, honeypotMessage } from "~/domain/contact-forms";
import { INBOX_PAGE_SIZE, type InboxQuery, PHOTO_MAX_SIDE, photoKey } from "~/domain/inbox-admin";
import { customerAcknowledgement, replyEmail, sellerNotification } from "~/domain/inbox-emails";
import { checkTransition, movedOnMessage } from "~/domain/inbox-workflow";
import type { MailShop } from "~/domain/email-templates";
import { tooManyAttemptsMessage } from "~/domain/rate-limits";
import { absoluteUrl } from "~/lib/seo";
import { inboxChanged } from "./admin-badges.server";
import { queueEmail } from "./mail.server";
import { consumeRateLimit } from "./rate-limit.server";
import { type FileStore, checkUploadedImage, encodeWebp } from "./storage.server";

/**
 * Contact and buy-back requests: received from the public forms (checked, rate-limited, written
 * before anything is e-mailed) and worked through by the seller in "Messages reçus" (status
 * changes, replies and offers, each atomic with the e-mail it sends and its timeline event).
 */

export type InboxDeps = { db: Db; privateFiles: FileStore; shop: MailShop; sellerEmail: string };

export type Refusal = { ok: false; status: number; message: string; retryAfterMs?: number };
export type SubmitOutcome = { ok: true; id: string } | { ok: false; status: number; fieldErrors: FieldErrors } | Refusal;

export type Submission = {
  kind: InboxKind;
  /** The form's text fields as sent (validated here). */
  values: Record<string, unknown>;
  /** The files of the photos field (buy-back only), as sent. */
  photos: { name: string; bytes: Buffer }[];
  clientIp: string;
};

const randomPart = () => randomBytes(8).toString("hex");

/**
 * Receives a request from /contact or /rachat. In order: the honeypot, the form's schema, the
 * photo count, the rate limits (per client address, then per e-mail), the photos (decoded and
 * re-encoded in memory: one refused, nothing stored); then the photos are stored privately,
 * and one transaction writes the request and queues the seller's notice and the customer's
 * acknowledgement. A failed transaction removes the stored photos again.
 */
export async function submitInboxRequest(deps: InboxDeps, submission: Submission, options: { now?: Date } = {}): Promise<SubmitOutcome> {
  const { db } = deps;
  const trap = submission.values[HONEYPOT_FIELD];
  if (typeof trap === "string" && trap.trim() !== "") return { ok: false, status: 400, message: honeypotMessage(deps.shop.email) };

  const parsed = (submission.kind === "rachat" ? buybackSchema : contactSchema).safeParse(submission.values);
  if (!parsed.success) return { ok: false, status: 400, fieldErrors: fieldErrors(parsed.error) };
  const form = { phone: null, ...parsed.data };
  const photos = submission.kind === "rachat" ? submission.photos : [];
  if (photos.length > MAX_BUYBACK_PHOTOS) return { ok: false, status: 400, fieldErrors: { [PHOTOS_FIELD]: TOO_MANY_PHOTOS } };

  for (const [name, subject] of [["inboxPerIp", submission.clientIp], ["inboxPerEmail", form.email]] as const) {
    const limit = await consumeRateLimit(db, name, subject);
    if (limit.blocked) return { ok: false, status: 429, message: tooManyAttemptsMessage(limit.retryAfterMs), retryAfterMs: limit.retryAfterMs };
  }

  const encoded: Buffer[] = [];
  for (const photo of photos) {
    const checked = await checkUploadedImage(photo.bytes, (source) => encodeWebp(source, PHOTO_MAX_SIDE));
    if (!checked.ok) {
      const error = photos.length > 1 ? `${sliceText(photo.name, 80)} : ${checked.error}` : checked.error;
      return { ok: false, status: checked.status, fieldErrors: { [PHOTOS_FIELD]: error } };
    }
    encoded.push(checked.value);
  }

  const now = options.now ?? new Date();
  const keys = encoded.map(() => photoKey(now, randomPart()));
  const forget = () => Promise.allSettled(keys.map((key) => deps.privateFiles.delete(key)));
  try {
    await Promise.all(encoded.map((body, i) => deps.privateFiles.put(keys[i]!, body, "image/webp")));
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(inboxMessages)
        .values({ kind: submission.kind, ...form, photos: keys, createdAt: now, updatedAt: now })
        .returning({ id: inboxMessages.id });
      const request = { id: row!.id, kind: submission.kind, ...form, photoCount: keys.length };
      await queueEmail(tx, {
        to: deps.sellerEmail,
        // The seller's mail client answers the customer directly.
        replyTo: form.email,
        kind: `inbox-${submission.kind}-seller`,
        content: sellerNotification({ shop: deps.shop, request, adminUrl: absoluteUrl(deps.shop.publicUrl, `/admin/inbox/${request.id}`) }),
      });
      await queueEmail(tx, {
        to: form.email,
        kind: `inbox-${submission.kind}-ack`,
        content: customerAcknowledgement({ shop: deps.shop, kind: submission.kind, firstName: form.firstName }),
      });
      return request.id;
    });
    inboxChanged(db);
    return { ok: true, id };
  } catch (error) {
    await forget();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The seller's side

export type InboxRow = {
  id: string;
  kind: InboxKind;
  lastName: string;
  firstName: string;
  email: string;
  status: InboxStatus;
  photoCount: number;
  createdAt: Date;
};

export type InboxPage = { rows: InboxRow[]; total: number; page: number; pageCount: number };

/** "Messages reçus": newest first, filtered by kind and status; a page past the end reads the last. */
export async function listInbox(db: Db, query: InboxQuery): Promise<InboxPage> {
  const where = and(query.kind ? eq(inboxMessages.kind, query.kind) : undefined, query.status ? eq(inboxMessages.status, query.status) : undefined);
  const read = (page: number) =>
    db
      .select({
        id: inboxMessages.id,
        kind: inboxMessages.kind,
        lastName: inboxMessages.lastName,
        firstName: inboxMessages.firstName,
        email: inboxMessages.email,
        status: inboxMessages.status,
        photoCount: sql<number>`jsonb_array_length(${inboxMessages.photos})`.mapWith(Number),
        createdAt: inboxMessages.createdAt,
        // The page and the total in one scan.
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(inboxMessages)
      .where(where)
      .orderBy(desc(inboxMessages.createdAt), desc(inboxMessages.seq))
      .limit(INBOX_PAGE_SIZE)
      .offset((page - 1) * INBOX_PAGE_SIZE);
  let page = query.page;
  let found = await read(page);
  let total = found[0]?.total ?? 0;
  if (found.length === 0 && page > 1) {
    const [counted] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(inboxMessages).where(where);
    total = counted?.n ?? 0;
    page = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
    found = total > 0 ? await read(page) : [];
  }
  return { rows: found.map(({ total: _total, ...row }) => row), total, page, pageCount: Math.ceil(total / INBOX_PAGE_SIZE) };
}

export type InboxRequest = typeof inboxMessages.$inferSelect;
export type InboxEvent = Pick<typeof inboxEvents.$inferSelect, "id" | "type" | "fromStatus" | "toStatus" | "body" | "amountCents" | "emailId" | "createdAt"> & {
  actorName: string | null;
};

// Anything else would make PostgreSQL throw on the uuid cast: an unknown id is simply not found.
const isId = (id: string) => z.guid().safeParse(id).success;

export async function findRequest(db: Db | Tx, id: string): Promise<InboxRequest | null> {
  if (!isId(id)) return null;
  const [row] = await db.select().from(inboxMessages).where(eq(inboxMessages.id, id));
  return row ?? null;
}

/** A request and its timeline, oldest event first. */
export async function getInboxRequest(db: Db, id: string): Promise<{ request: InboxRequest; events: InboxEvent[] } | null> {
  const request = await findRequest(db, id);
  if (!request) return null;
  const events = await db
    .select({
      id: inboxEvents.id,
      type: inboxEvents.type,
      fromStatus: inboxEvents.fromStatus,
      toStatus: inboxEvents.toStatus,
      body: inboxEvents.body,
      amountCents: inboxEvents.amountCents,
      emailId: inboxEvents.emailId,
      createdAt: inboxEvents.createdAt,
      actorName: users.name,
    })
    .from(inboxEvents)
    .leftJoin(users, eq(users.id, inboxEvents.actorId))
    .where(eq(inboxEvents.messageId, id))
    .orderBy(inboxEvents.createdAt, inboxEvents.seq);
  return { request, events };
}

export type ActionOutcome = { ok: true; request: InboxRequest } | Refusal;

export const NOT_FOUND: Refusal = { ok: false, status: 404, message: "Cette demande n'existe pas ou plus." };

/**
 * Moves a request from `expected` (the status the seller saw) to `to`, once: the update only
 * applies while the status is still `expected`, so a second click or another tab gets a 409.
 */
export async function applyMove(tx: Tx, request: InboxRequest, expected: InboxStatus, to: InboxStatus, set: Partial<InboxRequest> = {}): Promise<InboxRequest | Refusal> {
  const check = checkTransition(request.kind, request.status, expected, to);
  if (!check.ok) return check;
  const [moved] = await tx
    .update(inboxMessages)
    .set({ ...set, status: to, updatedAt: sql`now()` })
    .where(and(eq(inboxMessages.id, request.id), eq(inboxMessages.status, expected)))
    .returning();
  if (moved) return moved;
  // Changed between the read and the update (a concurrent click): say what it is now.
  const now = await findRequest(tx, request.id);
  return now ? { ok: false, status: 409, message: movedOnMessage(now.status) } : NOT_FOUND;
}

/** The sidebar's and the dashboard's counts of requests are read again once `work` is done. */
export async function afterwardsCounted<T>(db: Db, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } finally {
    inboxChanged(db);
  }
}

export const isRefusal = (value: InboxRequest | Refusal): value is Refusal => "ok" in value;

export async function moveInboxRequest(db: Db, input: { id: string; expected: InboxStatus; to: InboxStatus; actorId: string }): Promise<ActionOutcome> {
  return afterwardsCounted(db, db.transaction(async (tx) => {
    const request = await findRequest(tx, input.id);
    if (!request) return NOT_FOUND;
    const moved = await applyMove(tx, request, input.expected, input.to);
    if (isRefusal(moved)) return moved;
    await tx.insert(inboxEvents).values({ messageId: request.id, type: "status", fromStatus: input.expected, toStatus: input.to, actorId: input.actorId });
    // "Virement effectué": the transfer recorded at completion is now paid.
    if (input.expected === "a_virer") await tx.update(buybackOffers).set({ transferPaidAt: sql`now()`, updatedAt: sql`now()` }).where(eq(buybackOffers.messageId, request.id));
    return { ok: true, request: moved };
  }));
}

/** Opening a new contact message marks it read (recorded like any status change); false if it was not new. */
export async function markContactRead(db: Db, id: string, actorId: string): Promise<boolean> {
  if (!isId(id)) return false;
  return afterwardsCounted(db, db.transaction(async (tx) => {
    const [read] = await tx
      .update(inboxMessages)
      .set({ status: "lu", updatedAt: sql`now()` })
      .where(and(eq(inboxMessages.id, id), eq(inboxMessages.kind, "contact"), eq(inboxMessages.status, "nouveau")))
      .returning({ id: inboxMessages.id });
    if (!read) return false;
    await tx.insert(inboxEvents).values({ messageId: id, type: "status", fromStatus: "nouveau", toStatus: "lu", actorId });
    return true;
  }));
}

export type MailDeps = Pick<InboxDeps, "db" | "shop">;

/** E-mails the seller's reply to the customer, through the outbox, and records it. */
export async function replyToRequest(deps: MailDeps, input: { id: string; reply: string; actorId: string }): Promise<ActionOutcome> {
  return afterwardsCounted(deps.db, deps.db.transaction(async (tx) => {
    const request = await findRequest(tx, input.id);
    if (!request) return NOT_FOUND;
    const email = await queueEmail(tx, {
      to: request.email,
      kind: `inbox-${request.kind}-reply`,
      content: replyEmail({ shop: deps.shop, kind: request.kind, firstName: request.firstName, reply: input.reply, original: request.message }),
    });
    await tx.insert(inboxEvents).values({ messageId: request.id, type: "reply", body: input.reply, emailId: email.id, actorId: input.actorId });
    return { ok: true, request };
  }));
}
