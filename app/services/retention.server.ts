import { and, eq, inArray, isNotNull, lt, ne, notInArray, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { dropIdentityCodes, dropQueue, inboxMessages, orders, outboxEmails, rateLimits, sessions, verifications } from "~/db/schema";
import type { Db } from "~/db/types";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import { CLOSED_INBOX_STATUSES, EMAIL_KINDS_KEPT_WITH_ORDER, RETAINED_EMAIL_TEXT, retentionCutoffs } from "~/domain/retention";
import type { FileStore } from "./storage.server";

export type RetentionReport = {
  emails: number;
  photoRequests: number;
  photos: number;
  photosLeft: number;
  rateLimits: number;
  sessions: number;
  verifications: number;
  orderNetworks: number;
  queueTickets: number;
  /** A fair start's one-time codes past their minutes (the next request of any mailbox also clears them). */
  collectorCodes: number;
};

/**
 * The retention job, at `now` (periods in app/domain/retention.ts, docs/privacy.md): e-mails
 * sent (or failed) more than 90 days ago lose subject and content (recipient, kind, status and
 * dates stay: the seller still sees that they went), but for order confirmations, kept with their order; closed buy-back requests untouched for 12
 * months lose their photos (files deleted from private storage, then the keys; a key whose
 * file could not be deleted stays for the next run); expired rate-limit counters, sessions and
 * links go; orders placed more than 30 days ago forget the client's network, and waiting-room
 * tickets that old go (with the collector's mailbox key they carry), as do expired one-time codes. Every step is idempotent, so instances running it at once only repeat each other.
 */
export async function runRetention(deps: { db: Db; privateFiles: FileStore }, now: Date): Promise<RetentionReport> {
  const { db } = deps;
  const cutoff = retentionCutoffs(now);

  const emails = await db
    .update(outboxEmails)
    .set({ subject: RETAINED_EMAIL_TEXT, html: RETAINED_EMAIL_TEXT, text: RETAINED_EMAIL_TEXT })
    .where(
      and(
        ne(outboxEmails.text, RETAINED_EMAIL_TEXT),
        notInArray(outboxEmails.kind, [...EMAIL_KINDS_KEPT_WITH_ORDER]),
        or(and(eq(outboxEmails.status, "sent"), lt(outboxEmails.sentAt, cutoff.outboxBody)), and(eq(outboxEmails.status, "failed"), lt(outboxEmails.createdAt, cutoff.outboxBody))),
      ),
    )
    .returning({ id: outboxEmails.id });

  const closed = await db
    .select({ id: inboxMessages.id, photos: inboxMessages.photos })
    .from(inboxMessages)
    .where(and(inArray(inboxMessages.status, [...CLOSED_INBOX_STATUSES]), lt(inboxMessages.updatedAt, cutoff.closedBuybackPhotos), sql`jsonb_array_length(${inboxMessages.photos}) > 0`));
  let photos = 0;
  let photosLeft = 0;
  for (const request of closed) {
    const settled = await Promise.allSettled(request.photos.map((key) => deps.privateFiles.delete(key)));
    const left = request.photos.filter((_, i) => settled[i]!.status === "rejected");
    photos += request.photos.length - left.length;
    photosLeft += left.length;
    // Only if the photos are still these (the seller may not add any, but be exact); updatedAt
    // stays: it is the request's last change, not this clean-up's.
    await db.update(inboxMessages).set({ photos: left }).where(and(eq(inboxMessages.id, request.id), sql`${inboxMessages.photos} = ${JSON.stringify(request.photos)}::jsonb`));
  }

  const limits = await db.delete(rateLimits).where(lt(rateLimits.resetAt, cutoff.expiredRows)).returning({ key: rateLimits.key });
  const ended = await db.delete(sessions).where(lt(sessions.expiresAt, cutoff.expiredRows)).returning({ id: sessions.id });
  const links = await db.delete(verifications).where(lt(verifications.expiresAt, cutoff.expiredRows)).returning({ id: verifications.id });

  const networks = await db
    .update(orders)
    .set({ clientNetwork: null })
    .where(and(isNotNull(orders.clientNetwork), lt(orders.createdAt, cutoff.orderNetwork)))
    .returning({ id: orders.id });
  const tickets = await db.delete(dropQueue).where(lt(dropQueue.joinedAt, cutoff.orderNetwork)).returning({ id: dropQueue.id });
  const codes = await db.delete(dropIdentityCodes).where(lt(dropIdentityCodes.expiresAt, now)).returning({ id: dropIdentityCodes.id });

  return {
    emails: emails.length,
    photoRequests: closed.length,
    photos,
    photosLeft,
    rateLimits: limits.length,
    sessions: ended.length,
    verifications: links.length,
    orderNetworks: networks.length,
    queueTickets: tickets.length,
    collectorCodes: codes.length,
  };
}

export const RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * Runs the retention job shortly after start, then every 6 hours (a timer in every instance;
 * the job is idempotent). `now` is read at each run.
 */
export function startRetentionJob(options: { db: Db; privateFiles: FileStore; logger: Logger; intervalMs?: number; firstRunMs?: number; now?: () => Date }) {
  const { logger } = options;
  const job = startPeriodicJob({
    async run() {
      const report = await runRetention(options, options.now?.() ?? new Date());
      if (Object.values(report).some((n) => n > 0)) logger.info(report, "retention: expired personal data cleared");
      if (report.photosLeft > 0) logger.warn({ count: report.photosLeft }, "retention: buy-back photos could not be deleted, will retry");
    },
    firstRunMs: options.firstRunMs ?? 60_000,
    intervalMs: options.intervalMs ?? RETENTION_INTERVAL_MS,
    logger,
    failure: "retention job failed",
  });
  return { stop: job.stop };
}
