import { z } from "zod";
import { MAIN_CATEGORIES, type MainCategory } from "./catalog-values";
import { parseEurosToCents } from "./money";

/**
 * What each bought line becomes at completion (issue 54, point 3): a new second-hand product,
 * units added to an existing product, or nothing (kept out of the shop's stock).
 */
export type StockChoice =
  | { mode: "new"; title: string; category: MainCategory; priceCents: number; publish: boolean }
  | { mode: "existing"; productId: number }
  | { mode: "skip" };

export const STOCK_MODES = ["new", "existing", "skip"] as const;

const PRICE_INVALID = "Indiquez le prix de vente en euros, par exemple 12,50";

const choiceSchema = z.discriminatedUnion("mode", [
  z.object({
    mode: z.literal("new"),
    title: z.string().trim().min(2, "Donnez un titre au produit (au moins 2 caractères)").max(120, "Le titre doit contenir au plus 120 caractères"),
    category: z.enum(MAIN_CATEGORIES, { error: "Choisissez une catégorie" }),
    price: z.string().trim().transform((value, ctx) => {
      const cents = parseEurosToCents(value);
      if (cents === null || cents < 1) {
        ctx.addIssue({ code: "custom", message: PRICE_INVALID });
        return z.NEVER;
      }
      return cents;
    }),
    publish: z.enum(["on", ""]).default("").transform((value) => value === "on"),
  }),
  z.object({ mode: z.literal("existing"), productId: z.coerce.number({ error: "Choisissez le produit" }).int("Choisissez le produit").positive("Choisissez le produit") }),
  z.object({ mode: z.literal("skip") }),
]);

/** The completion form's fields (`stock.0.mode`, `stock.0.title`…), one choice per line, errors under the same names. */
export function readStockChoices(fields: Record<string, unknown>, lineCount: number): { ok: true; choices: StockChoice[] } | { ok: false; fieldErrors: Record<string, string> } {
  const choices: StockChoice[] = [];
  const errors: Record<string, string> = {};
  for (let i = 0; i < lineCount; i++) {
    const field = (name: string) => fields[`stock.${i}.${name}`];
    const parsed = choiceSchema.safeParse({
      mode: field("mode"),
      title: field("title") ?? "",
      category: field("category"),
      price: field("price") ?? "",
      publish: field("publish") ?? "",
      productId: field("productId") ?? "",
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors[`stock.${i}.${String(issue.path[0] ?? "mode")}`] ??= issue.path[0] === "mode" ? "Choisissez ce que devient cette ligne" : issue.message;
      continue;
    }
    const choice = parsed.data;
    choices.push(choice.mode === "new" ? { mode: "new", title: choice.title, category: choice.category, priceCents: choice.price, publish: choice.publish } : choice);
  }
  return Object.keys(errors).length > 0 ? { ok: false, fieldErrors: errors } : { ok: true, choices };
}
