import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { orderEvents, orderItems, orders, productPreorders, products } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { parisWallTime } from "~/domain/paris-time";
import { type PreorderDates, preorderLineNote } from "~/domain/preorder-dates";
import { preorderDateChangeEmail } from "~/domain/preorder-emails";
import type { RefundRequest } from "~/domain/partial-refund";
import { absoluteUrl } from "~/lib/seo";
import { deriveSecret } from "~/lib/secrets.server";
import { readToken, signToken } from "~/lib/signed-token.server";
import { queueEmail } from "./mail.server";
import { recordOrderEvent } from "./orders.server";
import { finishRefund, priorRefunds, recordPendingRefund } from "./partial-refunds.server";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";

/**
 * A pre-order's dates through the purchase and after it (issue 55, decision 062): what the cart,
 * the checkout and the order's documents say of the release and the « date de livraison
 * estimée »; the e-mail to every buyer when the seller moves them; and the buyer's cancellation
 * before the release (from the account, or the e-mail's signed link), refunded through the
 * partial refunds' machinery (credit note, provider refund with its key: once).
 */

/** The dates of the open pre-orders (release still to come, Paris day) among these products. */
export async function openPreorderDatesOf(db: Db | Tx, productIds: number[], now: Date): Promise<Map<number, PreorderDates>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: productPreorders.productId, releaseOn: productPreorders.releaseOn, estimatedDeliveryOn: productPreorders.estimatedDeliveryOn })
    .from(productPreorders)
    .where(and(inArray(productPreorders.productId, productIds), gt(productPreorders.releaseOn, parisWallTime(now).date)));
  return new Map(rows.map(({ productId, ...dates }) => [productId, dates]));
}

// ---------------------------------------------------------------------------------------------
// The cancellation link

/** The key of cancellation links, derived from the drop secret (one stored secret, one purpose each). */
export function preorderCancelSecret(dropSecret: string): string {
  return deriveSecret(dropSecret, "preorder-cancel");
}

type CancelLinkPayload = { o: string; e: number };

export function preorderCancelToken(secret: string, orderId: string, expiresAt: Date): string {
  return signToken({ o: orderId, e: expiresAt.getTime() } satisfies CancelLinkPayload, secret);
}

const FORGED_LINK = "Ce lien n'est pas valide : il a été modifié ou mal copié. Ouvrez le lien de notre e-mail tel quel, ou annulez depuis votre compte.";

export type CancelLinkRefusal = { ok: false; status: 403 | 410; message: string };

/** The order a cancellation link names, refused when forged (403) or expired (410). */
export function orderOfCancelLink(secret: string, token: string, now: Date): { ok: true; orderId: string } | CancelLinkRefusal {
  const payload = readToken(token, secret) as Partial<CancelLinkPayload> | null;
  if (typeof payload !== "object" || payload === null || typeof payload.o !== "string" || !Number.isSafeInteger(payload.e)) return { ok: false, status: 403, message: FORGED_LINK };
  if (now.getTime() > payload.e!) return { ok: false, status: 410, message: "Ce lien a expiré. Vous pouvez encore annuler votre précommande depuis votre compte, ou nous écrire." };
  return { ok: true, orderId: payload.o };
}

/** A link stays valid 30 days: a later change of date sends a new one. */
const CANCEL_LINK_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// The dates move

/**
 * The pre-orders of a product not ended: paid orders holding a pre-order line of it with units
 * not refunded, and not cancelled by their buyer.
 */
async function openPreorderOrdersOf(tx: Db | Tx, productId: number) {
  return tx
    .select({ orderId: orders.id, number: orders.number, email: orders.customerEmail, customerName: orders.customerName })
    .from(orders)
    .where(
      and(
        eq(orders.status, "paid"),
        sql`exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${orders.id} and ${orderItems.productId} = ${productId} and ${orderItems.preorder})`,
        sql`not exists (select 1 from ${orderEvents} where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.type} = 'preorder_cancelled')`,
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id));
}

export type DateChangeDeps = { shop: WebhookDeps["shop"]; secret: string };

/** savePreorder's `afterSave` that e-mails the buyers when the dates moved (a first save has nobody to tell). */
export function mailBuyersOnDateChange(deps: DateChangeDeps, now: Date) {
  return async (tx: Tx, before: PreorderRow | null, after: PreorderRow): Promise<void> => {
    if (before) await mailPreorderDateChange(tx, deps, { productId: after.productId, before, after }, now);
  };
}
type PreorderRow = PreorderDates & { productId: number };

/**
 * Called in the transaction that saves the pre-order's settings (preorders.server.ts savePreorder):
 * when its release or delivery date moved, every buyer whose pre-order is not ended gets one
 * e-mail with the new dates and a signed link to cancel at once. Returns how many were queued.
 */
export async function mailPreorderDateChange(
  tx: Tx,
  deps: DateChangeDeps,
  change: { productId: number; before: PreorderDates; after: PreorderDates },
  now: Date,
): Promise<number> {
  const { before, after } = change;
  if (before.releaseOn === after.releaseOn && before.estimatedDeliveryOn === after.estimatedDeliveryOn) return 0;
  const [product] = await tx.select({ title: products.title }).from(products).where(eq(products.id, change.productId));
  const linkExpiresAt = new Date(now.getTime() + CANCEL_LINK_DAYS * 24 * 60 * 60 * 1000);
  let queued = 0;
  for (const order of await openPreorderOrdersOf(tx, change.productId)) {
    if (!order.email) continue;
    const cancelUrl = absoluteUrl(deps.shop.publicUrl, `/precommande/annulation/${preorderCancelToken(deps.secret, order.orderId, linkExpiresAt)}`);
    const content = preorderDateChangeEmail({ shop: deps.shop, customerName: order.customerName, orderNumber: order.number, productName: product?.title ?? "", before, after, cancelUrl, linkExpiresAt });
    const { id } = await queueEmail(tx, { to: order.email, kind: "preorder-date-change", content });
    await recordOrderEvent(tx, { orderId: order.orderId, type: "email", details: { subject: content.subject, emailId: id }, at: now });
    queued += 1;
  }
  return queued;
}

// ---------------------------------------------------------------------------------------------
// The buyer cancels

export type CancelPreorderResult =
  | { ok: true; status: 200; outcome: "cancelled" | "already"; refundedCents: number; creditNoteNumber: string | null }
  | { ok: false; status: 404 | 409 | 502; message: string };

/** The key of a pre-order cancellation's refund: one per order, so that a second click is the same refund. */
const CANCEL_REQUEST_KEY = "preorder-cancel";

/** What can be cancelled of an order: its pre-order lines not refunded yet, while their release is still to come. */
export async function cancellablePreorderLines(db: Db | Tx, orderId: string, now: Date) {
  const items = await db
    .select({ id: orderItems.id, productId: orderItems.productId, quantity: orderItems.quantity, releaseOn: sql<string | null>`coalesce(${productPreorders.releaseOn}, ${orderItems.preorderReleaseOn})` })
    .from(orderItems)
    .leftJoin(productPreorders, eq(productPreorders.productId, orderItems.productId))
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.preorder, true)));
  const refunded = new Map<string, number>();
  for (const refund of await priorRefunds(db, orderId)) for (const line of refund.lines) refunded.set(line.orderItemId, (refunded.get(line.orderItemId) ?? 0) + line.quantity);
  const today = parisWallTime(now).date;
  return items
    .map((item) => ({ ...item, units: item.quantity - (refunded.get(item.id) ?? 0) }))
    .filter((item) => item.units > 0 && item.releaseOn !== null && item.releaseOn > today);
}

/**
 * The buyer cancels their pre-order before its release: its lines are refunded in full (the
 * delivery too when the order holds nothing else), their units go back to the pre-order's
 * quantity, and the refund goes through the partial refunds' machinery. In one transaction that
 * locks the order: the refund written pending, the units given back, the cancellation recorded;
 * then the money. Cancelling twice finds the cancellation and finishes its refund if needed.
 */
export async function cancelPreorder(db: Db, provider: PaymentProvider, input: { orderId: string; actorId: string | null }, deps: WebhookDeps): Promise<CancelPreorderResult> {
  const now = deps.now?.() ?? new Date();
  const decided = await db.transaction(async (tx): Promise<{ ok: true; refundId: string; first: boolean } | Extract<CancelPreorderResult, { ok: false }>> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return { ok: false, status: 404, message: "Commande introuvable." };
    const [earlier] = await priorRefunds(tx, order.id).then((refunds) => refunds.filter((refund) => refund.requestKey === CANCEL_REQUEST_KEY));
    if (earlier) return { ok: true, refundId: earlier.id, first: false };
    if (order.status !== "paid") return { ok: false, status: 409, message: "Cette commande ne peut plus être annulée ici : écrivez-nous." };
    const lines = await cancellablePreorderLines(tx, order.id, now);
    if (lines.length === 0) return { ok: false, status: 409, message: "Cette commande n'a plus de précommande à annuler : la date de sortie est passée, ou elle a déjà été remboursée." };
    const items = await tx.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.orderId, order.id));
    // Nothing else in the order: its delivery (and signature) will never happen, so it goes back too.
    const wholeOrder = items.length === lines.length;
    const prior = await priorRefunds(tx, order.id);
    const left = (total: number, taken: (refund: (typeof prior)[number]) => number) => total - prior.reduce((sum, refund) => sum + taken(refund), 0);
    const request: RefundRequest = {
      lines: lines.map((line) => ({ orderItemId: line.id, quantity: line.units, restock: false })),
      shippingCents: wholeOrder ? left(order.shippingCents, (refund) => refund.shippingCents) : 0,
      insuranceCents: wholeOrder ? left(order.insuranceCents, (refund) => refund.insuranceCents) : 0,
      adjustment: null,
    };
    const pending = await recordPendingRefund(tx as unknown as Db, order.id, CANCEL_REQUEST_KEY, request, input.actorId, now, ["paid"]);
    if (!pending.ok) return { ok: false, status: pending.status === 400 || pending.status === 404 ? 409 : pending.status, message: pending.message };
    // The units go back to the pre-order's quantity, not the shelf: others may pre-order them.
    for (const line of lines) {
      if (line.productId === null) continue;
      await tx
        .update(productPreorders)
        .set({ orderedUnits: sql`greatest(${productPreorders.orderedUnits} - ${line.units}, 0)`, updatedAt: now })
        .where(eq(productPreorders.productId, line.productId));
    }
    await recordOrderEvent(tx, { orderId: order.id, type: "preorder_cancelled", details: { units: lines.reduce((sum, line) => sum + line.units, 0), amountCents: pending.refund.amountCents }, actorId: input.actorId, at: now });
    return { ok: true, refundId: pending.refund.id, first: true };
  });
  if (!decided.ok) return decided;
  const refunded = await finishRefund(db, provider, decided.refundId, deps, { actorId: input.actorId });
  if (!refunded.ok) return { ok: false, status: 502, message: "Votre précommande est annulée, mais le remboursement n'a pas abouti : nous le relançons et vous écrivons dès qu'il est fait." };
  return { ok: true, status: 200, outcome: decided.first ? "cancelled" : "already", refundedCents: refunded.refund.amountCents, creditNoteNumber: refunded.refund.creditNoteNumber };
}

/** What the cancellation page shows: the order, its pre-order lines still cancellable, or that it is cancelled. */
export type PreorderCancelView = { orderNumber: string; lines: { name: string; units: number; note: string | null }[]; cancelled: boolean };

/** The page of a cancellation link (or the account's order page): refused when the link is forged or expired. */
export async function preorderCancelView(db: Db, orderId: string, now: Date): Promise<PreorderCancelView | null> {
  const [order] = await db.select({ number: orders.number }).from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const [cancelled] = await db.select({ id: orderEvents.id }).from(orderEvents).where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.type, "preorder_cancelled")));
  const cancellable = await cancellablePreorderLines(db, orderId, now);
  const named = cancellable.length === 0 ? [] : await db.select().from(orderItems).where(inArray(orderItems.id, cancellable.map((line) => line.id)));
  return {
    orderNumber: order.number,
    cancelled: cancelled !== undefined,
    lines: cancellable.map((line) => {
      const item = named.find((row) => row.id === line.id)!;
      return { name: item.name, units: line.units, note: preorderLineNote(item) };
    }),
  };
}
