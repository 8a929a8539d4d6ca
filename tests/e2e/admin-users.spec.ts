import fs from "node:fs";
import type { Page } from "@playwright/test";
import { openDatabase } from "../../app/db/client.server";
import { orderItems, orders } from "../../app/db/schema";
import { createUserWithPassword } from "../../app/services/users.server";
import { type RunningServer, startServer } from "../integration/server-process";
import { expect, expectNoSeriousA11yViolations, signInAdmin, specDataDir, test } from "./fixtures";

/**
 * The seller's users page, end to end, on a server of its own: a customer with two paid orders
 * (written in the database before the server starts), the search, a user's page, promoting and
 * demoting, and erasing the customer, who then cannot sign in.
 */
test.describe.configure({ mode: "serial" });

const ADMIN = { email: "admin-users@comptoir.test", password: "admin-users-mot-de-passe" };
const LEONIE = { name: "Léonie Marchand", email: "leonie.marchand@example.com", password: "Salameche-2026" };
const VICTOR = { name: "Victor Duchêne", email: "victor.duchene@example.com", password: "Carapuce-2026" };
let server: RunningServer;
let dataDir: string;
const url = (p: string) => `${server.url}${p}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await specDataDir("comptoir-e2e-users-");
  const database = await openDatabase({ kind: "pglite", dataDir });
  try {
    const { id } = await createUserWithPassword(database.db, { ...LEONIE, role: "user", emailVerified: true });
    await createUserWithPassword(database.db, { ...VICTOR, role: "user", emailVerified: true });
    const placed = [
      { status: "shipped" as const, totalCents: 8_990, at: "2026-02-14T11:00:00Z" },
      { status: "shipped" as const, totalCents: 2_550, at: "2026-03-09T16:00:00Z" },
      { status: "expired" as const, totalCents: 50_000, at: "2026-03-20T16:00:00Z" },
    ];
    for (const [i, { status, totalCents, at }] of placed.entries()) {
      const [order] = await database.db
        .insert(orders)
        .values({
          number: `CPT-90000${i}-000${i}`,
          status,
          userId: id,
          customerEmail: LEONIE.email,
          customerName: LEONIE.name,
          subtotalCents: totalCents,
          totalCents,
          paymentProvider: "test",
          createdAt: new Date(at),
          paidAt: status === "shipped" ? new Date(at) : null,
        })
        .returning();
      await database.db.insert(orderItems).values({ orderId: order!.id, name: "Booster Évolutions Prismatiques", unitPriceCents: totalCents, quantity: 1 });
    }
  } finally {
    await database.close();
  }
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const signIn = (page: Page) => signInAdmin(page, ADMIN, server.url);

const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });

test("the seller searches, opens a customer, promotes and demotes, and erases a customer who then cannot sign in", async ({ page, browser }) => {
  test.slow();
  await signIn(page);
  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Utilisateurs" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("heading", { name: "Gestion des utilisateurs" })).toBeVisible();
  await expect(page.getByText("3 utilisateurs", { exact: true })).toBeVisible();
  for (const header of ["Nom", "Email", "Commandes", "Dernière commande", "Total dépensé"]) {
    await expect(page.getByRole("columnheader", { name: header, exact: true })).toBeVisible();
  }
  await expect(row(page, LEONIE.name).getByRole("cell")).toHaveText([LEONIE.name, LEONIE.email, "2", "09/03/2026", "115,40\u00a0€"]);
  await expect(row(page, VICTOR.name).getByRole("cell")).toHaveText([VICTOR.name, VICTOR.email, "0", "N/A", "0,00\u00a0€"]);
  await expect(row(page, "Administrateur").getByText("Admin", { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Typing searches on its own (name or e-mail, any case); the search is in the address.
  // (The answer held back a moment, so the loading text can be seen.)
  const usersData = /\/admin\/users\.data/;
  await page.route(usersData, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  const search = page.getByPlaceholder("Rechercher un utilisateur...");
  await search.fill("MARCHAND");
  await expect(page.getByText("Chargement des utilisateurs...")).toBeVisible();
  await expect(page).toHaveURL(/\?q=MARCHAND$/);
  await page.unroute(usersData);
  await expect(page.getByText("1 utilisateur", { exact: true })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2);
  await search.fill("personne");
  await search.press("Enter");
  await expect(page.getByText("Aucun utilisateur trouvé")).toBeVisible();
  await page.goto(url("/admin/users?q=victor.duchene@"));
  await expect(page.getByRole("row")).toHaveCount(2);

  // Victor's page: promote, then demote, each confirmed.
  await row(page, VICTOR.name).getByRole("link", { name: VICTOR.name }).click();
  await expect(page.getByRole("heading", { name: VICTOR.name })).toBeVisible();
  await page.getByRole("button", { name: "Promouvoir administrateur" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByText("Promouvoir administrateur ?")).toBeVisible();
  await dialog.getByRole("button", { name: "Promouvoir" }).click();
  await expect(page.getByText("Ce compte est maintenant administrateur.")).toBeVisible();
  await expect(page.locator("dl").getByText("Administrateur", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Retirer les droits d'administrateur" }).click();
  await dialog.getByRole("button", { name: "Retirer les droits" }).click();
  await expect(page.getByText("Ce compte n'est plus administrateur.")).toBeVisible();
  await expect(page.locator("dl").getByText("Client", { exact: true })).toBeVisible();

  // Léonie's page: her orders, then the erasure.
  await page.goto(url("/admin/users?q=leonie"));
  await row(page, LEONIE.name).getByRole("link", { name: LEONIE.name }).click();
  await expect(page.getByRole("heading", { name: LEONIE.name })).toBeVisible();
  await expect(page.getByRole("link", { name: "CPT-900001-0001" })).toHaveAttribute("href", "/admin/orders/CPT-900001-0001");
  await expect(page.getByRole("row")).toHaveCount(4);
  await expectNoSeriousA11yViolations(page);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exporter ses données (JSON)" }).click();
  const exported = JSON.parse(fs.readFileSync(await (await download).path(), "utf8"));
  expect(exported.account).toMatchObject({ name: LEONIE.name, email: LEONIE.email });
  expect(exported.orders).toHaveLength(3);

  await page.getByRole("button", { name: "Effacer ses données (RGPD)" }).click();
  await expect(dialog.getByText("Effacer les données de ce client ?")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole("button", { name: "Effacer définitivement" }).click();
  await expect(page.getByText("Données effacées")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Client supprimé" })).toBeVisible();
  await expect(page.getByText(LEONIE.email)).toHaveCount(0);

  // Her orders still count; she cannot sign in any more.
  await page.goto(url("/admin/users?q=supprim"));
  await expect(row(page, "Client supprimé").getByRole("cell").nth(2)).toHaveText("2");
  await expect(row(page, "Client supprimé").getByRole("cell").nth(4)).toHaveText("115,40\u00a0€");
  const customer = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await customer.goto(url("/login"));
  await customer.getByLabel("Email").fill(LEONIE.email);
  await customer.getByLabel("Mot de passe").fill(LEONIE.password);
  await customer.getByRole("button", { name: "Se connecter" }).click();
  await expect(customer.getByText("Email ou mot de passe incorrect.").first()).toBeVisible();
  await customer.close();
});
