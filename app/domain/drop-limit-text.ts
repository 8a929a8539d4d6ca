/**
 * "Limité à 2 par client": the product page, the seller's page and every refusal say it the
 * same way. Apart from the seller's form (drop-form.ts): the product page would otherwise bring
 * zod to every page of the shop (see vite.config.ts, the shared chunks).
 */
export function limitText(limit: number): string {
  return `Limité à ${limit} par client`;
}
