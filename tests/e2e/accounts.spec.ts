import type { Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { BUSINESS_MESSAGES } from "~/domain/business-buyer";
import { confirmedCustomer, logIn } from "./account-helpers";
import { chooseLightTheme, expect, expectNoSeriousA11yViolations, signInAdminWithForm, signInAsAdmin, test } from "./fixtures";

function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Opens the newest e-mail to `to` whose subject starts with `subject` in /admin/emails; returns the link it carries. */
async function linkFromEmail(admin: Page, to: string, subject: string): Promise<string> {
  await admin.goto("/admin/emails");
  const row = admin.getByRole("row").filter({ hasText: to }).filter({ hasText: subject }).first();
  await row.getByRole("link", { name: new RegExp(`^${subject}`) }).click();
  await expect(admin.getByRole("heading", { level: 1 })).toContainText(subject);
  await expect(admin.getByText(to).first()).toBeVisible();
  const text = await admin.getByTestId("email-text").innerText();
  // The e-mail's own link, not the contact page a note points to while the shop has no saved address.
  const url = [...text.matchAll(/https?:\/\/[^\s)]+/g)].map((match) => match[0]).find((link) => new URL(link).pathname !== "/contact");
  expect(url, "the e-mail carries a link").toBeTruthy();
  const { pathname, search } = new URL(url!);
  return pathname + search;
}

async function signUp(page: Page, account: { name: string; email: string; password: string }) {
  await page.goto("/signup");
  await page.getByLabel("Nom").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Mot de passe").fill(account.password);
  await page.getByRole("button", { name: "S'inscrire" }).click();
  await expect(page.getByText("Inscription réussie").first()).toBeVisible();
  await expect(page.getByText("Vérifiez votre boîte de réception pour confirmer votre email.").first()).toBeVisible();
}

test("sign up, confirm through the e-mail read in /admin/emails, log in, see /account, log out", async ({ page, browser }) => {
  test.slow(); // two sessions (customer and admin), a dozen pages and four accessibility scans
  const account = { name: "Léa Martin", email: uniqueEmail("lea"), password: "Salameche-2026" };
  await signUp(page, account);

  // Not confirmed yet: signing in is refused and a new link is sent.
  await logIn(page, account.email, account.password);
  await expect(page.getByText("Confirmez d'abord votre adresse e-mail").first()).toBeVisible();

  const admin = await signInAsAdmin(browser);
  const confirmLink = await linkFromEmail(admin, account.email, "Confirmez votre adresse e-mail");
  expect(confirmLink).toMatch(/^\/verify-email\?token=/);
  await expectNoSeriousA11yViolations(admin);
  await admin.goto("/admin/emails");
  await expectNoSeriousA11yViolations(admin);
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { name: "Adresse e-mail confirmée" })).toBeVisible();

  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { name: "Mon compte" })).toBeVisible();
  await expect(page.getByText(account.email)).toBeVisible();
  await expect(page.getByText(account.name, { exact: true })).toBeVisible();
  const today = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" }).format(new Date());
  await expect(page.getByText(`Membre depuis le ${today}`)).toBeVisible();
  await expect(page.getByText("Aucune commande récente")).toBeVisible();
  // Only what works (issue 56): no « Bientôt disponible » list; the e-mail choices are one click away.
  await expect(page.getByText("Bientôt disponible")).toHaveCount(0);
  await expect(page.getByText("Programme de fidélité")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Gérer mes e-mails" })).toHaveAttribute("href", "/account/notifications");
  await page.screenshot({ path: test.info().outputPath("compte-1280.png"), fullPage: true });
  // The admin's e-mail test link is not for customers.
  await expect(page.getByRole("link", { name: "Test e-mail" })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // A public page is the shared cached HTML; the header shows the account link, from the hint
  // cookie before any JavaScript, then named once the page is live.
  await page.goto("/catalog");
  await page.goto("/catalog");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: `Mon compte (${account.name})` })).toBeVisible();
  await expect(header.getByRole("link", { name: "Connexion", exact: true })).toHaveCount(0);
  const cached = await page.request.get("/catalog");
  expect(cached.headers()["x-cache"]).toBe("HIT");
  expect(await cached.text()).not.toContain(account.name);

  // Signed in: /login and /signup lead to the account.
  await page.goto("/login");
  await expect(page).toHaveURL(/\/account$/);
  await page.goto("/signup");
  await expect(page).toHaveURL(/\/account$/);

  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await expect(page.getByText("Déconnecté", { exact: true })).toBeVisible();
  await expect(page.getByText("Vous avez été déconnecté avec succès.")).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("banner").getByRole("link", { name: /^Mon compte/ })).toHaveCount(0);
});

test("reset a forgotten password through the e-mailed link", async ({ page, browser }) => {
  test.slow(); // two sessions (customer and admin) and two e-mails
  const account = { name: "Sacha", email: uniqueEmail("sacha"), password: "Carapuce-2026" };
  const admin = await signInAsAdmin(browser);
  await confirmedCustomer(page, admin, account);

  await page.goto("/login");
  await page.getByRole("link", { name: "Mot de passe oublié?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The address changes as the new page renders: typed before, the e-mail would go into /login's field.
  await expect(page.getByRole("heading", { level: 1, name: "Mot de passe oublié" })).toBeVisible();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Envoyer le lien" }).click();
  await expect(page.getByText("E-mail envoyé")).toBeVisible();

  const resetLink = await linkFromEmail(admin, account.email, "Réinitialisation de votre mot de passe");
  expect(resetLink).toMatch(/^\/reset-password\?token=/);
  await page.goto(resetLink);
  await expect(page.getByRole("heading", { name: "Nouveau mot de passe" })).toBeVisible();
  const newPassword = "Bulbizarre-2027";
  await page.getByLabel("Nouveau mot de passe").fill(newPassword);
  await page.getByLabel("Confirmez le mot de passe").fill(newPassword);
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByText("Mot de passe modifié")).toBeVisible();
  // Its owner is told, with the way back if it was not them.
  expect(await linkFromEmail(admin, account.email, "Mot de passe modifié")).toBe("/forgot-password");

  // The link works once; the old password no longer does, the new one does.
  await page.goto(resetLink);
  await page.getByLabel("Nouveau mot de passe").fill("Reptincel-2028");
  await page.getByLabel("Confirmez le mot de passe").fill("Reptincel-2028");
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByText("Ce lien de réinitialisation est invalide ou a expiré.").first()).toBeVisible();

  await logIn(page, account.email, account.password);
  await expect(page.getByText("Email ou mot de passe incorrect.").first()).toBeVisible();
  // The right password in the same form: the account opens without the failure's red toast.
  await page.getByLabel("Mot de passe").fill(newPassword);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText("Échec de la connexion")).toHaveCount(0);
});

test("sign-up and login forms give the SPEC.md messages", async ({ page }) => {
  await page.goto("/signup");
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Nom").fill("A");
  await page.getByLabel("Email").fill("pas-un-email");
  await page.getByLabel("Mot de passe").fill("12345");
  await page.getByRole("button", { name: "S'inscrire" }).click();
  await expect(page.getByText("Le nom doit contenir au moins 2 caractères")).toBeVisible();
  await expect(page.getByText("Email invalide")).toBeVisible();
  await expect(page.getByText("Le mot de passe doit contenir au moins 8 caractères")).toBeVisible();
  await expect(page.getByLabel("Nom")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Mot de passe").fill("azertyuiop");
  await page.getByRole("button", { name: "S'inscrire" }).click();
  await expect(page.getByText("Ce mot de passe est trop courant")).toBeVisible();

  await page.goto("/login");
  await expectNoSeriousA11yViolations(page);
  await logIn(page, "personne@example.com", "mauvais-mot-de-passe");
  await expect(page.getByText("Échec de la connexion").first()).toBeVisible();
  await expect(page.getByText("Email ou mot de passe incorrect.").first()).toBeVisible();
  // The focus, lost with the button disabled while sending, is on the message; Tab goes on to the form.
  await expect(page.getByRole("main").getByRole("alert")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Email")).toBeFocused();
});

test("admin login: missing fields, wrong password, a customer gets Accès refusé, the admin gets in", async ({ page, browser }) => {
  test.slow(); // two sessions (customer and admin) and three accessibility scans
  const customer = { name: "Ondine", email: uniqueEmail("ondine"), password: "Stari-2026" };
  // The one sign-in through the form (the other specs post it): the admin gets in, welcomed.
  const admin = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await signInAdminWithForm(admin);
  await expect(admin.getByText("Bienvenue dans l'espace administrateur.")).toBeVisible();
  await confirmedCustomer(page, admin, customer);

  await page.goto("/admin/login");
  await expect(page.getByText("Accès réservé à l'administration de la boutique.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByText("Veuillez saisir votre email et votre mot de passe.").first()).toBeVisible();

  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Mot de passe").fill("pas-le-bon");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByText("Erreur de connexion").first()).toBeVisible();

  await page.getByLabel("Email").fill(customer.email);
  await page.getByLabel("Mot de passe").fill(customer.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByText("Accès refusé").first()).toBeVisible();
  await expect(page.getByText("Vous n'avez pas les droits d'administration.").first()).toBeVisible();
  // No session was kept: the customer is not even signed in to the shop.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);

  // Signed in to the shop as a customer, /admin sends to /admin/unauthorized.
  await logIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/account$/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/unauthorized$/);
  await expectNoSeriousA11yViolations(page);
});

test("a customer keeps their company in /account: a wrong SIREN is refused in French, the saved company fills the cart's « Achat professionnel »", async ({ page, browser }) => {
  test.slow();
  const customer = { name: "Paul Martin", email: uniqueEmail("paul"), password: "Carapuce-2026" };
  const admin = await signInAsAdmin(browser);
  await confirmedCustomer(page, admin, customer);
  await logIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/account$/);

  const profile = page.getByRole("form", { name: "Profil professionnel" });
  await profile.getByLabel("Raison sociale").fill("Ludothèque du Centre");
  await profile.getByLabel("SIREN").fill("732 829 321");
  await profile.getByLabel("Pays de facturation").selectOption("FR");
  await profile.getByRole("button", { name: "Enregistrer" }).click();
  await expect(profile.getByText(BUSINESS_MESSAGES.siren)).toBeVisible();
  await expect(profile.getByLabel("SIREN")).toBeFocused();
  // Without the browser's check, the server refuses it with the same message.
  const refused = await page.request.post("/account", { form: { intent: "business-profile", companyName: "Ludothèque du Centre", siren: "732829321", vatNumber: "", country: "FR" } });
  expect(refused.status()).toBe(400);

  await profile.getByLabel("SIREN").fill("732 829 320");
  await profile.getByLabel("N° de TVA intracommunautaire (facultatif)").fill("FR44732829320");
  await profile.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByText("Profil professionnel enregistré")).toBeVisible();
  await page.reload();
  await expect(profile.getByLabel("Raison sociale")).toHaveValue("Ludothèque du Centre");
  await expect(profile.getByLabel("SIREN")).toHaveValue("732829320");
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("compte-profil-professionnel-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await chooseLightTheme(page);
  await page.screenshot({ path: test.info().outputPath("compte-profil-professionnel-clair-1280.png"), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  await page.goto("/catalog");
  const add = page.getByRole("button", { name: /au panier : / }).first();
  await add.click();
  await expect(add).toContainText("Ajouté");
  await page.goto("/cart");
  await page.getByRole("checkbox", { name: "Achat professionnel" }).check();
  const fields = page.getByTestId("business-fields");
  await expect(fields.getByLabel("Raison sociale")).toHaveValue("Ludothèque du Centre");
  await expect(fields.getByLabel("SIREN")).toHaveValue("732829320");
  await expect(fields.getByLabel("N° de TVA intracommunautaire (facultatif)")).toHaveValue("FR44732829320");

  await page.goto("/account");
  await page.getByRole("button", { name: "Supprimer le profil" }).click();
  await expect(page.getByText("Profil professionnel supprimé")).toBeVisible();
  await expect(profile.getByLabel("Raison sociale")).toHaveValue("");
});
