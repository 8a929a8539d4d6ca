import { parseProductParam } from "~/domain/product-url";
import { publicPageHeaders } from "~/lib/http";
import { listSimilarProducts } from "~/services/catalog.server";
import type { Route } from "./+types/api.similar-products";

/** GET /api/products/{id}/similar: up to 4 products like this one (the product page loads it when seen). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseProductParam(params.id);
  const products = id === null ? [] : await listSimilarProducts(context.db, id, { now: new Date(), imageBaseUrl: context.storage.publicBaseUrl });
  return Response.json({ products }, { headers: publicPageHeaders() });
}

export { readOnlyAction as action } from "~/lib/http";
