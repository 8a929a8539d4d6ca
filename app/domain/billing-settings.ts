import { z } from "zod";

const switchField = z
  .union([z.literal("on"), z.literal("")], { message: "Choix illisible." })
  .optional()
  .transform((value) => value === "on");

/**
 * The "Facturation" form of /admin/settings: the franchise en base (CGI art. 293 B) on or off, and
 * the option for the buyer's country's VAT on sales to other member states below the threshold
 * (art. 59c § 3 of Directive 2006/112; docs/decisions/046).
 */
export const billingSettingsSchema = z.object({ vatFranchise: switchField, ossOptIn: switchField });

/**
 * The "Ventes aux professionnels" form of /admin/settings (issue 53, docs/decisions/050): selling
 * to professionals, and the intra-EU exemption of their purchases from another member state
 * (CGI art. 262 ter I, docs/decisions/054).
 */
export const businessSalesSettingsSchema = z.object({ sellToBusinesses: switchField, intraEuExemption: switchField });
