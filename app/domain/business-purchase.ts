import { z } from "zod";
import { type BusinessBuyer, businessBuyerSchema } from "./business-buyer";
import { SHIPPING_COUNTRY_CODES } from "./shipping-countries";

/** A professional buyer as the order stores it (orders.business_buyer): the company and its billing country. */
export type BusinessPurchase = BusinessBuyer & { country: string };

export const BUSINESS_COUNTRY_MESSAGE = "Choisissez le pays de facturation de l'entreprise";

/**
 * The cart's "Achat professionnel" (issue 53), in the browser and in POST /api/checkout: the
 * company (business-buyer.ts's rules) and its billing country, which decides whether a SIREN is
 * required; the payment page then asks the billing address in that country (docs/decisions/050).
 */
export const businessPurchaseSchema = z
  .object({
    companyName: z.string({ message: "Indiquez la raison sociale de l'entreprise." }),
    siren: z.string({ message: "Numéro SIREN illisible." }),
    vatNumber: z.string({ message: "Numéro de TVA illisible." }),
    country: z.enum(SHIPPING_COUNTRY_CODES, { message: BUSINESS_COUNTRY_MESSAGE }),
  })
  .transform((values, ctx): BusinessPurchase => {
    const company = businessBuyerSchema(() => values.country).safeParse(values);
    if (!company.success) {
      for (const issue of company.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return { ...company.data, country: values.country };
  });

/** The form's fields, as the cart keeps them while the buyer types. */
export type BusinessPurchaseInput = { companyName: string; siren: string; vatNumber: string; country: string };
