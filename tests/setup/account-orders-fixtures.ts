// Prepares a data directory for the account orders end-to-end spec before its server starts
// (PGlite opens a data directory in one process only): a confirmed customer's eleven paid
// orders made by the real checkout and the payment webhook path, one shipped, one refunded in
// part through the test provider with its credit note.
// Usage: node --import tsx tests/setup/account-orders-fixtures.ts DIR
import { randomUUID } from "node:crypto";
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { eq } from "drizzle-orm";
import { orders, products } from "~/db/schema";
import { productSearchColumns } from "~/domain/search";
import { getAdminOrder, shipOrder } from "~/services/admin-orders.server";
import { startCheckout } from "~/services/checkout.server";
import { refundPartOfOrder } from "~/services/partial-refunds.server";
import { activeShippingMethods } from "~/services/shipping.server";
import { handlePaymentEvent } from "~/services/payment-webhooks.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import { getOrderBySessionId } from "~/services/orders.server";
import { createUserWithPassword } from "~/services/users.server";
import { ACCOUNT_ORDERS_FIXTURES as F } from "./account-orders-fixtures-data";

const dir = process.argv[2];
if (!dir) throw new Error("usage: account-orders-fixtures.ts DATA_DIR");
const database = await openDatabase({ kind: "pglite", dataDir: path.resolve(dir) });
try {
  const { db } = database;
  const description = "Produit de test de l'historique des commandes.";
  const [display, coffret] = await db
    .insert(products)
    .values(
      [F.display, F.coffret].map((product) => ({ ...product, description, category: "TCG" as const, subCategory: "Scellés", ...productSearchColumns({ title: product.title, description, series: null }) })),
    )
    .returning({ id: products.id });
  const customer = await createUserWithPassword(db, { ...F.customer, role: "user", emailVerified: true });
  const seller = await createUserWithPassword(db, { name: "Vendeur Fixture", email: "vendeur-historique@comptoir.test", password: "vendeur-historique-mot-de-passe", role: "admin", emailVerified: true });
  // Its sessions are never shown: the orders go straight to the webhook path.
  const provider = createTestProvider({ db, secret: "account-orders-fixtures" });
  const home = (await activeShippingMethods(db)).find((method) => method.kind === "home");
  if (!home) throw new Error("no home delivery method seeded");
  const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "http://127.0.0.1" }, sellerEmail: "vendeur@comptoir.example" };
  const numbers: string[] = [];
  for (let index = 0; index < F.orderCount; index++) {
    // Oldest first, a minute apart: the first is the coffret alone, the refunded one holds two displays.
    const newestRank = F.orderCount - 1 - index;
    const items = index === 0 ? [{ productId: coffret!.id, quantity: 1 }] : [{ productId: display!.id, quantity: newestRank === F.refunded.index ? F.refunded.quantity : 1 }];
    const started = await startCheckout(db, provider, { items, insuranceSelected: false, delivery: { methodId: home.id, country: "FR" } }, {
      now: new Date(Date.now() - (F.orderCount - index) * 60_000),
      customer: { id: customer.id, email: F.customer.email },
      clientIp: `198.51.100.${index + 1}`,
      orderPrefix: "CPT",
      origin: "http://127.0.0.1",
      reservationMinutes: 30,
    });
    if (started.status !== 200) throw new Error(`checkout refused: ${JSON.stringify(started.body)}`);
    const sessionId = new URL(started.body.url).pathname.split("/").pop()!;
    const [placed] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.number, started.body.orderNumber));
    const outcome = await handlePaymentEvent(
      db,
      provider,
      {
        id: `evt_history_${index}`,
        type: "session.completed",
        sessionId,
        paid: true,
        paymentReference: `pi_history_${index}`,
        customerEmail: F.customer.email,
        customerName: F.customer.name,
        shippingAddress: { method: "home", fullName: F.customer.name, line1: "5 rue des Collectionneurs", postalCode: "31000", city: "Toulouse", country: "FR" },
        amountTotalCents: placed!.totalCents,
      },
      deps,
    );
    const paid = await getOrderBySessionId(db, sessionId);
    if (outcome !== "paid" || !paid) throw new Error(`order ${index} not paid: ${outcome}`);
    numbers.unshift(paid.number);
  }
  const shipped = await shipOrder(db, numbers[F.shipped.index]!, { carrier: "colissimo", trackingNumber: F.shipped.trackingNumber }, seller.id, deps);
  if (!shipped.ok) throw new Error(`not shipped: ${shipped.message}`);
  const toRefund = (await getAdminOrder(db, numbers[F.refunded.index]!))!;
  const refunded = await refundPartOfOrder(
    db,
    provider,
    { orderId: toRefund.order.id, requestKey: randomUUID(), request: { lines: [{ orderItemId: toRefund.refundable.lines[0]!.id, quantity: 1, restock: true }], shippingCents: 0, insuranceCents: 0, adjustment: null }, actorId: seller.id },
    deps,
  );
  if (!refunded.ok || refunded.refund.amountCents !== F.refunded.refundedCents || !refunded.refund.creditNoteNumber) throw new Error(`not refunded as expected: ${JSON.stringify(refunded)}`);
} finally {
  await database.close();
}
