import { z } from "zod";

/** The "Facturation" form of /admin/settings: the franchise en base (CGI art. 293 B) on or off. */
export const billingSettingsSchema = z.object({
  vatFranchise: z
    .union([z.literal("on"), z.literal("")], { message: "Choix illisible." })
    .optional()
    .transform((value) => value === "on"),
});
