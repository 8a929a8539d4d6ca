import { expect, expectNoSeriousA11yViolations, holdPageCode, signInAdmin, test, waitForHydration } from "./fixtures";

test.describe("mobile shell (390 px)", () => {
  test("a tap on the menu before the page's code has run opens it once the code is there", async ({ page }) => {
    const release = await holdPageCode(page);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    release();
    await expect(page.getByRole("dialog", { name: "Comptoir" })).toBeVisible();
  });

  test("a press still held when the menu's code arrives opens the menu once released", async ({ page }) => {
    // The code is held until the button is down on the stand-in. The real trigger used to replace
    // it before the button was released, and the browser sent the click to neither.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = () => {};
    const asked = new Promise<void>((resolve) => (requested = resolve));
    await page.route("**/assets/header-menus-*.js", async (route) => {
      requested();
      await held;
      await route.continue();
    });
    await page.goto("/");
    await waitForHydration(page);
    const trigger = page.getByRole("button", { name: "Ouvrir le menu" });
    const box = (await trigger.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await asked;
    const arrived = page.waitForResponse(/\/assets\/header-menus-/);
    release();
    await arrived;
    // Time for the code to run: the stand-in used to be swapped out here, under the pointer.
    await page.waitForTimeout(300);
    await page.mouse.up();
    await expect(page.getByRole("dialog", { name: "Comptoir" })).toBeVisible();
  });

  test("the slide-out menu holds every header link and closes on navigation", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Navigation principale" })).toBeHidden();
    await expect(page.getByRole("search").last()).toBeVisible();
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    const menu = page.getByRole("dialog", { name: "Comptoir" });
    await expect(menu).toBeVisible();
    for (const name of ["Accueil", "TCG", "Scellés", "Cartes", "Autres cartes", "Accessoires", "Gaming", "Contact", "Rachat", "Info", "Connexion", "Inscription"]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await menu.getByRole("link", { name: "Info", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(menu).toBeHidden();
  });

  test("the seller's entries are one row that scrolls sideways, the current one in view, the screen's content close below", async ({ page }) => {
    await signInAdmin(page);
    await page.goto("/admin/exports");
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Administration" });
    const current = nav.getByRole("link", { name: "Exports comptables" });
    await expect(current).toHaveAttribute("aria-current", "page");
    // Near the end of the row: scrolled to, without moving the page.
    await expect(current).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const heading = page.getByRole("heading", { level: 1, name: "Exports comptables" });
    expect((await heading.boundingBox())!.y).toBeLessThan(420);
    // Every entry stays reachable: the first, by scrolling the row back.
    await nav.getByRole("link", { name: "Tableau de bord" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Tableau de bord" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
