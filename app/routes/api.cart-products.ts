import { getCartProducts } from "~/services/cart.server";
import type { Route } from "./+types/api.cart-products";

/**
 * GET /api/cart/products?ids=3,7,12: the cart's products as they are now (price, stock,
 * visibility), for the cart refresh. Never cached: stock changes by the second during a drop.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("ids") ?? "";
  const ids = raw.split(",").slice(0, 100).map((part) => Number(part.trim()));
  const products = await getCartProducts(context.db, ids, { now: new Date(), imageBaseUrl: context.storage.publicBaseUrl });
  return Response.json({ products }, { headers: { "Cache-Control": "no-store" } });
}

export { readOnlyAction as action } from "~/lib/http";
