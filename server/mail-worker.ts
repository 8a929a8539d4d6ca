import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { Db } from "~/db/types";
import { isPermanentSmtpFailure, retryDelayMs, type SmtpFailure } from "~/domain/email-delivery";
import { type EmailAttachment, emailAttachments } from "~/services/email-attachments.server";
import { claimDueEmails, type OutboxEmail, recordEmailFailure, recordEmailSent } from "~/services/mail.server";

export const MAIL_POLL_MS = 5_000;
// Small batches sent side by side: a slow relay holds few e-mails, and other instances share the rest.
const BATCH_SIZE = 5;
// Longer than one send can last with the time-outs below, so a claim never expires mid-send.
const LEASE_MS = 5 * 60_000;
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export type MailWorker = {
  /** Look for due e-mails now (call it after queuing one). */
  kick(): void;
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Sends one e-mail now, through this worker's transport (the admin's e-mail test); the relay's message id. */
  send(email: Pick<OutboxEmail, "to" | "subject" | "html" | "text"> & { replyTo?: string | null }): Promise<{ messageId: string }>;
};

/**
 * Sends the outbox over SMTP (`smtpUrl`, e.g. smtp://user:pass@relay:587 or smtps://…): due
 * pending e-mails are claimed in small batches and sent; each ends sent, pending again with a
 * capped exponential backoff, or failed when the relay refuses it for good. Several instances
 * can run against one PostgreSQL database: a claim belongs to one worker.
 */
export function startMailWorker(options: {
  db: Db;
  smtpUrl: string;
  /** MAIL_FROM, or { name: SHOP_NAME, address: SHOP_EMAIL } (nodemailer quotes the name). */
  from: string | { name: string; address: string };
  logger: Logger;
  /** SHOP_NAME: the attached PDFs' author. */
  shopName: string;
  pollMs?: number;
}): MailWorker {
  const { db, from, logger, pollMs = MAIL_POLL_MS } = options;
  const transport = nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS });
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | null = null;
  let kickedWhileRunning = false;

  async function send(
    email: Pick<OutboxEmail, "to" | "subject" | "html" | "text"> & { replyTo?: string | null; headers?: Record<string, string> | null },
    attachments: EmailAttachment[] = [],
  ): Promise<{ messageId: string }> {
    const info = await transport.sendMail({ from, to: email.to, replyTo: email.replyTo ?? undefined, subject: email.subject, html: email.html, text: email.text, headers: email.headers ?? undefined, attachments });
    return { messageId: info.messageId };
  }

  async function deliver(email: OutboxEmail): Promise<void> {
    try {
      // Made for each attempt (the outbox keeps no file): a failure here is retried as a send's.
      await send(email, await emailAttachments(db, email, options.shopName));
    } catch (error) {
      const failure = error as Error & SmtpFailure;
      const permanent = isPermanentSmtpFailure(failure);
      const attempts = email.attempts + 1;
      await recordEmailFailure(db, email.id, { error: failure.message, permanent, retryInMs: retryDelayMs(attempts) });
      logger.warn({ emailId: email.id, kind: email.kind, attempts, permanent, err: failure.message }, permanent ? "e-mail refused by the relay, marked failed" : "e-mail not sent, will retry");
      return;
    }
    // Outside the try: a database error here must not be recorded as a send failure (the lease
    // brings the e-mail back, at worst sent twice).
    await recordEmailSent(db, email.id);
    logger.info({ emailId: email.id, kind: email.kind }, "e-mail sent");
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      const batch = await claimDueEmails(db, { limit: BATCH_SIZE, leaseMs: LEASE_MS });
      if (batch.length === 0) return;
      const results = await Promise.allSettled(batch.map(deliver));
      for (const result of results) {
        if (result.status === "rejected") logger.error({ err: result.reason }, "recording an e-mail delivery failed");
      }
    }
  }

  function run() {
    if (stopped) return;
    if (running) {
      // An e-mail committed after the current drain's last claim would wait a whole poll.
      kickedWhileRunning = true;
      return;
    }
    clearTimeout(timer);
    running = drain()
      .catch((error) => logger.error({ err: error }, "mail worker: claiming e-mails failed"))
      .finally(() => {
        running = null;
        if (kickedWhileRunning) {
          kickedWhileRunning = false;
          run();
        } else schedule();
      });
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(run, pollMs);
    timer.unref();
  }

  run();
  return {
    kick: run,
    send: (email) => send(email),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
