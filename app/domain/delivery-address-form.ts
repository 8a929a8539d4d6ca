import { z } from "zod";
import { billingFormShape, checkBillingForm } from "./billing-address";
import { formatEuros } from "./money";
import type { ShippingAddress } from "./order-view";
import { SHIPPING_COUNTRY_CODES } from "./shipping-countries";
import { hasForbiddenCharacters } from "./text-rules";

/**
 * The delivery address a buyer gives for an order (recipient, address, phone), in the country the
 * delivery was priced for in the cart. Asked on the test payment page (test-payment-form.ts) and,
 * for a home delivery paid entirely by store credit, on the shop's own page
 * (routes/credit-delivery.tsx, docs/decisions/060): the same fields and messages, in the browser
 * and on the server.
 */

/** Address lines go into the seller's pages and the e-mails: no control character or bidi override, as names. */
const FORBIDDEN = "Ce champ contient des caractères non autorisés.";
// A field left out of the post (a script, an old page) says what an empty one says, not zod's English.
const addressLine = (max = 120, missing?: string) => z.string(missing ? { error: missing } : undefined).trim().max(max, "Texte trop long.").refine((value) => !hasForbiddenCharacters(value), FORBIDDEN);
const text = (min: number, message: string, max = 120) => addressLine(max, message).pipe(z.string().min(min, message));

/** The delivery of the order being paid, chosen and priced in the cart. */
export type PaymentDelivery = { kind: "home" | "relay" | "letter"; country: string; relayPoint: ShippingAddress | null };

/**
 * The delivery's fields: a relay point's address was given in the cart, so only the recipient's
 * name and phone are required then; otherwise the address too.
 */
export function deliveryAddressShape(delivery: PaymentDelivery) {
  const relay = delivery.kind === "relay";
  const optional = <T extends z.ZodType>(schema: T) => (relay ? schema.optional() : schema);
  return {
    fullName: text(2, "Le nom doit contenir au moins 2 caractères"),
    line1: optional(text(3, "L'adresse est obligatoire")),
    line2: addressLine().optional(),
    postalCode: optional(z.string({ error: "Code postal invalide" }).trim().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,9}$/, "Code postal invalide")),
    city: optional(text(2, "La ville est obligatoire", 80)),
    country: optional(z.enum(SHIPPING_COUNTRY_CODES, { message: "Choisissez un pays de livraison" })),
    phone: z.string({ error: "Merci d'entrer un numéro de téléphone valide" }).trim().regex(/^\+?[0-9 .()-]{10,20}$/, "Merci d'entrer un numéro de téléphone valide"),
  };
}

type DeliveryAddressValues = { country?: string | undefined; postalCode?: string | undefined };

/** In the form schema's superRefine: the address must be in the delivery's country, with a French postcode of 5 digits. */
export function checkDeliveryAddress(value: DeliveryAddressValues, ctx: z.RefinementCtx, delivery: PaymentDelivery): void {
  if (delivery.kind === "relay") return;
  if (value.country !== delivery.country) {
    ctx.addIssue({ code: "custom", path: ["country"], message: "Ce pays n'est pas celui de la livraison choisie dans le panier" });
  }
  if (value.country === "FR" && !/^\d{5}$/.test(value.postalCode ?? "")) {
    ctx.addIssue({ code: "custom", path: ["postalCode"], message: "Code postal invalide (5 chiffres)" });
  }
}

/**
 * The form of the page where a home delivery paid entirely by store credit gets its address: the
 * delivery's fields, then the billing address (the delivery's by default; the company's, in its
 * country, for an "Achat professionnel").
 */
export function creditDeliverySchema(options: { delivery: PaymentDelivery; businessCountry: string | null }) {
  return z
    .object({ ...deliveryAddressShape(options.delivery), ...billingFormShape })
    .superRefine((value, ctx) => {
      checkBillingForm(value, ctx, options.delivery.kind === "relay", options.businessCountry);
      checkDeliveryAddress(value, ctx, options.delivery);
    });
}

export type DeliveryAddressForm = { fullName: string; line1?: string | undefined; line2?: string | undefined; postalCode?: string | undefined; city?: string | undefined; country?: string | undefined; phone: string };

/** Where the parcel goes: the relay point chosen in the cart, or the address typed. */
export function shippingAddressOf(form: DeliveryAddressForm, delivery: PaymentDelivery): ShippingAddress {
  if (delivery.kind === "relay" && delivery.relayPoint) return { ...delivery.relayPoint, fullName: form.fullName, phone: form.phone };
  return {
    method: "home",
    fullName: form.fullName,
    line1: form.line1 ?? "",
    ...(form.line2 ? { line2: form.line2 } : {}),
    postalCode: (form.postalCode ?? "").toUpperCase(),
    city: form.city ?? "",
    country: form.country ?? delivery.country,
    phone: form.phone,
  };
}

/**
 * The order button of a home delivery paid by store credit (Code de la consommation L221-14):
 * pressing it orders, so it says so with the legal wording, the amount and the means.
 */
export function creditOrderButtonLabel(totalCents: number): string {
  return `Payer ${formatEuros(totalCents)} avec mon avoir – commande avec obligation de paiement`;
}

/** The page where a home delivery paid entirely by store credit gets its address (its owner's, under /account). */
export function creditDeliveryPath(orderNumber: string): string {
  return `/account/orders/${encodeURIComponent(orderNumber)}/livraison`;
}
