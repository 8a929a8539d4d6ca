import { z } from "zod";
import { ACCOUNT_ORDER_SEARCH_MAX, type AccountOrderQuery } from "./account-order-list";
import { parsePageNumber } from "./pagination";

/** `q` as the server reads it: trimmed, at most ACCOUNT_ORDER_SEARCH_MAX characters. */
export const accountOrderSearchSchema = z
  .string()
  .trim()
  .max(ACCOUNT_ORDER_SEARCH_MAX, `Votre recherche ne peut pas dépasser ${ACCOUNT_ORDER_SEARCH_MAX} caractères.`);

/** The list's state; a search too long gives its message and no search (the whole list shows under it). */
export function parseAccountOrderQuery(params: URLSearchParams): { query: AccountOrderQuery; error: string | null } {
  const page = parsePageNumber(params.get("page"));
  const parsed = accountOrderSearchSchema.safeParse(params.get("q") ?? "");
  if (!parsed.success) return { query: { q: "", page: 1 }, error: parsed.error.issues[0]!.message };
  return { query: { q: parsed.data, page }, error: null };
}
