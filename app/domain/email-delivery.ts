/** First retry 30 s after a failure, then doubling… */
export const RETRY_BASE_MS = 30_000;
/** …up to 30 min between attempts, forever: an e-mail is never given up on a transient failure. */
export const RETRY_MAX_MS = 30 * 60_000;

/**
 * How long to wait before the next attempt once `failedAttempts` (≥ 1) have failed. The delay
 * is shortened by up to 20 % at random so the e-mails that failed together (the relay was down)
 * do not all come back in the same second; it never exceeds the cap.
 */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(delay * (1 - 0.2 * random()));
}

/** The fields of a nodemailer SMTP error that tell what went wrong. */
export type SmtpFailure = { responseCode?: number; command?: string };

/**
 * True when the relay refused this very message for good: a 5xx reply to RCPT TO (no such
 * mailbox) or to DATA (content refused). Retrying would get the same answer, so the e-mail is
 * marked failed (kept, shown to the admin, retryable by hand). 503 only means a bad session
 * state. Every other failure (connection, time-out, 4xx, authentication, a refused sender)
 * hits all e-mails alike: they stay pending and go out once the relay or the setting is fixed.
 */
export function isPermanentSmtpFailure({ responseCode, command }: SmtpFailure): boolean {
  if (responseCode === undefined || responseCode < 500 || responseCode >= 600 || responseCode === 503) return false;
  return command === "RCPT TO" || command === "DATA";
}
