/** Stock thresholds of SPEC.md section 9. */
export const LOW_STOCK_MESSAGE_THRESHOLD = 10;
export const LOW_STOCK_BADGE_THRESHOLD = 3;
export const ADMIN_LOW_STOCK_THRESHOLD = 5;

export type StockState = "out" | "low" | "available";

export function stockState(stock: number): StockState {
  if (stock <= 0) return "out";
  if (stock <= LOW_STOCK_MESSAGE_THRESHOLD) return "low";
  return "available";
}

/** "Plus que 3 exemplaires disponibles", "Produit disponible"… */
export function stockMessage(stock: number): string {
  if (stock <= 0) return "Rupture de stock";
  if (stock <= LOW_STOCK_MESSAGE_THRESHOLD) {
    return stock === 1 ? "Plus que 1 exemplaire disponible" : `Plus que ${stock} exemplaires disponibles`;
  }
  return "Produit disponible";
}

/** The "Plus que N" badge shows for 1 to 3 units. */
export function showLowStockBadge(stock: number): boolean {
  return stock >= 1 && stock <= LOW_STOCK_BADGE_THRESHOLD;
}
