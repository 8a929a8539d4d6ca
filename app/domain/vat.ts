/**
 * French VAT rates a product of this shop may carry, in basis points (1 % = 100): 20 % (standard),
 * 10 % and 5,5 % (books, mangas included: CGI art. 278-0 bis) and 2,1 %. Prices are TTC; the VAT
 * inside a TTC amount is taken out, never added (docs/decisions/032).
 */
export const VAT_RATES_BP = [2000, 1000, 550, 210] as const;
/** A French rate a product may carry. */
export type FrenchVatRateBp = (typeof VAT_RATES_BP)[number];
/**
 * A rate an order's line or charge was taxed at: a French one, or the destination country's when
 * its distance sale is taxed there (OSS, docs/decisions/046).
 */
export type VatRateBp = number;
export const STANDARD_VAT_BP: FrenchVatRateBp = 2000;
export const BOOK_VAT_BP: FrenchVatRateBp = 550;

/**
 * "normal": VAT on the price. "margin": second-hand goods bought from individuals (CGI art. 297 A):
 * VAT is due on the margin only, never shown on the invoice, which says "Régime particulier – Biens
 * d'occasion" instead.
 */
export const VAT_SCHEMES = ["normal", "margin"] as const;
export type VatScheme = (typeof VAT_SCHEMES)[number];

/** A product's rate when the seller has not set one: books (mangas) 5,5 %, everything else 20 %. */
export function defaultVatRateBp(category: string, subCategory: string | null | undefined): FrenchVatRateBp {
  return category === "Gaming & Mangas" && subCategory?.toLowerCase().includes("manga") ? BOOK_VAT_BP : STANDARD_VAT_BP;
}

/** A rate an order may have stored: a French one or another member state's (0 % to 100 %, zero rates included). */
export function isStoredVatRateBp(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 10_000;
}

export function isVatRateBp(value: number): value is FrenchVatRateBp {
  return (VAT_RATES_BP as readonly number[]).includes(value);
}

/**
 * The VAT rule an order was placed under: "normal" (French VAT, or the buyer's member state's
 * under OSS), "franchise" (the seller under the franchise en base, CGI art. 293 B), or
 * "intra_eu_exempt" (a supply to a business of another member state exempted under CGI art. 262
 * ter I: its lines and charges at 0 %, docs/decisions/054).
 */
export const VAT_REGIMES = ["normal", "franchise", "intra_eu_exempt"] as const;
export type VatRegime = (typeof VAT_REGIMES)[number];
