import { z } from "zod";
import { billingFormShape, checkBillingForm } from "./billing-address";
import { formatEuros } from "./money";
import type { ShippingAddress } from "./order-view";
import { SHIPPING_COUNTRY_CODES } from "./shipping-countries";
import { hasForbiddenCharacters } from "./text-rules";

/**
 * The built-in test payment page's form (routes/payment-test.tsx), checked by the same schema in
 * the browser and on the server. Like Stripe's test mode, only test cards are taken:
 * 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is refused.
 */
export const TEST_CARDS = { success: "4242424242424242", declined: "4000000000000002" } as const;

/** Address lines go into the seller's pages and the e-mails: no control character or bidi override, as names. */
const FORBIDDEN = "Ce champ contient des caractères non autorisés.";
const line = (max = 120) => z.string().trim().max(max, "Texte trop long.").refine((value) => !hasForbiddenCharacters(value), FORBIDDEN);
const text = (min: number, message: string, max = 120) => line(max).pipe(z.string().min(min, message));

/** The delivery of the order being paid, chosen and priced in the cart. */
export type PaymentDelivery = { kind: "home" | "relay" | "letter"; country: string; relayPoint: ShippingAddress | null };

/**
 * The form for the order's delivery: a relay point's address was given in the cart, so only the
 * recipient's name and phone are asked; otherwise the address, in the country the delivery was
 * priced for. Then the billing address (billing-address.ts): the delivery's by default for a home
 * delivery, always asked for a relay point and for an "Achat professionnel" (in the company's country).
 */
export function testPaymentSchema(options: { needsEmail: boolean; now?: Date; delivery: PaymentDelivery; businessCountry?: string | null }) {
  const relay = options.delivery.kind === "relay";
  const optional = <T extends z.ZodType>(schema: T) => (relay ? schema.optional() : schema);
  return z
    .object({
      email: options.needsEmail
        ? z.string().trim().max(254, "Adresse e-mail trop longue.").pipe(z.email({ message: "Merci d'entrer une adresse email valide" }))
        : z.string().optional(),
      fullName: text(2, "Le nom doit contenir au moins 2 caractères"),
      line1: optional(text(3, "L'adresse est obligatoire")),
      line2: line().optional(),
      postalCode: optional(z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,9}$/, "Code postal invalide")),
      city: optional(text(2, "La ville est obligatoire", 80)),
      country: optional(z.enum(SHIPPING_COUNTRY_CODES, { message: "Choisissez un pays de livraison" })),
      phone: z.string().trim().regex(/^\+?[0-9 .()-]{10,20}$/, "Merci d'entrer un numéro de téléphone valide"),
      cardNumber: z
        .string()
        .transform((v) => v.replace(/[\s-]/g, ""))
        .pipe(z.string().regex(/^\d{16}$/, "Numéro de carte invalide")),
      // A phone's number pad has no "/": "1230" reads as 12/30, as card forms do.
      cardExpiry: z
        .string()
        .trim()
        .regex(/^(0[1-9]|1[0-2])\s*\/?\s*\d{2}$/, "Date d'expiration invalide (MM/AA)"),
      cardCvc: z.string().trim().regex(/^\d{3,4}$/, "Cryptogramme invalide"),
      ...billingFormShape,
    })
    .superRefine((value, ctx) => {
      checkBillingForm(value, ctx, relay, options.businessCountry ?? null);
      if (!relay && value.country !== options.delivery.country) {
        ctx.addIssue({ code: "custom", path: ["country"], message: "Ce pays n'est pas celui de la livraison choisie dans le panier" });
      }
      if (!relay && value.country === "FR" && !/^\d{5}$/.test(value.postalCode ?? "")) {
        ctx.addIssue({ code: "custom", path: ["postalCode"], message: "Code postal invalide (5 chiffres)" });
      }
      const digits = value.cardExpiry.replace(/\D/g, "");
      const [month, year] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
      const now = options.now ?? new Date();
      const expiresEnd = new Date(Date.UTC(2000 + year!, month!, 1));
      if (expiresEnd <= now) ctx.addIssue({ code: "custom", path: ["cardExpiry"], message: "Cette carte a expiré" });
    });
}

export type TestPaymentForm = z.infer<ReturnType<typeof testPaymentSchema>>;

/** Where the parcel goes: the relay point chosen in the cart, or the address typed here. */
export function shippingAddressOf(form: TestPaymentForm, delivery: PaymentDelivery): ShippingAddress {
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
 * The order button (Code de la consommation L221-14): it must say plainly that ordering means
 * paying, with the legal wording "commande avec obligation de paiement", and the amount.
 */
export function payButtonLabel(totalCents: number): string {
  return `Payer ${formatEuros(totalCents)} – commande avec obligation de paiement`;
}

export type CardOutcome = "paid" | "declined" | "unknown";

export function testCardOutcome(cardNumber: string): CardOutcome {
  if (cardNumber === TEST_CARDS.success) return "paid";
  if (cardNumber === TEST_CARDS.declined) return "declined";
  return "unknown";
}
