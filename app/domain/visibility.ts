import type { ProductStatus } from "./catalog-values";

export const NEW_PRODUCT_WINDOW_DAYS = 14;

type Visible = { status: ProductStatus; dropTime?: Date | null };

/**
 * Whether the public may see a product now. An a_venir product becomes public at its
 * drop time by itself, even before the sweeper flips its status.
 */
export function isPubliclyVisible(p: Visible, now: Date): boolean {
  if (p.status === "en_ligne") return true;
  return p.status === "a_venir" && p.dropTime != null && p.dropTime.getTime() <= now.getTime();
}

export function isNewProduct(createdAt: Date, now: Date): boolean {
  const age = now.getTime() - createdAt.getTime();
  return age >= 0 && age < NEW_PRODUCT_WINDOW_DAYS * 24 * 60 * 60 * 1000;
}
