/**
 * "Remise contre signature" (SPEC.md section 9's parcel option, decision 044): a delivery service,
 * the parcel handed over only against the recipient's signature. Never worded as insurance: the
 * seller bears the transport risk until delivery whatever the buyer chooses (L216-4 Code de la
 * consommation), so selling cover for loss would sell a legal right (L121-4 10°).
 * The one rule used by the cart page and by the server: offered only when the seller has it on
 * and 0 < subtotal ≤ 1 000 €; 10 € up to 500 €, 20 € up to 1 000 €.
 */
export const SIGNATURE_DELIVERY_LABEL = "Remise contre signature";
export const SIGNATURE_MAX_SUBTOTAL_CENTS = 100_000;
/** Beside the option in the cart, and in the CGV: the buyer's right, whatever the choice. */
export const TRANSPORT_RISK_SENTENCE = "Quel que soit votre choix, nous supportons les risques du transport jusqu'à la remise du colis (article L216-4 du Code de la consommation).";
export const SIGNATURE_DELIVERY_TIERS = [
  { upToCents: 50_000, feeCents: 1_000 },
  { upToCents: 100_000, feeCents: 2_000 },
] as const;

export function isSignatureDeliveryOffered(subtotalCents: number, enabled = true): boolean {
  return enabled && subtotalCents > 0 && subtotalCents <= SIGNATURE_MAX_SUBTOTAL_CENTS;
}

/** The fee for a subtotal, whether or not the customer chose it (0 when not offered). */
export function signatureDeliveryFeeCents(subtotalCents: number, enabled = true): number {
  if (!isSignatureDeliveryOffered(subtotalCents, enabled)) return 0;
  return SIGNATURE_DELIVERY_TIERS.find((tier) => subtotalCents <= tier.upToCents)!.feeCents;
}

/** What the option adds to the total: the fee when chosen and offered, else 0. */
export function signatureDeliveryChargeCents(subtotalCents: number, selected: boolean, enabled = true): number {
  return selected ? signatureDeliveryFeeCents(subtotalCents, enabled) : 0;
}
