// Prepares a data directory for the admin orders end-to-end spec before its server starts
// (PGlite opens a data directory in one process only): a product, a confirmed customer and two
// orders of theirs, made by the real checkout and paid through the provider's webhook path.
// Usage: node --import tsx tests/setup/admin-orders-fixtures.ts DIR
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { startCheckout } from "~/services/checkout.server";
import { activeShippingMethods } from "~/services/shipping.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import { getOrderBySessionId } from "~/services/orders.server";
import { createUserWithPassword } from "~/services/users.server";
import { ADMIN_ORDERS_FIXTURES as F } from "./admin-orders-fixtures-data";

const dir = process.argv[2];
if (!dir) throw new Error("usage: admin-orders-fixtures.ts DATA_DIR");
const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  const { db } = database;
  const description = "Produit de test des commandes.";
  const [product] = await db
    .insert(products)
    .values({ ...F.product, description, category: "Accessoires", ...productSearchColumns({ title: F.product.title, description, series: null }) })
    .returning({ id: products.id });
  const customer = await createUserWithPassword(db, { ...F.customer, role: "user", emailVerified: true });
  // Its sessions are never shown: the orders go straight to the webhook path.
  const provider = createTestProvider({ db, secret: "admin-orders-fixtures" });
  const relay = (await activeShippingMethods(db)).find((method) => method.kind === "relay");
  if (!relay) throw new Error("no relay delivery method seeded");
  const delivery = { methodId: relay.id, country: "FR", relayPoint: F.relayPoint };
  const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "http://127.0.0.1" }, sellerEmail: "vendeur@comptoir.example" };
  for (const [index, order] of F.orders.entries()) {
    const started = await startCheckout(db, provider, { items: [{ productId: product!.id, quantity: order.quantity }], insuranceSelected: order.insuranceSelected, delivery }, {
      // A minute apart, the first one older.
      now: new Date(Date.now() - (F.orders.length - index) * 60_000),
      customer: { id: customer.id, email: F.customer.email },
      clientIp: "127.0.0.1",
      orderPrefix: "CPT",
      origin: "http://127.0.0.1",
      reservationMinutes: 30,
    });
    if (started.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(started.body)}`);
    const sessionId = new URL(started.body.url).pathname.split("/").pop()!;
    const outcome = await handlePaymentEvent(db, provider, {
      id: `evt_fixture_${index}`,
      type: "session.completed",
      sessionId,
      paid: true,
      paymentReference: `pi_test_fixture_${index}`,
      customerEmail: F.customer.email,
      customerName: F.customer.name,
      shippingAddress: {
        method: "relay",
        fullName: F.customer.name,
        relayPointName: F.relayPoint.name,
        relayPointId: F.relayPoint.id,
        line1: F.relayPoint.line1,
        postalCode: F.relayPoint.postalCode,
        city: F.relayPoint.city,
        country: "FR",
        phone: "06 12 34 56 78",
      },
      amountTotalCents: order.totalCents,
    }, deps);
    const paid = await getOrderBySessionId(db, sessionId);
    if (outcome !== "paid" || paid?.totalCents !== order.totalCents || paid.shipping?.cents !== order.shippingCents) {
      throw new Error(`order ${index} not paid as expected: ${outcome}, ${paid?.totalCents} (delivery ${paid?.shipping?.cents})`);
    }
  }
} finally {
  await database.close();
}
