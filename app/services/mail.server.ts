import { and, count, desc, eq, getTableColumns, inArray, lte, ne, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { outboxEmails } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { EmailContent } from "~/domain/email-templates";
import { adminEmailView } from "~/domain/outbox";
import { RETAINED_EMAIL_TEXT } from "~/domain/retention";

export type OutboxEmail = typeof outboxEmails.$inferSelect;
export type OutboxStatus = OutboxEmail["status"];
export type OutboxEmailSummary = Omit<OutboxEmail, "html" | "text">;

const singleLine = (what: string) =>
  z.string().trim().min(1, `${what} vide`).max(998, `${what} trop long`).regex(/^[^\r\n]*$/, `${what} sur plusieurs lignes`);

const queuedEmailSchema = z.object({
  to: z.string().trim().pipe(z.email({ message: "Adresse du destinataire invalide" })),
  replyTo: z.string().trim().pipe(z.email({ message: "Adresse de réponse invalide" })).optional(),
  kind: singleLine("Type d'e-mail").max(64),
  content: z.object({ subject: singleLine("Objet"), html: z.string().min(1), text: z.string().min(1) }),
  headers: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9-]*$/), singleLine("En-tête")).optional(),
});

/**
 * `cgvSnapshotId`: that CGV version goes with it as a PDF (made at send time, services/email-attachments.server.ts).
 * `headers`: extra headers (an optional e-mail's List-Unsubscribe: services/email-choices.server.ts).
 */
export type QueuedEmail = { to: string; kind: string; content: EmailContent; replyTo?: string; cgvSnapshotId?: string | null; headers?: Record<string, string> };

/**
 * Writes an e-mail to the outbox, to be sent by the mail worker. Pass the transaction of the
 * change that causes it, so the e-mail exists if and only if the change does. Throws a
 * ZodError on a bad address or empty content.
 */
export async function queueEmail(db: Db | Tx, email: QueuedEmail): Promise<{ id: string }> {
  const { to, replyTo, kind, content, headers } = queuedEmailSchema.parse(email);
  const [row] = await db
    .insert(outboxEmails)
    .values({ to, replyTo: replyTo ?? null, kind, subject: content.subject, html: content.html, text: content.text, cgvSnapshotId: email.cgvSnapshotId ?? null, headers: headers ?? null })
    .returning({ id: outboxEmails.id });
  return row!;
}

export type OutboxPage = {
  emails: OutboxEmailSummary[];
  /** Matching the status filter, if any. */
  total: number;
  page: number;
  pageCount: number;
  counts: Record<OutboxStatus, number>;
};

/** The outbox for the admin, newest first, with the number of e-mails in each status. */
export async function listOutbox(
  db: Db,
  options: { page: number; pageSize: number; status?: OutboxStatus },
): Promise<OutboxPage> {
  const grouped = await db
    .select({ status: outboxEmails.status, n: count() })
    .from(outboxEmails)
    .groupBy(outboxEmails.status);
  const counts: Record<OutboxStatus, number> = { pending: 0, sent: 0, failed: 0 };
  for (const { status, n } of grouped) counts[status] = n;
  const total = options.status ? counts[options.status] : counts.pending + counts.sent + counts.failed;
  const pageCount = Math.max(1, Math.ceil(total / options.pageSize));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const { html: _html, text: _text, ...summaryColumns } = getTableColumns(outboxEmails);
  const emails = await db
    .select(summaryColumns)
    .from(outboxEmails)
    .where(options.status ? eq(outboxEmails.status, options.status) : undefined)
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.seq))
    .limit(options.pageSize)
    .offset((page - 1) * options.pageSize);
  return { emails, total, page, pageCount, counts };
}

// Anything else would make PostgreSQL throw on the uuid cast: an unknown id is simply not found.
const isId = (id: string) => z.guid().safeParse(id).success;

export async function getOutboxEmail(db: Db, id: string): Promise<OutboxEmail | null> {
  if (!isId(id)) return null;
  const [row] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return row ?? null;
}

/** An e-mail as the admin's page shows it: once sent, its token links are masked (domain/outbox.ts). */
export async function getOutboxEmailForAdmin(db: Db, id: string) {
  const email = await getOutboxEmail(db, id);
  return email ? adminEmailView(email) : null;
}

/** Puts a failed e-mail back in the queue, due now; false when it is not a failed one (or its content was cleared). */
export async function retryEmail(db: Db, id: string): Promise<boolean> {
  if (!isId(id)) return false;
  const rows = await db
    .update(outboxEmails)
    .set({ status: "pending", nextAttemptAt: sql`now()` })
    // One whose content the retention job cleared would go out blank: it stays failed.
    .where(and(eq(outboxEmails.id, id), eq(outboxEmails.status, "failed"), ne(outboxEmails.text, RETAINED_EMAIL_TEXT)))
    .returning({ id: outboxEmails.id });
  return rows.length > 0;
}

// Database time everywhere (not this process's clock), so several instances agree on "due".
const fromNow = (ms: number): SQL => sql`now() + ${Math.round(ms)}::integer * interval '1 millisecond'`;

/**
 * Takes up to `limit` due pending e-mails for this worker. Claiming pushes their next attempt
 * `leaseMs` ahead, so no other worker takes them meanwhile, and a worker that dies mid-send
 * lets them come back after the lease: an e-mail may rarely go out twice, never zero times.
 * SKIP LOCKED lets concurrent workers on PostgreSQL claim different rows without waiting.
 */
export async function claimDueEmails(db: Db, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<OutboxEmail[]> {
  const due = db
    .select({ id: outboxEmails.id })
    .from(outboxEmails)
    .where(and(eq(outboxEmails.status, "pending"), lte(outboxEmails.nextAttemptAt, sql`now()`)))
    .orderBy(outboxEmails.nextAttemptAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  return db.update(outboxEmails).set({ nextAttemptAt: fromNow(leaseMs) }).where(inArray(outboxEmails.id, due)).returning();
}

export async function recordEmailSent(db: Db, id: string): Promise<void> {
  await db
    .update(outboxEmails)
    .set({ status: "sent", sentAt: sql`now()`, attempts: sql`${outboxEmails.attempts} + 1` })
    .where(and(eq(outboxEmails.id, id), eq(outboxEmails.status, "pending")));
}

/** Keeps the e-mail: failed for good (admin can retry it), or pending again after `retryInMs`. */
export async function recordEmailFailure(
  db: Db,
  id: string,
  failure: { error: string; permanent: boolean; retryInMs: number },
): Promise<void> {
  await db
    .update(outboxEmails)
    .set({
      status: failure.permanent ? "failed" : "pending",
      attempts: sql`${outboxEmails.attempts} + 1`,
      lastError: failure.error.slice(0, 2_000),
      nextAttemptAt: fromNow(failure.retryInMs),
    })
    .where(and(eq(outboxEmails.id, id), eq(outboxEmails.status, "pending")));
}
