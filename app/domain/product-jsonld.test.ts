import { describe, expect, it } from "vitest";
import { centsToDecimal, productJsonLd } from "./product-jsonld";

describe("centsToDecimal", () => {
  it("writes cents as a dot-decimal string", () => {
    expect(centsToDecimal(1999)).toBe("19.99");
    expect(centsToDecimal(5)).toBe("0.05");
    expect(centsToDecimal(49999)).toBe("499.99");
  });
});

describe("productJsonLd", () => {
  const page = { url: "https://b.example/product/3-pika", absolute: (p: string) => `https://b.example${p}`, shopName: "Comptoir" };
  const product = {
    id: 3,
    name: "Pikachu",
    description: "Une carte.",
    priceCents: 1250,
    stock: 2,
    category: "Cartes Récentes",
    condition: "near-mint" as const,
    images: [{ src: "/uploads/a-640.webp", srcSet: "", aspect: "card" as const }],
  };

  it("gives a Product with an EUR Offer and availability from the stock", () => {
    const ld = productJsonLd(product, page);
    expect(ld["@type"]).toBe("Product");
    expect(ld.image).toEqual(["https://b.example/uploads/a-640.webp"]);
    expect(ld.offers).toMatchObject({ priceCurrency: "EUR", price: "12.50", availability: "https://schema.org/InStock" });
    expect(productJsonLd({ ...product, stock: 0 }, page).offers.availability).toBe("https://schema.org/OutOfStock");
  });

  it("gives the EAN as gtin13 or gtin8 when the product has one", () => {
    const ean = (value: string | null) => productJsonLd({ ...product, safety: { ean: value } }, page) as Record<string, unknown>;
    expect(ean("0820650853272").gtin13).toBe("0820650853272");
    expect(ean("96385074")).toMatchObject({ gtin8: "96385074" });
    expect(ean(null)).not.toHaveProperty("gtin13");
    expect(productJsonLd(product, page)).not.toHaveProperty("gtin13");
  });
});
