import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { type RunningServer, startServer } from "../integration/server-process";
import { expect, serverClock, specDataDir, TEST_CLOCK_TOKEN, test } from "./fixtures";

/**
 * Runs its own server on a fresh PostgreSQL database (E2E_DATABASE_URL, set by `npm test`
 * from its throwaway cluster) so the test can change rows "behind the shop's back", the way
 * a second instance, an admin or psql would, while a browser page is open.
 */
const serverUrl = process.env.E2E_DATABASE_URL;
test.skip(!serverUrl, "SKIPPED: no E2E_DATABASE_URL (npm test sets it when PostgreSQL is available)");
test.describe.configure({ mode: "serial" });

let server: RunningServer;
let sql: pg.Client;
let databaseName: string;
let dataDir: string;
let clock: ReturnType<typeof serverClock>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  databaseName = `comptoir_e2e_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const url = new URL(serverUrl!);
  url.pathname = `/${databaseName}`;
  // Its uploads only: the sample images, already drawn.
  dataDir = await specDataDir("comptoir-e2e-pg-");
  server = await startServer({ DATABASE_URL: url.toString(), DATA_DIR: dataDir, ADMIN_PASSWORD: "motdepasse-e2e-pg", TEST_CLOCK: TEST_CLOCK_TOKEN });
  // Drops open when the test moves this server's clock, not after a real wait that a loaded
  // machine can overrun before the page's "before" state is checked.
  clock = serverClock(server.url);
  sql = new pg.Client({ connectionString: url.toString() });
  await sql.connect();
});

test.afterAll(async () => {
  await sql?.end();
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  if (!databaseName) return;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
});

test("a stock change made in the database shows on an open product page within 2 seconds, without reload", async ({ page }) => {
  const { rows } = await sql.query<{ id: number }>("select id from products where title = 'Booster Astres Radieux'");
  const id = rows[0]!.id;
  await page.goto(`${server.url}/product/${id}`);
  const details = page.getByRole("region", { name: "Booster Astres Radieux" }); // not the similar products below
  await expect(details.getByText("Produit disponible")).toBeVisible();
  // Wait for the live connection before changing anything.
  await page.waitForFunction(() => document.documentElement.dataset.live === "connected");
  await page.evaluate(() => ((window as unknown as { __beforeLive: boolean }).__beforeLive = true));

  await sql.query("update products set stock = 2 where id = $1", [id]);
  await expect(details.getByText("Plus que 2 exemplaires disponibles")).toBeVisible({ timeout: 2_000 });
  await sql.query("update products set stock = 0 where id = $1", [id]);
  await expect(page.getByRole("button", { name: "Indisponible : Booster Astres Radieux" })).toBeDisabled({ timeout: 2_000 });
  // Same document all along: the page was updated, not reloaded.
  expect(await page.evaluate(() => (window as unknown as { __beforeLive?: boolean }).__beforeLive)).toBe(true);
});

test("a page whose live stream opens only after a change catches up with it", async ({ page }) => {
  // A slow phone during a drop: the page arrives, a unit sells, and only then does its stream open.
  const { rows } = await sql.query<{ id: number }>("select id from products where title = 'Coffret Dresseur d''Élite Épée et Bouclier'");
  const id = rows[0]!.id;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/live", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${server.url}/product/${id}`);
  const details = page.getByRole("region", { name: "Coffret Dresseur d'Élite Épée et Bouclier" });
  await expect(details.getByText(/exemplaires? disponibles?|Produit disponible/)).toBeVisible();
  await sql.query("update products set stock = 1 where id = $1", [id]);
  // The server has heard of it: its cached page is gone, a fresh one shows the new stock.
  await expect.poll(async () => (await (await fetch(`${server.url}/product/${id}`)).text()).includes("Plus que 1 exemplaire disponible")).toBe(true);
  await expect(details.getByText("Plus que 1 exemplaire disponible")).toHaveCount(0);
  release();
  await expect(details.getByText("Plus que 1 exemplaire disponible")).toBeVisible({ timeout: 2_000 });
});

test("a product added in the database appears in an open listing, and a drop opens at its time", async ({ page }) => {
  await page.goto(`${server.url}/tcg?category=other-cards`);
  await expect(page.getByText("2 produits")).toBeVisible();
  await page.waitForFunction(() => document.documentElement.dataset.live === "connected");
  await sql.query(
    `insert into products (title, price_cents, stock, category, sub_category) values ('Deck Magic Live', 2999, 5, 'TCG', 'Autres Cartes')`,
  );
  await expect(page.getByRole("heading", { name: "Deck Magic Live" })).toBeVisible({ timeout: 2_000 });

  const { rows } = await sql.query<{ drop_time: Date }>(
    `insert into products (title, price_cents, stock, category, sub_category, status, drop_time)
     values ('Drop One Piece', 4999, 3, 'TCG', 'Autres Cartes', 'a_venir', now() + interval '1 hour') returning drop_time`,
  );
  await expect(page.getByRole("heading", { name: "Drop One Piece" })).toHaveCount(0);
  await clock.reach(rows[0]!.drop_time);
  await expect(page.getByRole("heading", { name: "Drop One Piece" })).toBeVisible({ timeout: 4_000 });
});

test("a product page opened before its drop says when it opens, counts down, and becomes the product at that time", async ({ page }) => {
  const { rows } = await sql.query<{ id: number; drop_time: Date }>(
    `insert into products (title, price_cents, stock, category, sub_category, status, drop_time)
     values ('Display Drop Live', 21999, 4, 'TCG', 'Scellés', 'a_venir', now() + interval '2 hours') returning id, drop_time`,
  );
  const response = await page.goto(`${server.url}/product/${rows[0]!.id}-display-drop-live`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Display Drop Live" })).toBeVisible();
  await expect(page.getByText("Bientôt disponible")).toBeVisible();
  await expect(page.getByRole("img", { name: "Display Drop Live" })).toBeVisible();
  await expect(page.getByText(/^219,99\s€$/)).toBeVisible();
  await expect(page.getByText(/^Mise en vente le .+\. Cette page s'ouvre d'elle-même à ce moment-là\.$/)).toBeVisible();
  await expect(page.getByRole("timer")).toBeVisible();
  const addToCart = page.getByRole("button", { name: "Ajouter au panier : Display Drop Live" });
  await expect(addToCart).toHaveCount(0);
  await clock.reach(rows[0]!.drop_time);
  await expect(addToCart).toBeVisible({ timeout: 8_000 });
  await expect(page.getByText("Bientôt disponible")).toHaveCount(0);
});
