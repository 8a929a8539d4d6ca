import { and, eq, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { dropIdentityCodes, dropQueue, inboxMessages, orders, outboxEmails, rateLimits, sessions, stockAlerts, users, verifications } from "~/db/schema";
import type { Db } from "~/db/types";
import { ERASED_TEXT, OPEN_ORDER_STATUSES, erasedAddress, erasedEmail } from "~/domain/admin-users";
import type { MailShop } from "~/domain/email-templates";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import { CLOSED_INBOX_STATUSES, EMAIL_KINDS_KEPT_WITH_ORDER, RETAINED_EMAIL_TEXT, RETENTION, contactRetentionCutoffs, retentionCutoffs } from "~/domain/retention";
import { queueInactiveAccountEmail } from "./account-mail.server";
import { blankRequests, eraseUser } from "./gdpr.server";
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
    .set({ subject: RETAINED_EMAIL_TEXT, html: RETAINED_EMAIL_TEXT, text: RETAINED_EMAIL_TEXT, headers: null })
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

export type ContactRetentionReport = {
  /** Contact and buy-back requests anonymised. */
  requests: number;
  /** Requests left for the next run: a photo file could not be deleted. */
  requestsLeft: number;
  accountsWarned: number;
  accountsErased: number;
  /** Accounts past their period kept because an order of theirs is open (tried again next run). */
  accountsKept: number;
  orderContacts: number;
  stockAlerts: number;
  emailTraces: number;
};

/** Who erases an inactive account (eraseUser refuses an actor erasing itself; no account has this id). */
const RETENTION_ACTOR = "retention-job";

/**
 * An account's last activity: its creation, its last sign-in or the last use of a session still
 * held (a session is renewed as it is used, so a customer who never signs out stays active).
 */
const lastActivity = sql`greatest(${users.createdAt}, ${users.lastSignInAt}, (select max(${sessions.updatedAt}) from ${sessions} where ${sessions.userId} = ${users.id}))`.mapWith(users.createdAt);

/** The day an account warned at `warnedAt` and inactive since `since` is erased: three years of inactivity, and the warning's month given. */
function inactiveErasureDate(since: Date, warnedAt: Date): Date {
  const due = new Date(since);
  due.setUTCMonth(due.getUTCMonth() + RETENTION.inactiveAccountYears * 12);
  return new Date(Math.max(due.getTime(), warnedAt.getTime() + RETENTION.inactiveAccountWarningDays * 24 * 60 * 60 * 1000));
}

/**
 * The job's second part, at `now` (periods in app/domain/retention.ts, the privacy notice's table
 * is built from them): requests untouched for 3 years are anonymised as an erasure does (photo
 * files deleted first; a request whose file could not be deleted waits for the next run);
 * customer accounts without activity for 3 years less a month are warned by e-mail, once, and
 * erased (eraseUser, as the admin does) once both the 3 years and the warning's month are over,
 * unless an order of theirs is open (an activity after the warning calls for a new one); orders
 * shipped (or, never shipped, placed) 25 months ago and no longer open lose their delivery
 * address but its method and country, their phone and their drop address key; alerts sent,
 * withdrawn or left unconfirmed 30 days ago are deleted; e-mails sent (or written) 3 years ago are
 * deleted, but the order confirmations. Idempotent, like the first part.
 */
export async function runContactRetention(deps: { db: Db; privateFiles: FileStore; shop: MailShop }, now: Date): Promise<ContactRetentionReport> {
  const { db } = deps;
  const cutoff = contactRetentionCutoffs(now);

  const stale = await db
    .select({ id: inboxMessages.id, photos: inboxMessages.photos })
    .from(inboxMessages)
    .where(and(lt(inboxMessages.updatedAt, cutoff.inboxRequests), ne(inboxMessages.message, ERASED_TEXT)));
  let requests = 0;
  for (const request of stale) {
    const settled = await Promise.allSettled(request.photos.map((key) => deps.privateFiles.delete(key)));
    if (settled.some((result) => result.status === "rejected")) continue;
    await blankRequests(db, [request.id], { email: erasedEmail(request.id), now });
    requests += 1;
  }

  const customer = and(eq(users.role, "user"), isNull(users.erasedAt));
  const toWarn = await db
    .select({ id: users.id, email: users.email, since: lastActivity })
    .from(users)
    .where(and(customer, lt(lastActivity, cutoff.inactiveAccountWarning), or(isNull(users.inactivityWarnedAt), lt(users.inactivityWarnedAt, lastActivity))));
  let accountsWarned = 0;
  for (const account of toWarn) {
    const warned = await db.transaction(async (tx) => {
      // Once: another instance's run, or a sign-in since the read, leaves it alone.
      const [marked] = await tx
        .update(users)
        .set({ inactivityWarnedAt: now })
        .where(and(eq(users.id, account.id), customer, lt(lastActivity, cutoff.inactiveAccountWarning), or(isNull(users.inactivityWarnedAt), lt(users.inactivityWarnedAt, lastActivity))))
        .returning({ id: users.id });
      if (marked) await queueInactiveAccountEmail(tx, deps.shop, account.email, inactiveErasureDate(account.since, now));
      return Boolean(marked);
    });
    if (warned) accountsWarned += 1;
  }

  const toErase = await db
    .select({ id: users.id })
    .from(users)
    .where(and(customer, lt(lastActivity, cutoff.inactiveAccounts), lte(users.inactivityWarnedAt, cutoff.warningGiven), gte(users.inactivityWarnedAt, lastActivity)));
  let accountsErased = 0;
  let accountsKept = 0;
  for (const account of toErase) {
    const erasure = await eraseUser(db, { actorId: RETENTION_ACTOR, targetId: account.id, now });
    if (erasure.outcome === "erased") {
      accountsErased += 1;
      // The rows no longer point to the photos: a file a storage failure leaves is only an orphan.
      await Promise.allSettled(erasure.photoKeys.map((key) => deps.privateFiles.delete(key)));
    } else if (erasure.outcome === "refused") accountsKept += 1;
  }

  const shipped = await db
    .select({ id: orders.id, shippingAddress: orders.shippingAddress })
    .from(orders)
    .where(
      and(
        notInArray(orders.status, [...OPEN_ORDER_STATUSES]),
        lt(sql`coalesce(${orders.shippedAt}, ${orders.createdAt})`, cutoff.orderContact),
        or(sql`${orders.shippingAddress}->>'line1' is distinct from ${ERASED_TEXT}`, isNotNull(orders.buyerAddressKey)),
      ),
    );
  for (const order of shipped) {
    await db
      .update(orders)
      .set({ shippingAddress: order.shippingAddress ? erasedAddress(order.shippingAddress) : null, buyerAddressKey: null })
      .where(eq(orders.id, order.id));
  }

  const alerts = await db
    .delete(stockAlerts)
    .where(
      or(
        and(eq(stockAlerts.status, "pending"), lt(stockAlerts.createdAt, cutoff.stockAlerts)),
        and(eq(stockAlerts.status, "sent"), lt(stockAlerts.notifiedAt, cutoff.stockAlerts)),
        and(eq(stockAlerts.status, "unsubscribed"), lt(stockAlerts.unsubscribedAt, cutoff.stockAlerts)),
      ),
    )
    .returning({ id: stockAlerts.id });

  const traces = await db
    .delete(outboxEmails)
    .where(
      and(
        ne(outboxEmails.status, "pending"),
        notInArray(outboxEmails.kind, [...EMAIL_KINDS_KEPT_WITH_ORDER]), // kept with their order (decision 047)
        lt(sql`coalesce(${outboxEmails.sentAt}, ${outboxEmails.createdAt})`, cutoff.outboxTraces),
      ),
    )
    .returning({ id: outboxEmails.id });

  return {
    requests,
    requestsLeft: stale.length - requests,
    accountsWarned,
    accountsErased,
    accountsKept,
    orderContacts: shipped.length,
    stockAlerts: alerts.length,
    emailTraces: traces.length,
  };
}

export const RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * Runs the retention job shortly after start, then every 6 hours (a timer in every instance;
 * the job is idempotent). `now` is read at each run.
 */
export function startRetentionJob(options: { db: Db; privateFiles: FileStore; shop: MailShop; logger: Logger; intervalMs?: number; firstRunMs?: number; now?: () => Date }) {
  const { logger } = options;
  const job = startPeriodicJob({
    async run() {
      const now = options.now?.() ?? new Date();
      const report = await runRetention(options, now);
      if (Object.values(report).some((n) => n > 0)) logger.info(report, "retention: expired personal data cleared");
      if (report.photosLeft > 0) logger.warn({ count: report.photosLeft }, "retention: buy-back photos could not be deleted, will retry");
      const contacts = await runContactRetention(options, now);
      if (Object.values(contacts).some((n) => n > 0)) logger.info(contacts, "retention: requests, inactive accounts, order contacts and alerts past their period");
      if (contacts.requestsLeft > 0) logger.warn({ count: contacts.requestsLeft }, "retention: requests whose photos could not be deleted, will retry");
    },
    firstRunMs: options.firstRunMs ?? 60_000,
    intervalMs: options.intervalMs ?? RETENTION_INTERVAL_MS,
    logger,
    failure: "retention job failed",
  });
  return { stop: job.stop };
}
