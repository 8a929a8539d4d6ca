/**
 * Product images are stored as a key ("seed/display-ev") with one WebP file per width
 * ("seed/display-ev-640.webp"). These pure helpers turn a key into URLs.
 */
export const IMAGE_WIDTHS = [320, 640, 960] as const;
export const PLACEHOLDER_IMAGE = "/placeholder-product.svg";

export function imageUrl(baseUrl: string, key: string, width: number): string {
  return `${baseUrl}/${key}-${width}.webp`;
}

export function imageSrcSet(baseUrl: string, key: string): string {
  return IMAGE_WIDTHS.map((w) => `${imageUrl(baseUrl, key, w)} ${w}w`).join(", ");
}

/** Single cards are 63 × 88 mm (5:7); everything else sits in a square frame. */
export function imageAspect(p: { category: string; subCategory?: string | null }): "card" | "square" {
  return p.category === "TCG" && p.subCategory === "Cartes" ? "card" : "square";
}
