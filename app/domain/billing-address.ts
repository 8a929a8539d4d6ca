import { z } from "zod";
import type { BillingAddress, ShippingAddress } from "./order-view";
import { SHIPPING_COUNTRY_CODES } from "./shipping-countries";
import { hasForbiddenCharacters } from "./text-rules";

/**
 * The billing address (« Facturé à », CGI annexe II art. 242 nonies A: the buyer's address on the
 * invoice). The payment page asks it beside the delivery: the same as the delivery address by
 * default for a home delivery (« Adresse de facturation identique »), always typed for a relay
 * point, which is never the buyer's address. One schema, in the browser and on the server.
 */

const FORBIDDEN = "Ce champ contient des caractères non autorisés.";
const line = (max = 120) => z.string().trim().max(max, "Texte trop long.").refine((value) => !hasForbiddenCharacters(value), FORBIDDEN);
const text = (min: number, message: string, max = 120) => line(max).pipe(z.string().min(min, message));

export const billingAddressSchema = z
  .object({
    fullName: text(2, "Le nom de facturation doit contenir au moins 2 caractères"),
    line1: text(3, "L'adresse de facturation est obligatoire"),
    line2: line().optional(),
    postalCode: z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,9}$/, "Code postal de facturation invalide"),
    city: text(2, "La ville de facturation est obligatoire", 80),
    country: z.enum(SHIPPING_COUNTRY_CODES, { message: "Choisissez le pays de facturation" }),
  })
  .superRefine((value, ctx) => {
    if (value.country === "FR" && !/^\d{5}$/.test(value.postalCode)) {
      ctx.addIssue({ code: "custom", path: ["postalCode"], message: "Code postal de facturation invalide (5 chiffres)" });
    }
  });

/** The form's field for each part of the billing address (flat, as a form posts them). */
export const BILLING_FIELDS = {
  fullName: "billingFullName",
  line1: "billingLine1",
  line2: "billingLine2",
  postalCode: "billingPostalCode",
  city: "billingCity",
  country: "billingCountry",
} as const;

/** The checkbox « Adresse de facturation identique » (a checkbox posts "on" when ticked). */
export const BILLING_SAME_FIELD = "billingSame";

/** The fields a payment form adds to its schema's object (all optional: which are needed depends on the box). */
export const billingFormShape = {
  [BILLING_SAME_FIELD]: z.string().optional(),
  [BILLING_FIELDS.fullName]: z.string().optional(),
  [BILLING_FIELDS.line1]: z.string().optional(),
  [BILLING_FIELDS.line2]: z.string().optional(),
  [BILLING_FIELDS.postalCode]: z.string().optional(),
  [BILLING_FIELDS.city]: z.string().optional(),
  [BILLING_FIELDS.country]: z.string().optional(),
};

export type BillingFormValues = { [K in keyof typeof billingFormShape]?: string | undefined };

/**
 * Whether the form asks the billing address: always for a relay point and for an "Achat
 * professionnel" (`forced`: the company's address, never assumed), else when the box is unticked.
 */
export function billingAsked(values: BillingFormValues, forced: boolean): boolean {
  return forced || values[BILLING_SAME_FIELD] !== "on";
}

function billingInput(values: BillingFormValues) {
  const line2 = values[BILLING_FIELDS.line2];
  // A field left out (a script, an old page) is an empty one: its French message, not zod's.
  return {
    fullName: values[BILLING_FIELDS.fullName] ?? "",
    line1: values[BILLING_FIELDS.line1] ?? "",
    ...(line2 && line2.trim() ? { line2 } : {}),
    postalCode: values[BILLING_FIELDS.postalCode] ?? "",
    city: values[BILLING_FIELDS.city] ?? "",
    country: values[BILLING_FIELDS.country] ?? "",
  };
}

export const BUSINESS_BILLING_COUNTRY_MESSAGE = "Le pays de facturation est celui de l'entreprise indiqué dans le panier : pour un autre pays, changez-le dans votre panier.";

/**
 * In the form schema's superRefine: the billing address's errors, each on its field. For an
 * "Achat professionnel", the address must be in the company's country given in the cart (it
 * decided whether a SIREN was required).
 */
export function checkBillingForm(values: BillingFormValues, ctx: z.RefinementCtx, relay: boolean, businessCountry: string | null = null): void {
  if (!billingAsked(values, relay || businessCountry !== null)) return;
  const result = billingAddressSchema.safeParse(billingInput(values));
  if (result.success) {
    if (businessCountry !== null && result.data.country !== businessCountry) {
      ctx.addIssue({ code: "custom", path: [BILLING_FIELDS.country], message: BUSINESS_BILLING_COUNTRY_MESSAGE });
    }
    return;
  }
  for (const issue of result.error.issues) {
    const part = issue.path[0] as keyof typeof BILLING_FIELDS | undefined;
    ctx.addIssue({ code: "custom", path: [part ? BILLING_FIELDS[part] : BILLING_FIELDS.line1], message: issue.message });
  }
}

/**
 * The billing address of a form the schema accepted: the delivery address's name, lines, postcode,
 * city and country when the box is ticked for a home delivery (never for a company), else the address typed.
 */
export function billingAddressOf(values: BillingFormValues, shipping: ShippingAddress, business = false): BillingAddress {
  if (shipping.method !== "relay" && !billingAsked(values, business)) {
    return {
      fullName: shipping.fullName,
      line1: shipping.line1,
      ...(shipping.line2 ? { line2: shipping.line2 } : {}),
      postalCode: shipping.postalCode,
      city: shipping.city,
      country: shipping.country,
    };
  }
  const parsed = billingAddressSchema.parse(billingInput(values));
  return {
    fullName: parsed.fullName,
    line1: parsed.line1,
    ...(parsed.line2 ? { line2: parsed.line2 } : {}),
    postalCode: parsed.postalCode.toUpperCase(),
    city: parsed.city,
    country: parsed.country,
  };
}
