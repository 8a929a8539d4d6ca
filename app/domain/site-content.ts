import { z } from "zod";

/** Hero banner of the home page (SPEC.md section 3), edited from the admin promotions page. */
export const heroBannerSchema = z.object({
  isActive: z.boolean().default(true),
  message: z.string().default("10 € offerts sur votre premier achat en live"),
  promoCode: z.string().default("COMPTOIR10"),
  showPromoVersion: z.number().int().default(1),
});
export type HeroBanner = z.infer<typeof heroBannerSchema>;

/** Stored values are merged over defaults; anything unreadable falls back to the defaults. */
export function parseHeroBanner(stored: unknown): HeroBanner {
  const result = heroBannerSchema.safeParse(stored ?? {});
  return result.success ? result.data : heroBannerSchema.parse({});
}
