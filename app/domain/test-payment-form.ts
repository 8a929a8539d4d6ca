import { z } from "zod";
import { billingFormShape, checkBillingForm } from "./billing-address";
import { formatEuros } from "./money";
import { checkDeliveryAddress, deliveryAddressShape, type PaymentDelivery } from "./delivery-address-form";

/**
 * The built-in test payment page's form (routes/payment-test.tsx), checked by the same schema in
 * the browser and on the server. Like Stripe's test mode, only test cards are taken:
 * 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is refused.
 */
export const TEST_CARDS = { success: "4242424242424242", declined: "4000000000000002" } as const;

/**
 * The form for the order's delivery: a relay point's address was given in the cart, so only the
 * recipient's name and phone are asked; otherwise the address, in the country the delivery was
 * priced for. Then the billing address (billing-address.ts): the delivery's by default for a home
 * delivery, always asked for a relay point and for an "Achat professionnel" (in the company's country).
 */
export function testPaymentSchema(options: { needsEmail: boolean; now?: Date; delivery: PaymentDelivery; businessCountry?: string | null }) {
  return z
    .object({
      email: options.needsEmail
        ? z.string().trim().max(254, "Adresse e-mail trop longue.").pipe(z.email({ message: "Merci d'entrer une adresse email valide" }))
        : z.string().optional(),
      ...deliveryAddressShape(options.delivery),
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
      checkBillingForm(value, ctx, options.delivery.kind === "relay", options.businessCountry ?? null);
      checkDeliveryAddress(value, ctx, options.delivery);
      const digits = value.cardExpiry.replace(/\D/g, "");
      const [month, year] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
      const now = options.now ?? new Date();
      const expiresEnd = new Date(Date.UTC(2000 + year!, month!, 1));
      if (expiresEnd <= now) ctx.addIssue({ code: "custom", path: ["cardExpiry"], message: "Cette carte a expiré" });
    });
}

export type TestPaymentForm = z.infer<ReturnType<typeof testPaymentSchema>>;

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
