import { expect } from "vitest";
import { unusedTotpCode } from "../support/totp";

/** Server-rendered helpers for tests that drive the built server over HTTP, as a browser without JavaScript would. */

export const tableRows = (html: string) => html.match(/<tr[\s\S]*?<\/tr>/g) ?? [];

/** The name=value pairs of a response's Set-Cookie headers, as a Cookie header (cleared ones left out). */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

type Account = { name: string; email: string; password: string };

const post = (base: string, pathname: string, values: Record<string, string>, cookie?: string) =>
  fetch(`${base}${pathname}`, { method: "POST", body: new URLSearchParams(values), headers: cookie ? { cookie } : {}, redirect: "manual" });
const get = (base: string, pathname: string, cookie?: string) => fetch(`${base}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

/** The TOTP secrets of the admins these tests enrolled, by server and address. */
const adminSecrets = new Map<string, string>();

/** Cookie pairs `next` sets, over those of `cookie`. */
function mergeCookies(cookie: string, next: string): string {
  const jar = new Map<string, string>();
  for (const pair of [...cookie.split("; "), ...next.split("; ")].filter(Boolean)) jar.set(pair.split("=")[0]!, pair);
  return [...jar.values()].join("; ");
}

/**
 * Signs the admin in at /admin/login with the second factor; returns the session cookie. The
 * first time on a server, the admin (signed in with the password only, which opens nothing but
 * /admin/securite) enrols TOTP there: the secret is read from the page and kept for the next
 * sign-ins, whose codes are computed from it (tests/support/totp.ts).
 */
export async function signInAdmin(base: string, admin: { email: string; password: string }): Promise<string> {
  const key = `${base} ${admin.email}`;
  const response = await post(base, "/admin/login", admin);
  expect(response.status, "admin sign-in").toBe(302);
  if (response.headers.get("location") !== "/admin/login?etape=code") {
    const cookie = cookiesOf(response);
    const started = await post(base, "/admin/securite", { intent: "start", password: admin.password }, cookie);
    expect(started.status, "enrolment started").toBe(200);
    const html = await started.text();
    const secret = html.match(/data-testid="totp-secret"[^>]*>([A-Z2-7]+)</)?.[1];
    const totpUri = html.match(/data-testid="totp-uri"[^>]*>([^<]+)</)?.[1]?.replaceAll("&amp;", "&");
    expect(secret && totpUri, "the secret on /admin/securite").toBeTruthy();
    adminSecrets.set(key, secret!);
    const confirmed = await post(base, "/admin/securite", { intent: "confirm", code: await unusedTotpCode(secret!), totpUri: totpUri! }, cookie);
    expect(confirmed.status, "enrolment confirmed").toBe(302);
    return mergeCookies(cookie, cookiesOf(confirmed));
  }
  const secret = adminSecrets.get(key);
  expect(secret, `${admin.email} enrolled by these tests on ${base}`).toBeTruthy();
  const pending = cookiesOf(response);
  const done = await post(base, "/admin/login", { intent: "code", code: await unusedTotpCode(secret!) }, pending);
  expect(done.status, "signed in with the code").toBe(302);
  return cookiesOf(done);
}

/** The outbox id and path of the confirmation link last e-mailed to `to` (read by the admin). */
export async function confirmationLink(base: string, adminCookie: string, to: string): Promise<{ id: string; path: string }> {
  const list = await (await get(base, "/admin/emails", adminCookie)).text();
  const id = tableRows(list).find((row) => row.includes(to))?.match(/\/admin\/emails\/([0-9a-f-]{36})/)?.[1];
  expect(id, `an e-mail to ${to} in the outbox`).toBeTruthy();
  const page = await (await get(base, `/admin/emails/${id}`, adminCookie)).text();
  const link = page.match(/https?:\/\/[^\s"<&]+\/verify-email\?token=[\w.-]+/)?.[0];
  expect(link).toBeTruthy();
  return { id: id!, path: new URL(link!).pathname + new URL(link!).search };
}

/** A confirmed customer account: signs up, follows the e-mailed link, signs in at /login; returns the session cookie. */
export async function signUpCustomer(base: string, adminCookie: string, customer: Account): Promise<string> {
  expect((await post(base, "/signup", customer)).status).toBe(200);
  const confirmation = await confirmationLink(base, adminCookie, customer.email);
  expect((await get(base, confirmation.path)).status).toBe(200);
  const login = await post(base, "/login", { email: customer.email, password: customer.password });
  expect(login.headers.get("location")).toBe("/account");
  return cookiesOf(login);
}
