/**
 * Parcel insurance (SPEC.md section 9), the one rule used by the cart page and by the server:
 * offered only when 0 < subtotal ≤ 1 000 €; 10 € up to 500 €, 20 € up to 1 000 €.
 */
export const INSURANCE_MAX_SUBTOTAL_CENTS = 100_000;
const TIERS = [
  { upToCents: 50_000, feeCents: 1_000 },
  { upToCents: 100_000, feeCents: 2_000 },
] as const;

export function isInsuranceOffered(subtotalCents: number): boolean {
  return subtotalCents > 0 && subtotalCents <= INSURANCE_MAX_SUBTOTAL_CENTS;
}

/** The fee for a subtotal, whether or not the customer chose it (0 when not offered). */
export function insuranceFeeCents(subtotalCents: number): number {
  if (!isInsuranceOffered(subtotalCents)) return 0;
  return TIERS.find((tier) => subtotalCents <= tier.upToCents)!.feeCents;
}

/** What the insurance adds to the total: the fee when chosen and offered, else 0. */
export function insuranceChargeCents(subtotalCents: number, selected: boolean): number {
  return selected ? insuranceFeeCents(subtotalCents) : 0;
}
