/**
 * A delivery method as the seller sets it in /admin/shipping: where it goes, its price bands and
 * when it is free. Shared by the schema, the admin form and the pricing rule (./shipping.ts).
 */
export const SHIPPING_KINDS = ["home", "relay", "letter"] as const;
export type ShippingKind = (typeof SHIPPING_KINDS)[number];

export const SHIPPING_KIND_LABELS: Record<ShippingKind, string> = {
  home: "À domicile",
  relay: "Point relais",
  letter: "Lettre suivie",
};

/**
 * One price band: applies to a cart weighing at most `upToGrams` (null: any weight) whose goods
 * subtotal is at least `fromSubtotalCents`. The tightest band that fits wins (./shipping.ts).
 */
export type ShippingBand = { upToGrams: number | null; fromSubtotalCents: number; priceCents: number };
