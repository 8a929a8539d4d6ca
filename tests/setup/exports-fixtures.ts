// Prepares a data directory for the accounting exports end-to-end spec before its server starts
// (PGlite opens a data directory in one process only): the seller, a product and two orders made
// by the real checkout, paid through the provider's webhook path, the second one refunded.
// Usage: node --import tsx tests/setup/exports-fixtures.ts DIR
import path from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "~/db/client.server";
import { orders, products, users } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { cancelAndRefundOrder } from "~/services/admin-orders.server";
import { startCheckout } from "~/services/checkout.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import { ensureAdminAccount } from "~/services/seed.server";
import { activeShippingMethods } from "~/services/shipping.server";
import { getShopIdentity, saveShopIdentity } from "~/services/shop-identity.server";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { EXPORTS_FIXTURES as F } from "./exports-fixtures-data";

const dir = process.argv[2];
if (!dir) throw new Error("usage: exports-fixtures.ts DATA_DIR");
const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  const { db } = database;
  await ensureAdminAccount(db, F.admin);
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, F.admin.email));
  const description = "Produit de test des exports comptables.";
  const [product] = await db
    .insert(products)
    .values({ ...F.product, description, category: "Accessoires", ...productSearchColumns({ title: F.product.title, description, series: null }) })
    .returning({ id: products.id });
  const provider = createTestProvider({ db, secret: "exports-fixtures" });
  const relay = (await activeShippingMethods(db)).find((method) => method.kind === "relay");
  if (!relay) throw new Error("no relay delivery method seeded");
  const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "http://127.0.0.1" }, sellerEmail: "vendeur@comptoir.example" };
  for (const [index, order] of F.orders.entries()) {
    const started = await startCheckout(
      db,
      provider,
      { items: [{ productId: product!.id, quantity: order.quantity }], insuranceSelected: false, delivery: { methodId: relay.id, country: "FR", relayPoint: F.relayPoint } },
      { now: new Date(), customer: null, clientIp: "127.0.0.1", orderPrefix: "CPT", origin: "http://127.0.0.1", reservationMinutes: 30 },
    );
    if (started.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(started.body)}`);
    const sessionId = new URL(started.body.url).pathname.split("/").pop()!;
    const outcome = await handlePaymentEvent(
      db,
      provider,
      {
        id: `evt_exports_${index}`,
        type: "session.completed",
        sessionId,
        paid: true,
        paymentReference: `pi_test_exports_${index}`,
        customerEmail: "client-exports@example.com",
        customerName: order.customer,
        shippingAddress: { method: "relay", fullName: order.customer, relayPointName: F.relayPoint.name, relayPointId: F.relayPoint.id, line1: F.relayPoint.line1, postalCode: F.relayPoint.postalCode, city: F.relayPoint.city, country: "FR", phone: "06 12 34 56 78" },
        amountTotalCents: order.totalCents,
      },
      deps,
    );
    const [paid] = await db.select().from(orders).where(eq(orders.providerSessionId, sessionId));
    const vatCents = paid?.vatBreakdown.reduce((sum, row) => sum + row.vatCents, 0);
    if (outcome !== "paid" || paid?.totalCents !== order.totalCents || vatCents !== order.vatCents) throw new Error(`order ${index} not paid as expected: ${outcome}, ${paid?.totalCents}, VAT ${vatCents}`);
    if (order.refunded) {
      const refund = await cancelAndRefundOrder(db, provider, paid.number, admin!.id, deps);
      if (!refund.ok) throw new Error(`order ${index} not refunded: ${refund.message}`);
    }
  }
  // The shop's SIREN, which names the FEC (docs/decisions/052): given after the orders, as a seller completing the settings.
  const { identity } = await getShopIdentity(db, EMPTY_IDENTITY);
  await saveShopIdentity(db, { ...identity, siren: F.siren });
} finally {
  await database.close();
}
