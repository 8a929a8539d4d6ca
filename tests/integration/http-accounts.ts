import { expect } from "vitest";

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

/** Signs the admin in at /admin/login; returns the session cookie. */
export async function signInAdmin(base: string, admin: { email: string; password: string }): Promise<string> {
  const response = await post(base, "/admin/login", admin);
  expect(response.status).toBe(302);
  return cookiesOf(response);
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
