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
  description: "",
  priceCents: 5_999,
  stock: 0,
  image: null,
  category: "Gaming & Mangas",
  mainCategory: "Gaming & Mangas",
  subCategory: "Jeux Vidéo",
  cardType: null,
  series: null,
  rarity: null,
  condition: null,
  featured: false,
  isNew: false,
};

function render(stock: number, soldOut?: SoldOutDisplay) {
  return renderToStaticMarkup(
    createElement(MemoryRouter, null, createElement(ProductCard, { product: { ...product, stock }, soldOut, badge: "BADGE" })),
  );
}

const count = (html: string, text: string) => html.split(text).length - 1;
/** The card's first link, the one around the image. */
const imageLink = (html: string) => html.slice(html.indexOf("<a"), html.indexOf("</a>"));

describe("ProductCard sold-out display", () => {
  it("by default: a Rupture de stock badge and a disabled Indisponible button", () => {
    const html = render(0);
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Indisponible<\/button>/);
    expect(count(html, "Rupture de stock")).toBe(2); // badge and stock line
    expect(count(imageLink(html), "Rupture de stock")).toBe(0);
  });

  it("overlay: Rupture de stock over the image instead of the badge, and no add-to-cart button", () => {
    const html = render(0, "overlay");
    expect(html).not.toContain("<button");
    expect(count(imageLink(html), "Rupture de stock")).toBe(1);
    expect(count(html, "Rupture de stock")).toBe(2); // overlay and stock line
  });

  it("overlay mode changes nothing while in stock, and the extra badge comes first", () => {
    const html = render(2, "overlay");
    expect(html).not.toContain("Rupture de stock");
    expect(html).toContain("Ajouter Zelda – Tears of the Kingdom au panier");
    expect(html.indexOf("BADGE")).toBeLessThan(html.indexOf("Plus que 2"));
  });
});
