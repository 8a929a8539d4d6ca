import { expect, holdPageCode, test } from "./fixtures";

test.describe("mobile shell (390 px)", () => {
  test("a tap on the menu before the page's code has run opens it once the code is there", async ({ page }) => {
    const release = await holdPageCode(page);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    release();
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
});
