import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { discountCodes, orders, products } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { CANCELLATION_REFUND_REASONS, type OrderStatus } from "~/domain/catalog-values";
import { type CheckoutLineRequest, computeOrderTotals, mergeLines } from "~/domain/checkout";
import {
  type DiscountFormValues,
  type DiscountLimits,
  type DiscountOutcome,
  type DiscountPreview,
  type DiscountRule,
  LIMIT_REACHED_MESSAGE,
  evaluateDiscount,
  normaliseDiscountCode,
} from "~/domain/discounts";
import { tooManyAttemptsMessage } from "~/domain/rate-limits";
import { isPubliclyVisible } from "~/domain/visibility";
import { checkRateLimit, recordAttempt } from "./rate-limit.server";
import { listHiddenProductIds } from "./site-content.server";

/**
 * Discount codes. A code's uses are counted like stock: a checkout holds one with a single
 * conditional UPDATE (reserved_count + 1, only while used + reserved < max_uses, so no
 * interleaving can pass the limit; the table's CHECK says the same), the payment turns it into a
 * used one, an order that ends unpaid gives it back. Each move happens in the transaction of the
 * order's own status change (from pending_payment, on a locked row), hence exactly once.
 */

type Handle = Db | Tx;
export type DiscountCode = typeof discountCodes.$inferSelect;
/** Who uses a code: a signed-in customer (id and e-mail), a guest's e-mail, or nobody known. */
export type DiscountCustomer = { userId: string | null; email: string | null };
export type DiscountRefusal = Extract<DiscountOutcome, { ok: false }>;

// ---------------------------------------------------------------------------------------------
// The promotion's code (contract with the promotions form, issue 12)

/**
 * The promotion's code (site_settings "promotion") kept in step with its form, in the caller's
 * transaction: its discount_codes row is created or updated as a site-wide percentage, and any
 * former promotion code stops working (and stops being marked as the promotion's).
 */
export async function syncPromotionCode(
  tx: Db,
  promotion: { code: string; percentOff: number; expiresAt: Date | null; isActive: boolean },
): Promise<void> {
  const code = normaliseDiscountCode(promotion.code);
  const now = new Date();
  const retired = { isActive: false, isPromotion: false, updatedAt: now };
  if (!code) {
    await tx.update(discountCodes).set(retired).where(eq(discountCodes.isPromotion, true));
    return;
  }
  const values = {
    kind: "percent" as const,
    percentOff: promotion.percentOff,
    amountOffCents: null,
    expiresAt: promotion.expiresAt,
    isActive: promotion.isActive,
    isPromotion: true,
    updatedAt: now,
  };
  // The only unique key besides the id is upper(code): a conflict means the code exists.
  const [inserted] = await tx.insert(discountCodes).values({ code, ...values }).onConflictDoNothing().returning({ id: discountCodes.id });
  const [kept] = inserted ? [inserted] : await tx.update(discountCodes).set(values).where(byCode(code)).returning({ id: discountCodes.id });
  await tx
    .update(discountCodes)
    .set(retired)
    .where(and(eq(discountCodes.isPromotion, true), ne(discountCodes.id, kept!.id)));
}

// ---------------------------------------------------------------------------------------------
// Reading and counting

const byCode = (code: string) => sql`upper(${discountCodes.code}) = ${normaliseDiscountCode(code)}`;

export async function findDiscountCode(db: Handle, code: string): Promise<DiscountCode | null> {
  const [row] = await db.select().from(discountCodes).where(byCode(code)).limit(1);
  return row ?? null;
}

/** Orders that hold a use of their code: unpaid but reserved, paid, or paid then cancelled by the seller or withdrawn from by the customer. */
const HOLDING_STATUSES: OrderStatus[] = ["pending_payment", "paid", "shipped"];
const holdsUse = or(
  inArray(orders.status, HOLDING_STATUSES),
  and(inArray(orders.status, ["refund_pending", "refunded"]), inArray(orders.refundReason, [...CANCELLATION_REFUND_REASONS])),
);

/**
 * How many of this customer's orders hold a use of the code; null when the customer is unknown.
 * A guest: every order under the address typed, an account's included (signing out does not get
 * round the limit). A signed-in customer: the account's orders, and the guest orders PAID under
 * its confirmed address. Not the unpaid ones: anyone may type another's address at a guest
 * checkout, and such a reservation must not take away that customer's use.
 */
export async function countCustomerUses(db: Handle, codeId: string, customer: DiscountCustomer | null, exceptOrderId?: string): Promise<number | null> {
  const email = customer?.email?.trim().toLowerCase() || null;
  const userId = customer?.userId ?? null;
  if (!email && !userId) return null;
  const underAddress = email ? sql`lower(${orders.customerEmail}) = ${email}` : undefined;
  const paidAsGuest = underAddress && and(isNull(orders.userId), underAddress, ne(orders.status, "pending_payment"));
  const who = userId ? or(eq(orders.userId, userId), paidAsGuest) : underAddress;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.discountCodeId, codeId), who, holdsUse, exceptOrderId ? ne(orders.id, exceptOrderId) : undefined));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// A use through the order's life

export type HeldDiscount = { codeId: string; code: string; discountCents: number };

/**
 * Checks a code without taking anything (before the checkout locks stock): the refusals that do
 * not depend on other buyers come out here, cheaply.
 */
export async function checkDiscountCode(db: Handle, code: string, input: { subtotalCents: number; now: Date }): Promise<DiscountOutcome> {
  return evaluateDiscount(await findDiscountCode(db, code), input);
}

/**
 * Holds one use of the code for a new order, inside the checkout's transaction: ONE conditional
 * UPDATE takes it (and locks the row until the transaction ends), then the customer's own uses
 * are counted under that lock, so two checkouts of the same customer cannot both slip under a
 * per-customer limit. A refusal gives the use back before answering.
 */
export async function reserveDiscountUse(
  tx: Handle,
  code: string,
  input: { subtotalCents: number; now: Date; customer: DiscountCustomer | null },
): Promise<HeldDiscount | DiscountRefusal> {
  const found = await findDiscountCode(tx, code);
  const first = evaluateDiscount(found, input);
  if (!first.ok) return first;
  const [held] = await tx
    .update(discountCodes)
    .set({ reservedCount: sql`${discountCodes.reservedCount} + 1` })
    .where(
      and(
        eq(discountCodes.id, found!.id),
        eq(discountCodes.isActive, true),
        or(isNull(discountCodes.expiresAt), gt(discountCodes.expiresAt, input.now)),
        or(isNull(discountCodes.maxUses), sql`${discountCodes.usedCount} + ${discountCodes.reservedCount} < ${discountCodes.maxUses}`),
      ),
    )
    .returning();
  if (!held) {
    // Changed since it was read: deleted, deactivated, expired, or its last use just went.
    const now = evaluateDiscount(await findDiscountCode(tx, code), input);
    return now.ok ? { ok: false, reason: "limit", message: LIMIT_REACHED_MESSAGE } : now;
  }
  // The rule sees the code as it was before this checkout's own use.
  const before: DiscountRule = { ...held, reservedCount: held.reservedCount - 1 };
  const customerUses = held.maxUsesPerCustomer === null ? undefined : await countCustomerUses(tx, held.id, input.customer);
  const outcome = evaluateDiscount(before, { ...input, customerUses });
  if (!outcome.ok) {
    await releaseDiscountUse(tx, held.id);
    return outcome;
  }
  return { codeId: held.id, code: held.code, discountCents: outcome.discountCents };
}

/** The order was paid: its held use becomes a used one (in the transaction that marks it paid). */
export async function confirmDiscountUse(tx: Handle, codeId: string | null): Promise<void> {
  if (!codeId) return;
  await tx
    .update(discountCodes)
    .set({ reservedCount: sql`${discountCodes.reservedCount} - 1`, usedCount: sql`${discountCodes.usedCount} + 1` })
    .where(eq(discountCodes.id, codeId));
}

/** The order ended unpaid (expired, cancelled): its held use goes back (in that same transaction). */
export async function releaseDiscountUse(tx: Handle, codeId: string | null): Promise<void> {
  if (!codeId) return;
  await tx
    .update(discountCodes)
    .set({ reservedCount: sql`${discountCodes.reservedCount} - 1` })
    .where(eq(discountCodes.id, codeId));
}

/**
 * A payment arrived after the order had ended and given its use back: the use is counted again
 * if the code still has one for this customer (the price was agreed while the code was valid,
 * so its expiry or deactivation since then does not matter; its limits do). False when it has
 * none left: the caller refunds, as when the units are gone. A code deleted since then (never
 * used, so nothing to count) lets the payment through.
 */
export async function retakeDiscountUse(tx: Handle, order: { id: string; discountCodeId: string | null }, customer: DiscountCustomer): Promise<boolean> {
  if (!order.discountCodeId) return true;
  const [taken] = await tx
    .update(discountCodes)
    .set({ usedCount: sql`${discountCodes.usedCount} + 1` })
    .where(
      and(
        eq(discountCodes.id, order.discountCodeId),
        or(isNull(discountCodes.maxUses), sql`${discountCodes.usedCount} + ${discountCodes.reservedCount} < ${discountCodes.maxUses}`),
      ),
    )
    .returning({ maxUsesPerCustomer: discountCodes.maxUsesPerCustomer });
  if (!taken) return false;
  if (taken.maxUsesPerCustomer === null) return true;
  const uses = await countCustomerUses(tx, order.discountCodeId, customer, order.id);
  if (uses !== null && uses >= taken.maxUsesPerCustomer) {
    await tx
      .update(discountCodes)
      .set({ usedCount: sql`${discountCodes.usedCount} - 1` })
      .where(eq(discountCodes.id, order.discountCodeId));
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The cart's preview

export type PreviewAnswer = { status: 200 | 400 | 409 | 429; body: DiscountPreview };

/**
 * What the code would take off the cart as it is (prices read here, never the browser's), for
 * the cart's "Appliquer". Unknown codes count against the client's address (code guessing).
 */
export async function previewDiscount(
  db: Db,
  input: { code: string; items: CheckoutLineRequest[]; insuranceSelected: boolean },
  ctx: { now: Date; customer: DiscountCustomer | null; clientIp: string },
): Promise<PreviewAnswer> {
  const code = normaliseDiscountCode(input.code);
  const guesses = await checkRateLimit(db, "discountGuessPerIp", ctx.clientIp, ctx.now);
  if (guesses.blocked) return { status: 429, body: { ok: false, code, error: tooManyAttemptsMessage(guesses.retryAfterMs) } };

  const lines = mergeLines(input.items);
  const rows = lines.length
    ? await db
        .select({ id: products.id, priceCents: products.priceCents, status: products.status, dropTime: products.dropTime })
        .from(products)
        .where(inArray(products.id, lines.map((line) => line.productId)))
    : [];
  // Priced as the checkout would: only what may be bought now (a countdown may hide a category).
  const hidden = await listHiddenProductIds(db, rows.map((row) => row.id), ctx.now);
  const prices = new Map(rows.filter((row) => isPubliclyVisible(row, ctx.now) && !hidden.has(row.id)).map((row) => [row.id, row.priceCents]));
  const priced = lines.flatMap((line) => (prices.has(line.productId) ? [{ unitPriceCents: prices.get(line.productId)!, quantity: line.quantity }] : []));
  const { subtotalCents } = computeOrderTotals(priced, input.insuranceSelected);

  const found = await findDiscountCode(db, code);
  const customerUses = found?.maxUsesPerCustomer != null ? await countCustomerUses(db, found.id, ctx.customer) : undefined;
  const outcome = evaluateDiscount(found, { subtotalCents, now: ctx.now, customerUses });
  if (!outcome.ok) {
    if (outcome.reason === "unknown") await recordAttempt(db, "discountGuessPerIp", ctx.clientIp, ctx.now);
    return { status: outcome.reason === "limit" ? 409 : 400, body: { ok: false, code, error: outcome.message, reason: outcome.reason } };
  }
  // Delivery is not in the preview: the cart prices it from the discounted goods (domain/shipping.ts).
  const { shippingCents: _delivery, ...totals } = computeOrderTotals(priced, input.insuranceSelected, outcome.discountCents);
  return { status: 200, body: { ok: true, code: found!.code, ...totals } };
}

// ---------------------------------------------------------------------------------------------
// The back office (/admin/codes)

export async function listDiscountCodes(db: Db): Promise<DiscountCode[]> {
  return db.select().from(discountCodes).orderBy(desc(discountCodes.isPromotion), desc(discountCodes.isActive), asc(discountCodes.code));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One code by id; null for an unknown or malformed id (never a database error). */
export async function getDiscountCode(db: Db, id: string): Promise<DiscountCode | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  return row ?? null;
}

export type CodeWriteResult =
  | { outcome: "saved"; code: DiscountCode }
  | { outcome: "missing" }
  | { outcome: "duplicate" }
  | { outcome: "below-uses"; uses: number };

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export async function createDiscountCode(db: Db, values: DiscountFormValues, now = new Date()): Promise<CodeWriteResult> {
  const [row] = await db
    .insert(discountCodes)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return row ? { outcome: "saved", code: row } : { outcome: "duplicate" };
}

/**
 * Saves an edited code. The promotion's code takes only its minimum and limits here (its code,
 * value, expiry and activation follow the promotion's form). A limit is never set below the
 * uses already counted (paid and held), checked in the UPDATE itself.
 */
export async function updateDiscountCode(db: Db, id: string, values: DiscountFormValues | DiscountLimits, now = new Date()): Promise<CodeWriteResult> {
  const [current] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  if (!current) return { outcome: "missing" };
  const limits: DiscountLimits = { minSubtotalCents: values.minSubtotalCents, maxUses: values.maxUses, maxUsesPerCustomer: values.maxUsesPerCustomer };
  const changes = current.isPromotion || !("code" in values) ? limits : values;
  try {
    const [row] = await db
      .update(discountCodes)
      .set({ ...changes, updatedAt: now })
      .where(
        and(
          eq(discountCodes.id, id),
          changes.maxUses === null ? undefined : sql`${discountCodes.usedCount} + ${discountCodes.reservedCount} <= ${changes.maxUses}`,
        ),
      )
      .returning();
    if (row) return { outcome: "saved", code: row };
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: "duplicate" };
    throw error;
  }
  const [after] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  return after ? { outcome: "below-uses", uses: after.usedCount + after.reservedCount } : { outcome: "missing" };
}

export type CodeStateResult = { outcome: "done"; code: DiscountCode } | { outcome: "missing" } | { outcome: "promotion" } | { outcome: "used"; code: DiscountCode };

/** Activates or deactivates a code (not the promotion's: its form decides). */
export async function setDiscountCodeActive(db: Db, id: string, active: boolean, now = new Date()): Promise<CodeStateResult> {
  const [row] = await db
    .update(discountCodes)
    .set({ isActive: active, updatedAt: now })
    .where(and(eq(discountCodes.id, id), eq(discountCodes.isPromotion, false)))
    .returning();
  if (row) return { outcome: "done", code: row };
  return (await db.select({ id: discountCodes.id }).from(discountCodes).where(eq(discountCodes.id, id))).length ? { outcome: "promotion" } : { outcome: "missing" };
}

/**
 * Deletes a code never used (no paid order, none holding it): one conditional DELETE, so a
 * checkout taking it at the same moment either comes first (and the code stays) or finds it gone.
 * A used code is kept for the orders' history: the seller deactivates it instead.
 */
export async function deleteDiscountCode(db: Db, id: string): Promise<CodeStateResult> {
  const [row] = await db
    .delete(discountCodes)
    .where(and(eq(discountCodes.id, id), eq(discountCodes.isPromotion, false), eq(discountCodes.usedCount, 0), eq(discountCodes.reservedCount, 0)))
    .returning();
  if (row) return { outcome: "done", code: row };
  const [current] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  if (!current) return { outcome: "missing" };
  return current.isPromotion ? { outcome: "promotion" } : { outcome: "used", code: current };
}
