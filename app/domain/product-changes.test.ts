import { describe, expect, it } from "vitest";
import { type LoggedProduct, productChanges, productSnapshot } from "./product-changes";

const product: LoggedProduct = {
  title: "Booster Astres Radieux",
  description: "Un booster de 10 cartes.",
  priceCents: 599,
  stock: 120,
  status: "en_ligne",
  category: "TCG",
  subCategory: "Scellés",
  cardType: null,
  featured: false,
  dropTime: null,
  imagePath: "seed/booster-astres-radieux",
  additionalImages: [],
  series: "Astres Radieux",
  rarity: null,
  condition: null,
  archivedAt: null,
};

describe("productChanges", () => {
  it("lists only the fields that differ, before → after", () => {
    expect(productChanges(product, { ...product, priceCents: 649, stock: 119 })).toEqual({
      priceCents: { before: 599, after: 649 },
      stock: { before: 120, after: 119 },
    });
    expect(productChanges(product, { ...product })).toEqual({});
  });

  it("stores dates as ISO strings and compares lists by content", () => {
    const drop = new Date("2026-12-01T17:00:00Z");
    expect(productChanges(product, { ...product, dropTime: drop, status: "a_venir" })).toEqual({
      status: { before: "en_ligne", after: "a_venir" },
      dropTime: { before: null, after: "2026-12-01T17:00:00.000Z" },
    });
    expect(productChanges({ ...product, dropTime: new Date(drop) }, { ...product, dropTime: drop })).toEqual({});
    expect(productChanges({ ...product, additionalImages: ["a", "b"] }, { ...product, additionalImages: ["a", "b"] })).toEqual({});
    expect(productChanges({ ...product, additionalImages: ["a", "b"] }, { ...product, additionalImages: ["b", "a"] })).toEqual({
      additionalImages: { before: ["a", "b"], after: ["b", "a"] },
    });
  });

  it("lists every field set for a creation, and every field held for a deletion", () => {
    const created = productChanges(null, product);
    expect(Object.keys(created).sort()).toEqual(
      ["category", "description", "featured", "imagePath", "priceCents", "series", "status", "stock", "subCategory", "title"].sort(),
    );
    expect(created.featured).toEqual({ before: null, after: false });
    expect(productChanges(product, null).title).toEqual({ before: "Booster Astres Radieux", after: null });
  });

  it("gives values that survive a JSON round trip unchanged", () => {
    const changes = productChanges(product, { ...product, archivedAt: new Date("2026-11-23T10:00:00Z"), status: "hors_ligne", additionalImages: ["x"] });
    expect(JSON.parse(JSON.stringify(changes))).toEqual(changes);
    expect(changes.archivedAt).toEqual({ before: null, after: "2026-11-23T10:00:00.000Z" });
  });

  it("does not share the product's arrays", () => {
    const images = ["a"];
    const changes = productChanges(null, { ...product, additionalImages: images });
    images.push("b");
    expect(changes.additionalImages?.after).toEqual(["a"]);
  });
});

describe("productSnapshot", () => {
  it("keeps the id, every logged field and the creation date", () => {
    const snapshot = productSnapshot({ ...product, id: 7, createdAt: new Date("2026-01-02T03:04:05Z") });
    expect(snapshot).toMatchObject({ id: 7, title: "Booster Astres Radieux", priceCents: 599, createdAt: "2026-01-02T03:04:05.000Z", archivedAt: null });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });
});
