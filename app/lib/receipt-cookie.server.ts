import { parse as parseCookies, serialize } from "cookie";
import { RECEIPT_COOKIE, RECEIPT_VIEW_MS } from "~/domain/browser-storage";
import { deriveSecret } from "./secrets.server";
import { readToken, signToken } from "./signed-token.server";

/**
 * /merci shows an order's details (address, e-mail, invoice links) only to the browser that
 * started its checkout, and only for a while: the payment session's id in its address sits in
 * browser history, referrers and proxy logs, and is no key to personal data. The checkout
 * answer sets this cookie: the orders this browser started in the last 2 hours, signed.
 */
export { RECEIPT_COOKIE, RECEIPT_VIEW_MS } from "~/domain/browser-storage";
/** Orders kept in the cookie: a buyer may start a few checkouts before paying one. */
const KEPT = 5;

type Entry = [orderId: string, until: number];

/** Derived from the shop's signing secret: a receipt cookie signs nothing else. */
const keyOf = (secret: string) => deriveSecret(secret, "receipt-cookie");

function entriesOf(cookieHeader: string | null | undefined, secret: string, now: number): Entry[] {
  const value = parseCookies(cookieHeader ?? "")[RECEIPT_COOKIE];
  const payload = value ? readToken(value, keyOf(secret)) : null;
  if (!Array.isArray(payload)) return [];
  return payload.filter(
    (entry): entry is Entry => Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "number" && entry[1] > now,
  );
}

/** The Set-Cookie header after a checkout of `orderId`: this order, plus the last few still valid. */
export function receiptCookieAfterCheckout(cookieHeader: string | null | undefined, orderId: string, options: { secret: string; secure: boolean; now: number }): string {
  const kept = entriesOf(cookieHeader, options.secret, options.now).filter(([id]) => id !== orderId);
  const entries: Entry[] = [...kept.slice(-(KEPT - 1)), [orderId, options.now + RECEIPT_VIEW_MS]];
  return serialize(RECEIPT_COOKIE, signToken(entries, keyOf(options.secret)), {
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    // "/", not "/merci": a client navigation reads /merci.data, and the next checkout adds to it.
    path: "/",
    maxAge: RECEIPT_VIEW_MS / 1000,
  });
}

/** Whether this browser started the checkout of `orderId` less than 2 hours ago. */
export function receiptAllows(cookieHeader: string | null | undefined, orderId: string, options: { secret: string; now: number }): boolean {
  return entriesOf(cookieHeader, options.secret, options.now).some(([id]) => id === orderId);
}
