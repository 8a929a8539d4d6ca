import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { ProductView } from "~/domain/product-view";
import { ProductCard, type SoldOutDisplay } from "./product-card";

// The sample catalogue has no sold-out manga or game, so the end-to-end tests cannot see the
// /entertainment overlay: the card is rendered here instead.
const product: ProductView = {
  id: 7,
  name: "Zelda – Tears of the Kingdom",
  priceCents: 5_999,
  stock: 0,
  image: null,
  category: "Gaming & Mangas",
  subCategory: "Jeux Vidéo",
  series: null,
  rarity: null,
  featured: false,
  isNew: false,
};

function render(stock: number, soldOut?: SoldOutDisplay) {
  return renderToStaticMarkup(
    createElement(MemoryRouter, null, createElement(ProductCard, { product: { ...product, stock }, soldOut, badge: "BADGE" })),
  );
}

const count = (html: string, text: string) => html.split(text).length - 1;
/** What the card shows over its image (before the card's body). */
const overImage = (html: string) => html.slice(html.indexOf("<img"), html.indexOf('<div class="flex flex-1'));

describe("ProductCard", () => {
  it("has one link, the title's, and a decorative image (the title names the product)", () => {
    const html = render(3);
    expect(count(html, "<a ")).toBe(1);
    expect(html).toMatch(/<h3[^>]*><a [^>]*href="\/product\/7-zelda-tears-of-the-kingdom"/);
    expect(html).toContain('alt=""');
  });

  it("names its button after what it shows, then the product (WCAG 2.5.3), with no aria-label", () => {
    const html = render(3);
    expect(html).toMatch(/<button[^>]*><svg[^>]*><path [^>]*><\/path><\/svg>Ajouter au panier<span class="sr-only"> : Zelda – Tears of the Kingdom<\/span><\/button>/);
    expect(html).not.toContain("aria-label");
  });

  it("has a wish-list heart, not pressed in the HTML every visitor shares (the browser fills it)", () => {
    const html = render(3);
    expect(html).toMatch(/<button type="button" aria-pressed="false"[^>]*><svg[^>]*><path [^>]*><\/path><\/svg><span class="sr-only">Ajouter à ma liste : Zelda – Tears of the Kingdom<\/span><\/button><\/article>$/);
  });
});

describe("ProductCard sold-out display", () => {
  it("by default: a Rupture de stock badge and a disabled Indisponible button", () => {
    const html = render(0);
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Indisponible<span class="sr-only"> : Zelda – Tears of the Kingdom<\/span><\/button>/);
    expect(count(html, "Rupture de stock")).toBe(2); // badge and stock line
    expect(count(overImage(html), "Rupture de stock")).toBe(0);
  });

  it("overlay: Rupture de stock over the image instead of the badge, and no add-to-cart button", () => {
    const html = render(0, "overlay");
    // The wish-list heart only: a sold-out product is what one waits for.
    expect(count(html, "<button")).toBe(1);
    expect(html).toContain('<button type="button" aria-pressed="false"');
    expect(overImage(html)).toMatch(/<span aria-hidden="true"[^>]*><span[^>]*>Rupture de stock<\/span><\/span>$/);
    expect(count(html, "Rupture de stock")).toBe(2); // overlay and stock line
  });

  it("overlay mode changes nothing while in stock, and the extra badge comes first", () => {
    const html = render(2, "overlay");
    expect(html).not.toContain("Rupture de stock");
    expect(html).toContain("Ajouter au panier<span class=\"sr-only\"> : Zelda – Tears of the Kingdom</span></button>");
    expect(html.indexOf("BADGE")).toBeLessThan(html.indexOf("Plus que 2"));
  });
});
