import type { RunningServer } from "../integration/server-process";
import { startFixtureServer } from "./fixture-server";
import { expect, signInAdminRequest, test } from "./fixtures";

/**
 * The listings' pagers, "Afficher plus de produits" and their sold-out and empty states, on a
 * server of its own (PGlite, with the products of tests/setup/listing-fixtures.ts): the extra
 * products would upset the other specs' counts on the shared server.
 */
// One server for the file: its tests in order, in one worker.
test.describe.configure({ mode: "default" });

const ADMIN = { email: "admin-listings@comptoir.test", password: "admin-listings-mot-de-passe" };
let server: RunningServer;
let stopServer: () => Promise<void> = async () => {};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ server, stop: stopServer } = await startFixtureServer("comptoir-e2e-listings-", "tests/setup/listing-fixtures.ts", ADMIN));
});

test.afterAll(() => stopServer());

test("sealed products come 8 per page with at most 5 page numbers, and a page change scrolls to the top", async ({ page }) => {
  // 50 sealed: 7 pages.
  await page.goto(`${server.url}/tcg?category=sealed`);
  await expect(page.getByRole("article")).toHaveCount(8);
  const pager = page.getByRole("navigation", { name: "Pagination" });
  await expect(pager.getByRole("link", { name: /^Page \d+$/ })).toHaveCount(5);
  await expect(pager.getByText("Page 1 sur 7")).toBeVisible();
  await pager.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await pager.getByRole("link", { name: "Page 4" }).click();
  await expect(page).toHaveURL(/category=sealed&page=4/);
  await expect(pager.getByText("Page 4 sur 7")).toBeVisible();
  await expect(pager.getByRole("link", { name: "Page 4" })).toHaveAttribute("aria-current", "page");
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(pager.getByRole("link", { name: /^Page \d+$/ })).toHaveText(["2", "3", "4", "5", "6"]);
});

test("other cards come 12 per page; cards load 12 more with Afficher plus de produits", async ({ page }) => {
  await page.goto(`${server.url}/tcg?category=other-cards`);
  await expect(page.getByRole("article")).toHaveCount(12);
  await expect(page.getByRole("navigation", { name: "Pagination" }).getByText(/Page 1 sur \d/)).toBeVisible();

  // 30 recent cards.
  await page.goto(`${server.url}/tcg?category=cards`);
  await expect(page.getByRole("article")).toHaveCount(12);
  const more = page.getByRole("link", { name: "Afficher plus de produits" });
  const cardLink = (index: number) => page.getByRole("article").nth(index).getByRole("link");
  await more.click();
  await expect(page.getByRole("article")).toHaveCount(24);
  await expect(page).toHaveURL(/shown=24/);
  // The first new card has the focus, and the next Tab goes on through the new ones.
  await expect(cardLink(12)).toBeFocused();
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("article")).toHaveCount(30);
  await expect(page.getByText("30 sur 30 produits")).toBeVisible();
  await expect(more).toHaveCount(0);
  await expect(cardLink(24)).toBeFocused();
});

test("/entertainment puts a Rupture de stock overlay on a sold-out card, and both listings have their empty state", async ({ page, request }) => {
  // The game was sold out before the server started (tests/setup/listing-fixtures.ts).
  await page.goto(`${server.url}/entertainment`);
  const card = page.getByRole("article").filter({ hasText: "Pokémon Écarlate – Nintendo Switch" });
  // The overlay on the image, and the stock line below it.
  await expect(card.getByText("Rupture de stock")).toHaveCount(2);
  await expect(card.getByText("Rupture de stock").first()).toBeVisible();
  // No add-to-cart button: the wish-list heart alone (a sold-out game is one to wait for).
  await expect(card.getByRole("button")).toHaveCount(1);
  await expect(card.getByRole("button", { name: "Ajouter à ma liste : Pokémon Écarlate – Nintendo Switch" })).toBeVisible();
  await expect(card.getByText("Gaming", { exact: true })).toBeVisible();

  // The seller deletes every game, then every accessory.
  await signInAdminRequest(request, ADMIN, server.url);
  const deleteListed = async (listing: string) => {
    const html = await (await request.get(`${server.url}${listing}`)).text();
    const ids = [...new Set([...html.matchAll(/href="\/product\/(\d+)-/g)].map((match) => match[1]!))];
    expect(ids.length, listing).toBeGreaterThan(0);
    for (const id of ids) expect((await request.post(`${server.url}/admin/products`, { form: { intent: "delete", id } })).status()).toBe(200);
  };
  await deleteListed("/entertainment");
  await page.goto(`${server.url}/entertainment`);
  await expect(page.getByText("Aucun produit trouvé")).toBeVisible();
  await deleteListed("/accessories");
  await page.goto(`${server.url}/accessories`);
  await expect(page.getByText("Aucun accessoire trouvé")).toBeVisible();
});
