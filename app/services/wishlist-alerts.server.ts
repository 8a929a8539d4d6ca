import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { orderItems, orders, productDrops, products, stockAlerts, users, wishlistItems } from "~/db/schema";
import { rowsOf } from "~/db/query-rows";
import type { Db, Tx } from "~/db/types";
import { alertAvailableEmail, wishlistAlertNote, wishlistPriceEmail } from "~/domain/alert-emails";
import type { MailShop } from "~/domain/email-templates";
import { productPath } from "~/domain/product-url";
import { type WishlistAlertKind, wishlistAlertStep } from "~/domain/wishlist-alerts";
import { absoluteUrl } from "~/lib/seo";
import { HOLDING, sinceCurrentOpening } from "./drop-limits.server";
import { queueOptionalEmail } from "./email-choices.server";

/**
 * The wish list's alerts (issue 56, point 3; decision 067): back in stock, a drop's opening, the
 * price at or under the customer's figure, each sent once per event. Sent by the « Prévenez-moi »
 * job (stock-alerts.server.ts startAlertJob: every 15 s and soon after a product changes), the
 * same way: the items are taken with SKIP LOCKED and their state written in the transaction that
 * queues their e-mails, so instances sending together never send one twice; the e-mail goes
 * through queueOptionalEmail ("stock-alerts"): an address that switched alerts off gets nothing.
 */

type Deps = { db: Db; shop: MailShop; secret: string };

const BATCH = 100;

/** The wish list's page, where the customer chooses each item's alerts. */
export const WISHLIST_PATH = "/account/liste";

const onSale = (now: Date) =>
  and(isNull(products.archivedAt), sql`${products.stock} > 0`, or(eq(products.status, "en_ligne"), and(eq(products.status, "a_venir"), lte(products.dropTime, now))));

/**
 * The items with something to handle, in SQL what domain/wishlist-alerts.ts decides on each:
 * a price gone back above the figure (re-arm), or the product on sale with a restock armed, an
 * opening not handled, or the price at or under a figure not handled.
 */
const candidate = (now: Date) =>
  or(
    and(isNotNull(wishlistItems.priceAlertedFigureCents), or(isNull(wishlistItems.priceBelowCents), sql`${products.priceCents} > ${wishlistItems.priceBelowCents}`)),
    and(
      onSale(now),
      or(
        eq(wishlistItems.restockArmed, true),
        sql`(${products.dropTime} <= ${now} and ${wishlistItems.createdAt} < ${products.dropTime} and ${wishlistItems.dropAlertedFor} is distinct from ${products.dropTime})`,
        sql`(${products.priceCents} <= ${wishlistItems.priceBelowCents} and ${wishlistItems.priceAlertedFigureCents} is distinct from ${wishlistItems.priceBelowCents})`,
      ),
    ),
  );

/** The customer's orders: their account's, or placed as a guest with its e-mail. */
const theirs = sql`(${orders.userId} = ${wishlistItems.userId} or lower(trim(${orders.customerEmail})) = lower(${users.email}))`;

/**
 * Bought since it was put on the list: a paid (or shipped) order of theirs holds it. "Stop when
 * bought" is decided here, when sending, rather than by a hook on payment: every way an order
 * becomes paid (webhook, return page, late payment) counts, and a refund gives the alerts back.
 */
const bought = sql<boolean>`exists (
  select 1 from ${orderItems} join ${orders} on ${orders.id} = ${orderItems.orderId}
  where ${orderItems.productId} = ${wishlistItems.productId} and ${inArray(orders.status, ["paid", "shipped"])}
    and ${theirs} and ${orders.paidAt} >= ${wishlistItems.createdAt})`;

/** A drop whose per-customer limit their orders of the current opening already reach (the checkout's count, drop-limits.server.ts). */
const limitReached = sql<boolean>`(${productDrops.perCustomerLimit} is not null and coalesce((
  select sum(${orderItems.quantity}) from ${orderItems} join ${orders} on ${orders.id} = ${orderItems.orderId}
  where ${orderItems.productId} = ${wishlistItems.productId} and ${inArray(orders.status, HOLDING)} and ${theirs} and ${sinceCurrentOpening}), 0) >= ${productDrops.perCustomerLimit})`;

/** One batch, in one transaction: the number of items handled and of e-mails queued. */
async function sendBatch(deps: Deps, now: Date): Promise<{ handled: number; changed: number; sent: number }> {
  return deps.db.transaction(async (tx) => {
    const due = await tx
      .select({
        item: wishlistItems,
        product: { id: products.id, title: products.title, status: products.status, stock: products.stock, archivedAt: products.archivedAt, dropTime: products.dropTime, priceCents: products.priceCents },
        email: users.email,
        verified: users.emailVerified,
        erasedAt: users.erasedAt,
        bought,
        limitReached,
      })
      .from(wishlistItems)
      .innerJoin(products, eq(products.id, wishlistItems.productId))
      .innerJoin(users, eq(users.id, wishlistItems.userId))
      .leftJoin(productDrops, eq(productDrops.productId, wishlistItems.productId))
      .where(candidate(now))
      .limit(BATCH)
      .for("update", { of: wishlistItems, skipLocked: true });
    let sent = 0;
    let changed = 0;
    for (const row of due) {
      const { kind, state } = wishlistAlertStep(row.item, { ...row.product, archived: row.product.archivedAt !== null }, now);
      // A customer who cannot buy it gets nothing, and the event is handled all the same: a
      // signed-in customer with a verified address asked for it (decision 067).
      const mayBuy = row.verified && row.erasedAt === null && !row.bought && !row.limitReached;
      const queued = kind && mayBuy ? await queueAlert(tx, deps, kind, row.email, row.product) : null;
      if (queued) sent += 1;
      const values = { ...state, ...(queued ? { alertedAt: now } : {}) };
      if (Object.keys(values).length === 0) continue;
      changed += 1;
      await tx
        .update(wishlistItems)
        .set(values)
        .where(and(eq(wishlistItems.userId, row.item.userId), eq(wishlistItems.productId, row.item.productId)));
    }
    return { handled: due.length, changed, sent };
  });
}

function queueAlert(tx: Tx, deps: Deps, kind: WishlistAlertKind, to: string, product: { id: number; title: string; priceCents: number }) {
  const productUrl = absoluteUrl(deps.shop.publicUrl, productPath({ id: product.id, name: product.title }));
  const listUrl = absoluteUrl(deps.shop.publicUrl, WISHLIST_PATH);
  return queueOptionalEmail(tx, deps, {
    to,
    kind: `wishlist-${kind}`,
    optional: "stock-alerts",
    content: (unsubscribeUrl) =>
      kind === "price"
        ? wishlistPriceEmail({ shop: deps.shop, product: product.title, priceCents: product.priceCents, productUrl, listUrl, unsubscribeUrl })
        : alertAvailableEmail({ shop: deps.shop, product: product.title, productUrl, unsubscribeUrl, why: wishlistAlertNote({ listUrl, unsubscribeUrl }) }),
  });
}

/**
 * Handles every item due at `now`, a batch (one transaction) at a time; returns the e-mails
 * queued. Every item taken has its state changed, so the batches end; one that changed nothing
 * would mean the SQL and the rule disagree, and stops the round rather than spin.
 */
export async function sendDueWishlistAlerts(deps: Deps, now = new Date()): Promise<number> {
  let sent = 0;
  for (;;) {
    const batch = await sendBatch(deps, now);
    sent += batch.sent;
    if (batch.handled < BATCH || batch.changed === 0) return sent;
  }
}

/**
 * How many customers wait for each of these products (the seller's demand, issue 56): those
 * who have it on their wish list and the confirmed « Prévenez-moi » alerts still waiting, each
 * address counted once. One grouped query for a page of products.
 */
export async function waitingCounts(db: Db, productIds: number[]): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db.execute(sql`
    select product_id as "productId", count(distinct email)::int as n from (
      select ${wishlistItems.productId} as product_id, lower(${users.email}) as email
      from ${wishlistItems} join ${users} on ${users.id} = ${wishlistItems.userId}
      where ${inArray(wishlistItems.productId, productIds)}
      union all
      select ${stockAlerts.productId}, lower(${stockAlerts.email})
      from ${stockAlerts} where ${inArray(stockAlerts.productId, productIds)} and ${eq(stockAlerts.status, "active")}
    ) waiting group by product_id`);
  return new Map(rowsOf<{ productId: number; n: number }>(rows).map((row) => [Number(row.productId), Number(row.n)]));
}
