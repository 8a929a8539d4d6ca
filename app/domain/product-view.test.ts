import { describe, expect, it } from "vitest";
import { toProductDetail, toProductView } from "./product-view";

const now = new Date("2025-06-15T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const BASE = "https://cdn.example/images";

type Input = Parameters<typeof toProductDetail>[0];
const product = (overrides: Partial<Input> = {}): Input => ({
  id: 7,
  title: "Dracaufeu ex",
  description: "Carte ultra rare",
  additionalImages: ["seed/dracaufeu-dos"],
  updatedAt: new Date("2025-06-14T08:00:00Z"),
  priceCents: 4999,
  stock: 2,
  imagePath: "seed/dracaufeu",
  category: "TCG",
  subCategory: "Cartes",
  cardType: "recent",
  series: "Écarlate et Violet",
  rarity: "ultra-rare",
  condition: "near-mint",
  featured: true,
  createdAt: new Date(now.getTime() - DAY),
  ...overrides,
});

describe("toProductView", () => {
  it("maps the product to what a card shows, and nothing more (a listing sends it twice)", () => {
    expect(toProductView(product(), BASE, now)).toEqual({
      id: 7,
      name: "Dracaufeu ex",
      priceCents: 4999,
      stock: 2,
      image: {
        src: `${BASE}/seed/dracaufeu-640.webp`,
        srcSet: `${BASE}/seed/dracaufeu-320.webp 320w, ${BASE}/seed/dracaufeu-640.webp 640w, ${BASE}/seed/dracaufeu-960.webp 960w`,
        aspect: "card",
      },
      category: "Cartes Récentes",
      subCategory: "Cartes",
      series: "Écarlate et Violet",
      rarity: "ultra-rare",
      featured: true,
      isNew: true,
    });
  });

  it("adds the product page's details: description, condition, every image", () => {
    const detail = toProductDetail(product(), BASE, now);
    expect(detail).toMatchObject({ description: "Carte ultra rare", mainCategory: "TCG", cardType: "recent", condition: "near-mint", updatedAt: "2025-06-14T08:00:00.000Z" });
    expect(detail.images.map((image) => image.src)).toEqual([`${BASE}/seed/dracaufeu-640.webp`, `${BASE}/seed/dracaufeu-dos-640.webp`]);
  });

  it("uses a square frame for anything but TCG single cards", () => {
    expect(toProductView(product({ subCategory: "Scellés" }), BASE, now).image?.aspect).toBe("square");
    expect(toProductView(product({ category: "Accessoires", subCategory: null }), BASE, now).image?.aspect).toBe("square");
  });

  it("has no image when imagePath is null", () => {
    expect(toProductView(product({ imagePath: null }), BASE, now).image).toBeNull();
  });

  it("is not new after 14 days", () => {
    expect(toProductView(product({ createdAt: new Date(now.getTime() - 20 * DAY) }), BASE, now).isNew).toBe(false);
  });

  it("clamps negative stock to 0", () => {
    expect(toProductView(product({ stock: -4 }), BASE, now).stock).toBe(0);
  });

  it("gives the former price it is handed and the product safety, the product's values before its brand's", () => {
    const brand = {
      manufacturerName: "Bandai Co., Ltd.",
      postalAddress: "",
      email: "",
      warnings: "Ne convient pas aux enfants de moins de 3 ans.",
      manufacturerOutsideEu: true,
      euRepName: "Importateur SARL",
      euRepAddress: "",
      euRepEmail: "",
    };
    const detail = toProductDetail(product({ ean: "4006381333931", manufacturerEmail: "contact@example.com", labelImagePath: "label_1" }), BASE, now, { compareAtCents: 5999, profile: brand });
    expect(detail.compareAtCents).toBe(5999);
    expect(detail.safety).toEqual({
      manufacturerName: "Bandai Co., Ltd.",
      postalAddress: null,
      email: "contact@example.com",
      manufacturerOutsideEu: true,
      euRepName: "Importateur SARL",
      euRepAddress: null,
      euRepEmail: null,
      ean: "4006381333931",
      manufacturerReference: null,
      warnings: "Ne convient pas aux enfants de moins de 3 ans.",
      labelImagePath: "label_1",
    });
    expect(detail.safetyLabelImage?.src).toContain("label_1");
    expect(toProductDetail(product(), BASE, now)).toMatchObject({ compareAtCents: null, safety: { manufacturerName: null, ean: null }, safetyLabelImage: null, pegi: null });
  });

  it("gives a video game's PEGI rating, and none to another product", () => {
    const game = { category: "Gaming & Mangas" as const, subCategory: "Jeux Vidéo", pegiRating: 12, pegiDescriptors: ["peur", "violence"] };
    expect(toProductDetail(product(game), BASE, now).pegi).toEqual({ age: 12, descriptors: ["violence", "peur"] });
    expect(toProductDetail(product({ ...game, subCategory: "Manga" }), BASE, now).pegi).toBeNull();
    expect(toProductDetail(product({ ...game, pegiRating: null }), BASE, now).pegi).toBeNull();
  });

  it("turns missing rarity and condition into null", () => {
    const view = toProductDetail(product({ rarity: null, condition: null }), BASE, now);
    expect(view.rarity).toBeNull();
    expect(view.condition).toBeNull();
  });
});
