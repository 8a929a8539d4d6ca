import { describe, expect, it } from "vitest";
import { RECEIPT_VIEW_MS, receiptAllows, receiptCookieAfterCheckout } from "./receipt-cookie.server";

const secret = "secret-de-test-0123456789abcdef";
const now = Date.parse("2026-11-28T10:00:00Z");
/** The browser's Cookie header after a Set-Cookie. */
const sent = (setCookie: string) => setCookie.split(";")[0]!;

describe("/merci's receipt cookie", () => {
  it("lets the browser that started a checkout see its order for 2 hours, and no other order", () => {
    const cookie = sent(receiptCookieAfterCheckout(null, "commande-a", { secret, secure: true, now }));
    expect(receiptAllows(cookie, "commande-a", { secret, now: now + RECEIPT_VIEW_MS - 1 })).toBe(true);
    expect(receiptAllows(cookie, "commande-a", { secret, now: now + RECEIPT_VIEW_MS })).toBe(false);
    expect(receiptAllows(cookie, "commande-b", { secret, now })).toBe(false);
    expect(receiptAllows(null, "commande-a", { secret, now })).toBe(false);
  });

  it("is HttpOnly, Lax, Secure over HTTPS, sent to /merci.data and /api/checkout too, and lasts 2 hours", () => {
    const header = receiptCookieAfterCheckout(null, "commande-a", { secret, secure: true, now });
    expect(header).toMatch(/^comptoir_receipt=[^;]+; Max-Age=7200; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(receiptCookieAfterCheckout(null, "commande-a", { secret, secure: false, now })).not.toContain("Secure");
  });

  it("refuses a cookie signed with another secret or edited", () => {
    const cookie = sent(receiptCookieAfterCheckout(null, "commande-a", { secret, secure: false, now }));
    expect(receiptAllows(cookie, "commande-a", { secret: "un-autre-secret-0123456789abcdef", now })).toBe(false);
    const [name, value] = cookie.split("=") as [string, string];
    const body = Buffer.from(JSON.stringify([["commande-b", now + RECEIPT_VIEW_MS]])).toString("base64url");
    expect(receiptAllows(`${name}=${body}.${value.split(".")[1]}`, "commande-b", { secret, now })).toBe(false);
  });

  it("keeps the last 5 checkouts of the browser, dropping those past their 2 hours", () => {
    let cookie = "";
    for (let i = 1; i <= 6; i++) cookie = sent(receiptCookieAfterCheckout(cookie, `commande-${i}`, { secret, secure: false, now: now + i * 60_000 }));
    const later = now + 7 * 60_000;
    expect([1, 2, 3, 4, 5, 6].map((i) => receiptAllows(cookie, `commande-${i}`, { secret, now: later }))).toEqual([false, true, true, true, true, true]);
    // Two hours after the third checkout, the older ones are gone too.
    const third = now + 3 * 60_000 + RECEIPT_VIEW_MS;
    expect([4, 5, 6].every((i) => receiptAllows(cookie, `commande-${i}`, { secret, now: third }))).toBe(true);
    expect(receiptAllows(cookie, "commande-3", { secret, now: third })).toBe(false);
  });
});
