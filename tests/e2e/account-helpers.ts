import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * A customer signed up and confirmed over HTTP, as the forms post without JavaScript: the setup
 * of the tests about something else (the first test goes through the pages and the e-mail).
 */
export async function confirmedCustomer(page: Page, admin: Page, account: { name: string; email: string; password: string }, base = "") {
  expect((await page.request.post(`${base}/signup`, { form: account })).status()).toBe(200);
  const outbox = await (await admin.request.get(`${base}/admin/emails`)).text();
  const id = outbox
    .match(/<tr[\s\S]*?<\/tr>/g)
    ?.find((row) => row.includes(account.email))
    ?.match(/\/admin\/emails\/([0-9a-f-]{36})/)?.[1];
  expect(id, `an e-mail to ${account.email} in the outbox`).toBeTruthy();
  const email = await (await admin.request.get(`${base}/admin/emails/${id}`)).text();
  const link = email.match(/https?:\/\/[^\s"<&]+\/verify-email\?token=[\w.-]+/)?.[0];
  expect(link, "the confirmation link").toBeTruthy();
  const { pathname, search } = new URL(link!);
  expect((await page.request.get(`${base}${pathname}${search}`)).status()).toBe(200);
}

export async function logIn(page: Page, email: string, password: string, base = "") {
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}
