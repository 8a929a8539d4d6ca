import { networkKey } from "./network-key";

/**
 * Brute-force protection: how many attempts each key may make per window. Every limit counts
 * the attempt before the work it guards (one upsert: parallel requests cannot all slip under
 * it), and nothing resets a count but the end of its window.
 *
 * A limit per client address (`…PerIp`, marked `perNetwork`) counts the client's network, not
 * the exact address (domain/network-key.ts): an IPv6 subscriber picks any of the 2^64
 * addresses of their /64, so counting each one apart would let one line guess without end.
 * Callers pass the address as the request gives it; the key is made here, for every such limit.
 *
 * Sign-in (each post counts before the password is checked; a right password then takes back
 * its own attempt, and only it):
 * - per client address: `signInPerIp`; a success does not clear it, so guessing 9 times,
 *   signing into one's own account and guessing again stops at the 10th guess;
 * - per account, from addresses that never signed into it: `signInPerAccount`, shared by all of
 *   them (a spread-out attack on one account stops there);
 * - per account, from an address that has signed into it within `signInKnownAddress`'s window:
 *   `signInPerKnownAddress`, its own count for that account and that address. Attackers who use
 *   up the shared count slow every newcomer down but cannot lock the owner out of the places
 *   they already sign in from (their home, the shop's counter). "That address" is its network
 *   too (accountAtAddress), so the owner's IPv6 privacy addresses, renewed every day, stay known.
 */
export type RateLimitRule = {
  limit: number;
  windowMs: number;
  /** The subject is a client address, counted by its network (networkKey). */
  perNetwork?: true;
};

const MINUTE = 60_000;

export const RATE_LIMITS = {
  signInPerIp: { limit: 10, windowMs: 15 * MINUTE, perNetwork: true },
  signInPerAccount: { limit: 20, windowMs: 15 * MINUTE },
  signInPerKnownAddress: { limit: 5, windowMs: 15 * MINUTE },
  // Not a limit: an account signed into from an address is remembered for that address this
  // long (renewed on each success).
  signInKnownAddress: { limit: 1, windowMs: 90 * 24 * 60 * MINUTE },
  signUpPerIp: { limit: 10, windowMs: 60 * MINUTE, perNetwork: true },
  // Signing up again with a known address e-mails its owner: at most this often.
  signUpPerAccount: { limit: 3, windowMs: 60 * MINUTE },
  resetPerIp: { limit: 5, windowMs: 60 * MINUTE, perNetwork: true },
  resetPerAccount: { limit: 3, windowMs: 60 * MINUTE },
  // New passwords posted with a reset link's token, from one address: a customer needs one or
  // two; guessing tokens stops at once (they are random, this only bounds the work).
  resetTokenPerIp: { limit: 10, windowMs: 60 * MINUTE, perNetwork: true },
  // Checkout attempts (each holds stock for a while): a household on one address can retry
  // through a drop; a script hammering the endpoint is stopped within seconds.
  checkoutPerIp: { limit: 30, windowMs: 10 * MINUTE, perNetwork: true },
  checkoutPerEmail: { limit: 10, windowMs: 10 * MINUTE },
  // Unknown discount codes typed from one address: a customer mistypes a few; a script guessing
  // codes is stopped.
  discountGuessPerIp: { limit: 20, windowMs: 10 * MINUTE, perNetwork: true },
  // Contact and buy-back requests (each e-mails the seller and the address given): a customer
  // writes a few times an hour at most; a flood from one address or to one mailbox stops.
  inboxPerIp: { limit: 10, windowMs: 60 * MINUTE, perNetwork: true },
  inboxPerEmail: { limit: 5, windowMs: 60 * MINUTE },
  // The public withdrawal form (order number + e-mail, each step counts): a customer needs two
  // posts, a few more with a typo; guessing which orders exist stops at once. Per address only:
  // a limit per order number would let anyone block a customer's withdrawal, and each order
  // sends its acknowledgement once, so no mailbox can be flooded through it.
  withdrawalPerIp: { limit: 20, windowMs: 60 * MINUTE, perNetwork: true },
  // "Prévenez-moi" requests (each e-mails the address given): a collector asks for a few
  // products; a flood from one address or to one mailbox stops.
  alertPerIp: { limit: 20, windowMs: 60 * MINUTE, perNetwork: true },
  alertPerEmail: { limit: 5, windowMs: 60 * MINUTE },
  // A fair start's one-time codes (each e-mails the address given): a collector asks once or
  // twice per drop, but a carrier's NAT puts many collectors behind one address, so the bound
  // per network only stops a flood of mailboxes. Per mailbox, the limit also bounds the guesses
  // (CODE_ATTEMPTS per code).
  dropCodePerIp: { limit: 60, windowMs: 60 * MINUTE, perNetwork: true },
  dropCodePerEmail: { limit: 3, windowMs: 60 * MINUTE },
  // The admin's e-mail test: one run every 5 s (a double click must not send four e-mails).
  emailTestPerAdmin: { limit: 1, windowMs: 5_000 },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof RATE_LIMITS;

export function rateLimitKey(name: RateLimitName, subject: string): string {
  const rule: RateLimitRule = RATE_LIMITS[name];
  return `${name}:${(rule.perNetwork ? networkKey(subject) : subject.trim()).toLowerCase()}`;
}

/**
 * The subject of an account's own count from one address: the address's network, then the
 * account's e-mail last, so that its keys end in ":<e-mail>" like every key about that e-mail
 * (an erase by e-mail address deletes them all).
 */
export function accountAtAddress(email: string, clientIp: string): string {
  return `${networkKey(clientIp)}:${email.trim().toLowerCase()}`;
}

/** The French message of a 429 answer, with the wait rounded up to the minute. */
export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `Trop de tentatives. Réessayez dans ${minutes} minute${minutes > 1 ? "s" : ""}.`;
}
