import type { ProductDetail } from "./product-view";

/** "1999" → "19.99": schema.org wants a dot-decimal price, never a float. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** schema.org Product with its Offer (price in EUR, availability from the stock). */
export function productJsonLd(
  product: Pick<ProductDetail, "id" | "name" | "description" | "priceCents" | "stock" | "category" | "images" | "condition"> & {
    safety?: Pick<ProductDetail["safety"], "ean">;
  },
  page: { url: string; absolute: (path: string) => string; shopName: string },
) {
  const ean = product.safety?.ean ?? null;
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    sku: String(product.id),
    // The EAN the product page shows (checked when saved: 13 or 8 digits with their check digit).
    ...(ean?.length === 13 ? { gtin13: ean } : ean?.length === 8 ? { gtin8: ean } : {}),
    category: product.category,
    image: product.images.map((image) => page.absolute(image.src)),
    offers: {
      "@type": "Offer",
      url: page.url,
      priceCurrency: "EUR",
      price: centsToDecimal(product.priceCents),
      availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition:
        product.condition === "played" || product.condition === "good"
          ? "https://schema.org/UsedCondition"
          : "https://schema.org/NewCondition",
      seller: { "@type": "Organization", name: page.shopName },
    },
  };
}
