import { asc, eq } from "drizzle-orm";
import { shippingMethods } from "~/db/schema";
import type { Db } from "~/db/types";
import type { ShippingMethodRule } from "~/domain/shipping";

const RULE_COLUMNS = {
  id: shippingMethods.id,
  name: shippingMethods.name,
  kind: shippingMethods.kind,
  countries: shippingMethods.countries,
  bands: shippingMethods.bands,
  freeFromCents: shippingMethods.freeFromCents,
  deliveryTime: shippingMethods.deliveryTime,
};

/** The methods a buyer may choose, in the seller's order (priced by domain/shipping.ts). */
export async function activeShippingMethods(db: Db): Promise<ShippingMethodRule[]> {
  return db.select(RULE_COLUMNS).from(shippingMethods).where(eq(shippingMethods.active, true)).orderBy(asc(shippingMethods.position), asc(shippingMethods.id));
}
