import type { VatScheme } from "./vat";
import { parsePriceCents } from "./product-form";

/**
 * The purchase price the product form asks for a margin-scheme product (docs/decisions/057): the
 * units it adds to stock, or its whole stock when it goes under the margin scheme, need one, so
 * that their margin can be computed when they are sold. The same rule runs in the browser (the
 * stock the form showed) and on the server (the locked product's stock).
 */

type StockState = { stock: number; vatScheme: VatScheme };

/** Units entering margin-scheme stock by this save: all of it for a new product or one going under the scheme, else what is added. */
export function unitsNeedingPurchasePrice(before: StockState | null, after: StockState): number {
  if (after.vatScheme !== "margin") return 0;
  if (!before || before.vatScheme !== "margin") return after.stock;
  return Math.max(0, after.stock - before.stock);
}

export type PurchaseLotOfEdit = { ok: true; lot: { quantity: number; unitCostCents: number } | null } | { ok: false; message: string };

/** The lot a save makes (null: none needed), or why the purchase price typed does not do. */
export function purchaseLotOfEdit(before: StockState | null, after: StockState, purchasePrice: unknown): PurchaseLotOfEdit {
  const quantity = unitsNeedingPurchasePrice(before, after);
  if (quantity === 0) return { ok: true, lot: null };
  const text = typeof purchasePrice === "string" ? purchasePrice.trim() : "";
  const units = `${quantity} unité${quantity > 1 ? "s" : ""}`;
  if (text === "") {
    return {
      ok: false,
      message:
        before && before.vatScheme === "margin"
          ? `Indiquez le prix d'achat unitaire des ${units} ajoutées au stock : la TVA sur la marge en dépend.`
          : `Indiquez le prix d'achat unitaire du stock (${units}) : la TVA sur la marge en dépend.`,
    };
  }
  const price = parsePriceCents(text, "Le prix d'achat");
  return price.ok ? { ok: true, lot: { quantity, unitCostCents: price.value } } : { ok: false, message: price.message };
}
