import { z } from "zod";
import { EMPTY_CART_ERROR, PROVIDER_ERROR } from "./checkout-rules";
import { signatureDeliveryChargeCents } from "./signature-delivery";
import { formatParisMoment } from "./site-content-display";
import { SHIPPING_COUNTRY_CODES } from "./shipping-countries";
import { hasForbiddenCharacters } from "./text-rules";
import type { DropRefusal } from "./drop-rules";
import { businessPurchaseSchema } from "./business-purchase";

export { EMPTY_CART_ERROR, PROVIDER_ERROR };

/**
 * The body of POST /api/checkout. Only product ids and quantities (and the typed discount code)
 * come from the browser: names, prices, the discount and totals are read and computed on the
 * server, and unknown keys (a price, an amount, a discount, metadata) are dropped by the schema.
 */
export const MAX_CART_LINES = 50;
export const MAX_LINE_QUANTITY = 99;


const quantity = z
  .number({ message: "La quantité doit être un nombre entier." })
  .int("La quantité doit être un nombre entier.")
  .min(1, "La quantité doit être d'au moins 1.")
  .max(MAX_LINE_QUANTITY, `La quantité ne peut pas dépasser ${MAX_LINE_QUANTITY}.`);

const FORBIDDEN = "Ce champ contient des caractères non autorisés.";
const relayText = (min: number, message: string, max = 120) =>
  z
    .string({ message })
    .trim()
    .max(max, "Texte trop long.")
    .refine((value) => !hasForbiddenCharacters(value), FORBIDDEN)
    .pipe(z.string().min(min, message));

/**
 * The relay point the buyer picked (SPEC.md: "a relay-point choice needs the full relay-point
 * address"): its name, the carrier's identifier and its full address, checked the same way in
 * the cart and on the server.
 */
export const relayPointSchema = z.object({
  id: relayText(2, "Indiquez l'identifiant du point relais", 32),
  name: relayText(2, "Indiquez le nom du point relais"),
  line1: relayText(3, "Indiquez l'adresse du point relais"),
  postalCode: z.string({ message: "Code postal invalide" }).trim().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,9}$/, "Code postal invalide"),
  city: relayText(2, "Indiquez la ville du point relais", 80),
});
export type RelayPoint = z.infer<typeof relayPointSchema>;

/** The delivery chosen in the cart: a method id and a country; the server prices it. */
export const deliveryChoiceSchema = z
  .object(
    {
      methodId: z.number({ message: "Choisissez un mode de livraison." }).int("Choisissez un mode de livraison.").positive("Choisissez un mode de livraison.").max(2_147_483_647, "Choisissez un mode de livraison."),
      country: z.enum(SHIPPING_COUNTRY_CODES, { message: "Choisissez un pays de livraison" }),
      relayPoint: relayPointSchema.optional(),
    },
    { message: "Choisissez un mode de livraison." },
  )
  .superRefine((value, ctx) => {
    if (value.country === "FR" && value.relayPoint && !/^\d{5}$/.test(value.relayPoint.postalCode)) {
      ctx.addIssue({ code: "custom", path: ["relayPoint", "postalCode"], message: "Code postal invalide (5 chiffres)" });
    }
  });
export type DeliveryChoice = z.infer<typeof deliveryChoiceSchema>;

export const checkoutRequestSchema = z.object(
  {
    items: z
      .array(
        z.object(
          {
            productId: z.number({ message: "Produit inconnu." }).int("Produit inconnu.").positive("Produit inconnu.").max(2_147_483_647, "Produit inconnu."),
            quantity,
          },
          { message: "Le panier est illisible." },
        ),
        { message: "Le panier est illisible." },
      )
      .max(MAX_CART_LINES, `Un panier contient au plus ${MAX_CART_LINES} articles différents.`)
      // The same product on several lines is one line of their sum (mergeLines): the cap holds on it.
      .refine((items) => mergeLines(items).every((line) => line.quantity <= MAX_LINE_QUANTITY), `La quantité ne peut pas dépasser ${MAX_LINE_QUANTITY}.`),
    /** The "Remise contre signature" option (field name kept from SPEC's metadata, decision 044). */
    insuranceSelected: z.boolean({ message: "Le choix de la remise contre signature est illisible." }).default(false),
    email: z
      .string({ message: "Merci d'entrer une adresse email valide" })
      .trim()
      .max(254, "Adresse e-mail trop longue.")
      .pipe(z.union([z.literal(""), z.email({ message: "Merci d'entrer une adresse email valide" })]))
      .optional(),
    discountCode: z.string({ message: "Code promo illisible." }).trim().max(64, "Code promo trop long.").optional(),
    /** Absent (an older page, a script): the cheapest method that carries the cart to France. */
    delivery: deliveryChoiceSchema.optional(),
    /** "Achat professionnel": the company the invoice is made out to; absent for a consumer. */
    business: businessPurchaseSchema.optional(),
    /** The store credit the buyer asks to use, in cents (the server uses at most their balance and the total). */
    storeCreditCents: z.number({ message: "Le montant d'avoir est illisible." }).int("Le montant d'avoir est illisible.").min(0, "Le montant d'avoir ne peut pas être négatif.").max(100_000_000, "Le montant d'avoir est trop grand.").optional(),
  },
  { message: "La commande envoyée est illisible." },
);

export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
export type CheckoutLineRequest = CheckoutRequest["items"][number];

type LineQuantity = { productId: number; quantity: number };

/** One line per product, sorted by id: the same product twice is one line of their sum. */
export function mergeLines(items: readonly LineQuantity[]): LineQuantity[] {
  const byId = new Map<number, number>();
  for (const item of items) byId.set(item.productId, (byId.get(item.productId) ?? 0) + item.quantity);
  // Sorted: concurrent checkouts lock rows in the same order (no deadlock on PostgreSQL).
  return [...byId].sort(([a], [b]) => a - b).map(([productId, q]) => ({ productId, quantity: q }));
}

export type PricedLine = { unitPriceCents: number; quantity: number };
export type OrderTotals = { subtotalCents: number; insuranceCents: number; discountCents: number; shippingCents: number; totalCents: number };

/**
 * Totals in cents, all computed here: subtotal, the "Remise contre signature" option (SPEC.md
 * section 9; `insuranceCents`, the orders column's name, decision 044), discount, delivery, total.
 */
export function computeOrderTotals(lines: PricedLine[], signatureSelected: boolean, discountCents = 0, shippingCents = 0): OrderTotals {
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const insuranceCents = signatureDeliveryChargeCents(subtotalCents, signatureSelected);
  const discount = Math.max(0, Math.min(discountCents, subtotalCents));
  return { subtotalCents, insuranceCents, discountCents: discount, shippingCents, totalCents: subtotalCents + insuranceCents - discount + shippingCents };
}

/** The field errors of a refused body, keyed by path ("items.0.quantity"), first message each. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "body";
    fieldErrors[key] ??= issue.message;
  }
  return fieldErrors;
}

/** The answers of POST /api/checkout, as the browser reads them. */
/** `orderId`: lets the tab that started the payment release it if the buyer comes back without paying (lib/pending-checkout). */
export type CheckoutSuccess = { url: string; orderNumber: string; orderId: string };
export type CheckoutFailure = {
  error: string;
  details?: string;
  code: "OUT_OF_STOCK" | "UNAVAILABLE" | "INVALID" | "DISCOUNT" | "MINIMUM" | "SHIPPING" | "RATE_LIMITED" | "PROVIDER" | "FORBIDDEN" | "DUPLICATE" | "SIGNATURE_DELIVERY_OFF" | "BUSINESS" | "BUSINESS_OFF" | DropRefusal["code"];
  productId?: number;
  fieldErrors?: Record<string, string>;
};

/** The "victime de son succès" text of SPEC.md section 8, naming the product. */
export function outOfStockDetails(productName: string): string {
  return `« ${productName} » a été victime de son succès : les derniers exemplaires viennent d'être réservés par d'autres collectionneurs. Restez à l'affût, il pourrait revenir bientôt !`;
}

/** A product whose drop has not come yet: not "no longer" for sale, not yet (a script, a stale tab). */
export function notYetOnSaleDetails(productName: string, dropTime: Date): string {
  return `« ${productName} » n'est pas encore en vente\u00a0: mise en vente le ${formatParisMoment(dropTime)}. Il a été retiré de votre panier.`;
}

export function unavailableDetails(productName: string | null): string {
  return productName
    ? `« ${productName} » n'est plus disponible à la vente. Il a été retiré de votre panier.`
    : "Un article de votre panier n'est plus disponible à la vente. Il a été retiré de votre panier.";
}

