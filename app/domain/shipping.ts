import type { ShippingBand, ShippingKind } from "./shipping-method";

export type ShippingMethodRule = {
  id: number;
  name: string;
  kind: ShippingKind;
  countries: readonly string[];
  bands: readonly ShippingBand[];
  freeFromCents: number | null;
  deliveryTime: string;
};

export type ShippingCart = { weightGrams: number; goodsCents: number; country: string };
export type ShippingQuote = { methodId: number; name: string; kind: ShippingKind; deliveryTime: string; priceCents: number; free: boolean };

/**
 * The band a cart falls in: of the bands it fits (weight at most `upToGrams`, goods at least
 * `fromSubtotalCents`), the lightest, then the one with the highest subtotal floor. Null: the
 * method cannot carry this cart (too heavy for every band).
 */
export function bandFor(bands: readonly ShippingBand[], weightGrams: number, goodsCents: number): ShippingBand | null {
  const fitting = bands.filter((band) => (band.upToGrams === null || weightGrams <= band.upToGrams) && goodsCents >= band.fromSubtotalCents);
  fitting.sort((a, b) => (a.upToGrams ?? Infinity) - (b.upToGrams ?? Infinity) || b.fromSubtotalCents - a.fromSubtotalCents);
  return fitting[0] ?? null;
}

/** What a method costs for this cart, or null when it does not go there or cannot carry it. */
export function quoteShipping(method: ShippingMethodRule, cart: ShippingCart): ShippingQuote | null {
  if (!method.countries.includes(cart.country)) return null;
  const band = bandFor(method.bands, cart.weightGrams, cart.goodsCents);
  if (!band) return null;
  const free = method.freeFromCents !== null && cart.goodsCents >= method.freeFromCents;
  return { methodId: method.id, name: method.name, kind: method.kind, deliveryTime: method.deliveryTime, priceCents: free ? 0 : band.priceCents, free };
}

/** Every method that fits the cart, cheapest first (the seller's order on a tie). */
export function quoteAll(methods: readonly ShippingMethodRule[], cart: ShippingCart): ShippingQuote[] {
  return methods
    .map((method, position) => ({ quote: quoteShipping(method, cart), position }))
    .filter((entry): entry is { quote: ShippingQuote; position: number } => entry.quote !== null)
    .sort((a, b) => a.quote.priceCents - b.quote.priceCents || a.position - b.position)
    .map((entry) => entry.quote);
}

/** Why a chosen method is refused at checkout, in the buyer's words. */
export function shippingRefusal(method: ShippingMethodRule | null, cart: ShippingCart, countryName: string): string {
  if (!method) return "Ce mode de livraison n'est plus proposé. Choisissez-en un autre dans votre panier.";
  if (!method.countries.includes(cart.country)) return `« ${method.name} » ne livre pas en ${countryName}. Choisissez un autre mode de livraison.`;
  return `« ${method.name} » ne peut pas transporter ce panier (${formatWeight(cart.weightGrams)}). Choisissez un autre mode de livraison.`;
}

export function formatWeight(grams: number): string {
  return grams < 1000 ? `${grams}\u00a0g` : `${new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 2 }).format(grams / 1000)}\u00a0kg`;
}

/** Default weight of a product (grams) by where it sits in the catalogue; editable per product. */
export function defaultWeightGrams(category: string, subCategory: string | null | undefined): number {
  if (category === "TCG") return subCategory === "Scellés" ? 150 : 5;
  if (category === "Accessoires") return 120;
  return 250;
}
