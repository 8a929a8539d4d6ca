import { describe, expect, it } from "vitest";
import type { ShopIdentity } from "./shop";
import { absoluteUrl, metaDescription, pageMeta } from "./seo";

const root = { shop: { name: "Comptoir" } as ShopIdentity, publicUrl: "https://boutique.example" };

describe("metaDescription", () => {
  it("keeps the first 155 characters on one line", () => {
    const text = `Une ligne\net une autre ${"x".repeat(300)}`;
    const description = metaDescription(text);
    expect(description).toHaveLength(155);
    expect(description.startsWith("Une ligne et une autre")).toBe(true);
  });
});

describe("pageMeta", () => {
  it("gives title, description, an absolute canonical URL and Open Graph tags", () => {
    const tags = pageMeta(root, { title: "Cartes | Comptoir", description: "Des cartes.", path: "/tcg?category=cards", image: "/uploads/a.webp" });
    expect(tags).toContainEqual({ title: "Cartes | Comptoir" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://boutique.example/tcg?category=cards" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://boutique.example/uploads/a.webp" });
    expect(tags).toContainEqual({ property: "og:locale", content: "fr_FR" });
  });

  it("keeps absolute image URLs (S3) as they are", () => {
    expect(absoluteUrl(root.publicUrl, "https://cdn.example/a.webp")).toBe("https://cdn.example/a.webp");
  });
});
