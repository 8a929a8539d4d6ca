import { randomInt } from "node:crypto";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { creditDeliveryPath } from "~/domain/delivery-address-form";
import { orderItems, orders, productPreorders, products } from "~/db/schema";
import type { Db } from "~/db/types";
import {
  type CheckoutFailure,
  type CheckoutLineRequest,
  type CheckoutSuccess,
  type DeliveryChoice,
  EMPTY_CART_ERROR,
  PROVIDER_ERROR,
  checkoutRequestSchema,
  computeOrderTotals,
  fieldErrorsOf,
  mergeLines,
  outOfStockDetails,
  notYetOnSaleDetails,
  unavailableDetails,
} from "~/domain/checkout";
import { BELOW_MINIMUM_ERROR, isBelowCardMinimum } from "~/domain/checkout-rules";
import { formatOrderNumber } from "~/domain/order-number";
import { SIGNATURE_DELIVERY_LABEL } from "~/domain/signature-delivery";
import type { ShippingAddress } from "~/domain/order-view";
import { defaultWeightGrams, quoteAll, quoteShipping, shippingRefusal, type ShippingQuote } from "~/domain/shipping";
import { countryName } from "~/domain/shipping-countries";
import { defaultVatRateBp, isVatRateBp } from "~/domain/vat";
import { saleVat } from "./sale-vat.server";
import { INTRA_EU_EXEMPTION_MENTION } from "~/domain/invoice";
import { activeShippingMethods } from "./shipping.server";
import { isSignatureDeliveryEnabled } from "./signature-delivery-setting.server";
import { tooManyAttemptsMessage } from "~/domain/rate-limits";
import { isPubliclyVisible } from "~/domain/visibility";
import { admissionRefusal, type DropRefusal, emailKey } from "~/domain/drop-rules";
import { networkKey } from "~/domain/network-key";
import { type CheckoutDrop, checkDropLimits, countDropRefusal, dropRulesOf } from "./drop-limits.server";
import type { DropRefusalTally } from "./drop-refusal-tally.server";
import { firstWithoutAdmission, useAdmission } from "./waiting-room.server";
import { recordOrderEvent } from "./orders.server";
import { endUnpaidOrder, reserveLineUnits } from "./reservations.server";
import { preorderRulesOf, preorderUnitsLeft } from "./preorders.server";
import { openPreorderDatesOf } from "./preorder-release.server";
import { getPreorderShipping } from "./preorder-shipping-setting.server";
import { isMixedCart, mixedCartShippingText } from "~/domain/preorder-shipping";
import { preorderDatesText } from "~/domain/preorder-dates";
import { checkDiscountCode, type DiscountRefusal, type HeldDiscount, reserveDiscountUse } from "./discounts.server";
import { checkRateLimit, consumeRateLimit, recordAttempt } from "./rate-limit.server";
import { listHiddenProductIds } from "./site-content.server";
import { StockGate } from "./stock-gate.server";
import { type CgvSource, currentCgvSnapshot } from "./cgv.server";
import type { PaymentProvider, SessionLine, SessionShipping } from "./payments/types";
import type { BusinessPurchase } from "~/domain/business-purchase";
import { getBusinessSalesSettings } from "./business-sales-settings.server";
import { spendStoreCreditOnOrder } from "./store-credit-orders.server";
import { type WebhookDeps, payWithStoreCreditOnly } from "./payment-webhooks.server";

type Customer = { id: string; email: string };

export type CheckoutResult =
  | { status: 200; body: CheckoutSuccess }
  | { status: 400 | 401 | 403 | 409 | 422 | 429 | 502; body: CheckoutFailure; retryAfterS?: number };

export type CheckoutContext = {
  now: Date;
  /**
   * The signed-in customer, whose e-mail is used; null for a guest. As a function, it is only
   * called once the gate lets the checkout through: a session lookup is a database read that a
   * drop's latecomers should not cost.
   */
  customer: Customer | null | (() => Promise<Customer | null>);
  clientIp: string;
  orderPrefix: string;
  /** The shop's address as the buyer's browser knows it (success and cancel URLs). */
  origin: string;
  reservationMinutes: number;
  /** This process's knowledge of sold-out products (a drop's fast refusals); optional in tests. */
  gate?: StockGate;
  /** The drop admissions the browser carries (its cookies, by product) and the secret that signed them. */
  admissions?: { tokens: Map<number, string>; secret: string };
  /** The browser's key for this attempt (Idempotency-Key): the same post sent again answers the same order. */
  idempotencyKey?: string | null;
  /** Counts the refusals made before any database work, written by the waiting room's round; without it, each is written at once (tests). */
  refusalTally?: DropRefusalTally;
  /** What the CGV in force are rendered from (as /legal): the order records their version. Left out by tests that do not look at it. */
  cgv?: Omit<CgvSource, "paymentProvider">;
  /** What paying an order entirely by store credit needs (invoice, e-mails): as the webhook's. Without it, credit is not offered. */
  paidDeps?: WebhookDeps;
};

/** Thrown inside the transaction to roll it back with an answer for the buyer. */
class Refusal extends Error {
  constructor(
    readonly result: CheckoutResult,
    /** What the refused line showed of the stock, for the gate. */
    readonly seen?: { productId: number; stock: number; name: string },
    /** A code that does not exist: counted against the address (code guessing). */
    readonly unknownCode = false,
  ) {
    super("checkout refused");
  }
}

const outOfStock = (productId: number, name: string): CheckoutResult => ({
  status: 409,
  body: { error: "Produit indisponible", details: outOfStockDetails(name), code: "OUT_OF_STOCK", productId },
});

/** A refused code: 409 when other buyers took its last uses, else 400; the cart marks its field. */
const discountRefused = (refusal: DiscountRefusal): CheckoutResult => ({
  status: refusal.reason === "limit" ? 409 : 400,
  body: { error: "Code promo invalide", details: refusal.message, code: "DISCOUNT", fieldErrors: { discountCode: refusal.message } },
});

const invalid = (error: string, fieldErrors: Record<string, string>, details?: string): CheckoutResult => ({
  status: 400,
  body: { error, ...(details ? { details } : {}), code: "INVALID", fieldErrors },
});

/**
 * POST /api/checkout made real (ARCHITECTURE.md "Checkout"): validates the body, applies the
 * rate limits, then in one transaction re-reads the products, reserves every line with a
 * conditional UPDATE and writes the pending order with its snapshots and server-side totals;
 * then asks the payment provider for a hosted session (idempotency key: the order id). A line
 * that cannot be reserved rolls everything back; a provider failure releases the reservation.
 */
export async function startCheckout(db: Db, provider: PaymentProvider, body: unknown, ctx: CheckoutContext): Promise<CheckoutResult> {
  // The seller stopped selling to professionals since the cart was drawn: said first, nothing held.
  if (asksBusiness(body) && !(await getBusinessSalesSettings(db)).sellToBusinesses) return { status: 409, body: BUSINESS_SALES_OFF };
  const parsed = checkoutRequestSchema.safeParse(body);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    const businessError = Object.entries(errors).find(([key]) => key.startsWith("business."));
    if (businessError) return { status: 400, body: { error: "Achat professionnel", details: businessError[1], code: "BUSINESS", fieldErrors: errors } };
    return invalid("Panier invalide", errors, "Votre panier contient des données illisibles. Actualisez la page et réessayez.");
  }
  const request = parsed.data;
  if (request.items.length === 0) return invalid(EMPTY_CART_ERROR.error, { items: EMPTY_CART_ERROR.details }, EMPTY_CART_ERROR.details);
  const discountCode = request.discountCode || null;
  const lines = mergeLines(request.items);
  const gate = ctx.gate ?? new StockGate();
  // The same attempt sent again (a proxy trying the other instance after a cut connection):
  // its order's answer, never a second order.
  const replay = ctx.idempotencyKey ? await replayedCheckout(db, ctx.idempotencyKey) : null;
  if (replay) return replay;

  // A drop's latecomers: refused from memory, before any database work (session lookup and rate
  // limits included: such a refusal costs the shop nothing).
  const known = gate.shortage(lines);
  if (known) return outOfStock(known.productId, known.name);
  // The drops in the cart, read once for the checkout (and its transaction). One bought through its
  // waiting room without an admission is refused before any limit is counted or lock taken.
  const drops = await dropRulesOf(db, lines.map((line) => line.productId));
  // A pre-order's per-customer limit is counted as a drop's (a product is one or the other); its
  // units come from its pre-order quantity.
  const preorders = await preorderRulesOf(db, lines.map((line) => line.productId), ctx.now);
  for (const [productId, rules] of preorders) drops.set(productId, rules);
  const outOfTurn = firstWithoutAdmission(drops.values(), ctx.admissions, ctx.now);
  if (outOfTurn) {
    const { status, error, details, code, productId } = admissionRefusal(outOfTurn);
    // No admission at all, or one this shop did not sign for this product or that has ended.
    const reason = ctx.admissions?.tokens.has(outOfTurn.productId) ? "DROP_ADMISSION_FORGED" : "DROP_ADMISSION";
    if (ctx.refusalTally) ctx.refusalTally.add(outOfTurn.productId, reason);
    else await countDropRefusal(db, outOfTurn.productId, reason);
    return { status, body: { error, details, code, productId } };
  }
  const customer = typeof ctx.customer === "function" ? await ctx.customer() : ctx.customer;
  const email = customer?.email ?? (request.email || null);
  // Stored before the order's transaction: a refused checkout must not roll back a version others point to.
  const cgvSnapshotId = ctx.cgv ? (await currentCgvSnapshot(db, { ...ctx.cgv, paymentProvider: provider.name })).id : null;

  let order: { id: string; number: string; totalCents: number; storeCreditCents: number; lines: SessionLine[]; shipping: SessionShipping; discountCents: number; discountCode: string | null; vatNote: string | null; expiresAt: Date };
  try {
    order = await gate.exclusive(
      lines.map((line) => line.productId),
      async () => {
        // Our turn came after other checkouts of these products: they may have emptied them.
        const short = gate.shortage(lines);
        if (short) throw new Refusal(outOfStock(short.productId, short.name));
        const limited = await checkLimits(db, ctx.clientIp, email, ctx.now, discountCode !== null);
        if (limited) throw new Refusal(limited);
        const versions = new Map(lines.map((line) => [line.productId, gate.version(line.productId)]));
        try {
          const reserved = await db.transaction((tx) =>
            reserveAndWriteOrder(
              tx as unknown as Db,
              lines,
              drops,
              new Set(preorders.keys()),
              { insuranceSelected: request.insuranceSelected, discountCode, delivery: request.delivery ?? null, cgvSnapshotId, business: request.business ?? null, storeCreditCents: ctx.paidDeps ? (request.storeCreditCents ?? 0) : 0 },
              { email, userId: customer?.id ?? null },
              ctx,
              provider.name,
            ),
          );
          for (const left of reserved.stockLeft) gate.remember(left.productId, left.stock, left.name, versions.get(left.productId)!);
          return reserved;
        } catch (error) {
          if (error instanceof Refusal && error.seen) {
            gate.remember(error.seen.productId, error.seen.stock, error.seen.name, versions.get(error.seen.productId)!);
          }
          // Unknown codes count against the address, as on the cart's "Appliquer" (code guessing).
          if (error instanceof Refusal && error.unknownCode) await recordAttempt(db, "discountGuessPerIp", ctx.clientIp, ctx.now);
          throw error;
        }
      },
    );
  } catch (error) {
    if (ctx.idempotencyKey && isUniqueViolation(error, "orders_idempotency_key_idx")) return (await replayedCheckout(db, ctx.idempotencyKey))!;
    if (!(error instanceof Refusal)) throw error;
    const { body } = error.result;
    if ("code" in body && body.code.startsWith("DROP_") && body.productId !== undefined) {
      // Out of turn here: its admission was signed and in time, but its ticket no longer admitted (used).
      await countDropRefusal(db, body.productId, body.code === "DROP_ADMISSION" ? "DROP_ADMISSION_USED" : (body.code as DropRefusal["code"]));
      // Refused for who they are (over the limit, an order already pending, their network): their
      // turn is spent, or their admission would hold a place in the line for nothing until it ends.
      if (TURN_SPENT_BY.has(body.code) && ctx.admissions) {
        await useAdmission(db, ctx.admissions.tokens.get(body.productId), body.productId, ctx.admissions.secret, ctx.now);
      }
    }
    // Past the checkout's rate limits: the same, for every admission the post carried.
    if ("code" in body && body.code === "RATE_LIMITED" && ctx.admissions) {
      for (const line of lines) await useAdmission(db, ctx.admissions.tokens.get(line.productId), line.productId, ctx.admissions.secret, ctx.now);
    }
    return error.result;
  }

  // Paid entirely by store credit: no provider. A relay point carries its address: paid at once,
  // as a paid webhook would. A home delivery asks its address on the shop first (decision 060),
  // the page the order's "Reprendre le paiement" leads back to.
  if (order.storeCreditCents === order.totalCents && order.totalCents > 0 && ctx.paidDeps) {
    if (order.shipping.kind !== "relay") {
      const url = `${ctx.origin}${creditDeliveryPath(order.number)}`;
      await db.update(orders).set({ paymentUrl: url, updatedAt: new Date() }).where(eq(orders.id, order.id));
      return { status: 200, body: { url, orderNumber: order.number, orderId: order.id } };
    }
    const sessionId = await payWithStoreCreditOnly(db, order.id, ctx.paidDeps);
    if (!sessionId) throw new Error(`store credit: order ${order.number} ended before it was paid`);
    return { status: 200, body: { url: `${ctx.origin}/merci?success=true&session_id=${sessionId}`, orderNumber: order.number, orderId: order.id } };
  }
  try {
    const session = await provider.createSession({
      orderId: order.id,
      orderNumber: order.number,
      lines: order.lines,
      shipping: order.shipping,
      discountCents: order.discountCents,
      discountCode: order.discountCode,
      storeCreditCents: order.storeCreditCents,
      totalCents: order.totalCents - order.storeCreditCents,
      vatNote: order.vatNote,
      customerEmail: email,
      successUrl: `${ctx.origin}/merci?success=true&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ctx.origin}/cart?canceled=true&order=${order.id}`,
      expiresAt: order.expiresAt,
      idempotencyKey: order.id,
    });
    await db.update(orders).set({ providerSessionId: session.id, paymentUrl: session.url, updatedAt: new Date() }).where(eq(orders.id, order.id));
    return { status: 200, body: { url: session.url, orderNumber: order.number, orderId: order.id } };
  } catch (error) {
    // Compensating step: the units go back at once rather than at the end of the reservation.
    await db.transaction((tx) => endUnpaidOrder(tx, order.id, "cancelled", new Date()));
    console.error(`checkout: payment provider failed for order ${order.number}:`, error instanceof Error ? error.message : error);
    return { status: 502, body: { error: PROVIDER_ERROR, code: "PROVIDER" } };
  }
}

/** What an attempt already answered (or is answering) says again; null when the key is new. */
async function replayedCheckout(db: Db, key: string): Promise<CheckoutResult | null> {
  const [order] = await db
    .select({ id: orders.id, number: orders.number, status: orders.status, paymentUrl: orders.paymentUrl })
    .from(orders)
    .where(eq(orders.idempotencyKey, key));
  if (!order) return null;
  if (order.status === "pending_payment" && order.paymentUrl) return { status: 200, body: { url: order.paymentUrl, orderNumber: order.number, orderId: order.id } };
  return { status: 409, body: { error: "Commande déjà envoyée", details: "Cette commande a déjà été envoyée. Actualisez la page pour voir votre panier.", code: "DUPLICATE" } };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code, constraint: name } = cause as { code?: string; constraint?: string };
    if (code === "23505" && name === constraint) return true;
  }
  return false;
}

async function checkLimits(db: Db, clientIp: string, email: string | null, now: Date, withCode: boolean): Promise<CheckoutResult | null> {
  const checks = [consumeRateLimit(db, "checkoutPerIp", clientIp, now)];
  if (email) checks.push(consumeRateLimit(db, "checkoutPerEmail", email, now));
  if (withCode) checks.push(checkRateLimit(db, "discountGuessPerIp", clientIp, now));
  const blocked = (await Promise.all(checks)).find((state) => state.blocked);
  if (!blocked?.blocked) return null;
  return {
    status: 429,
    body: { error: tooManyAttemptsMessage(blocked.retryAfterMs), code: "RATE_LIMITED" },
    retryAfterS: Math.max(1, Math.ceil(blocked.retryAfterMs / 1000)),
  };
}

async function reserveAndWriteOrder(
  tx: Db,
  lines: CheckoutLineRequest[],
  drops: Map<number, CheckoutDrop>,
  preorderIds: Set<number>,
  choices: { insuranceSelected: boolean; discountCode: string | null; delivery: DeliveryChoice | null; cgvSnapshotId: string | null; business: BusinessPurchase | null; storeCreditCents: number },
  buyer: { email: string | null; userId: string | null },
  ctx: CheckoutContext,
  providerName: string,
) {
  const rows = await tx
    .select({
      id: products.id,
      title: products.title,
      priceCents: products.priceCents,
      status: products.status,
      dropTime: products.dropTime,
      category: products.category,
      subCategory: products.subCategory,
      weightGrams: products.weightGrams,
      vatRateBp: products.vatRateBp,
      vatScheme: products.vatScheme,
    })
    .from(products)
    .where(inArray(products.id, lines.map((line) => line.productId)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  // A running countdown may hide a whole category until its end (site-content.server.ts).
  const hidden = await listHiddenProductIds(tx, rows.map((row) => row.id), ctx.now);

  for (const line of lines) {
    const product = byId.get(line.productId);
    if (!product || !isPubliclyVisible(product, ctx.now) || hidden.has(line.productId)) {
      const upcoming = product?.status === "a_venir" && product.dropTime !== null && product.dropTime > ctx.now;
      const details = upcoming ? notYetOnSaleDetails(product.title, product.dropTime!) : unavailableDetails(product?.title ?? null);
      throw new Refusal({ status: 409, body: { error: "Produit indisponible", details, code: "UNAVAILABLE", productId: line.productId } });
    }
  }
  // A drop's per-customer limits, before any unit is taken (services/drop-limits.server.ts).
  const dropLines = lines.filter((line) => drops.has(line.productId)).map((line) => ({ ...line, name: byId.get(line.productId)!.title, rules: drops.get(line.productId)! }));
  const network = networkKey(ctx.clientIp);
  const dropRefusal = await checkDropLimits(tx, dropLines, { userId: buyer.userId, email: buyer.email, network });
  // A drop with an opening time is bought through its waiting room: an admission, used once here
  // (a refusal further on rolls it back, still usable).
  const unadmitted = dropRefusal ? null : await firstUnadmitted(tx, dropLines.filter((line) => line.rules.waitingRoom), ctx);
  const refusal = dropRefusal ?? (unadmitted ? admissionRefusal(unadmitted) : null);
  if (refusal) {
    const { status, error, details, code, productId } = refusal;
    throw new Refusal({ status, body: { error, details, code, productId, ...(code === "DROP_EMAIL" ? { fieldErrors: { email: details } } : {}) } });
  }
  const priced = lines.map((line) => {
    const product = byId.get(line.productId)!;
    const vatRateBp = product.vatRateBp !== null && isVatRateBp(product.vatRateBp) ? product.vatRateBp : defaultVatRateBp(product.category, product.subCategory);
    return { productId: line.productId, name: product.title, unitPriceCents: product.priceCents, quantity: line.quantity, vatRateBp, vatScheme: product.vatScheme };
  });
  const weightGrams = lines.reduce((sum, line) => {
    const product = byId.get(line.productId)!;
    return sum + (product.weightGrams ?? defaultWeightGrams(product.category, product.subCategory)) * line.quantity;
  }, 0);
  const { subtotalCents } = computeOrderTotals(priced, false);
  // A code that cannot apply whatever other buyers do (unknown, expired, under its minimum) is
  // refused before any stock is taken.
  let expectedDiscountCents = 0;
  if (choices.discountCode) {
    const check = await checkDiscountCode(tx, choices.discountCode, { subtotalCents, now: ctx.now });
    if (!check.ok) throw new Refusal(discountRefused(check), undefined, check.reason === "unknown");
    expectedDiscountCents = check.discountCents;
  }
  // The delivery is priced here, whatever the page showed: a method that no longer fits is refused before any stock is taken.
  const methods = await activeShippingMethods(tx);
  const shippingFor = (discountCents: number) => priceDelivery(methods, choices.delivery, { weightGrams, goodsCents: subtotalCents - discountCents });
  const expectedShipping = shippingFor(expectedDiscountCents);
  // The seller may have turned the option off since the page was drawn: refused, whatever the page sent.
  if (choices.insuranceSelected && !(await isSignatureDeliveryEnabled(tx))) {
    throw new Refusal({ status: 409, body: SIGNATURE_DELIVERY_OFF });
  }
  // Under a card payment's minimum the provider would refuse the session: said now, nothing held.
  if (isBelowCardMinimum(computeOrderTotals(priced, choices.insuranceSelected, expectedDiscountCents, expectedShipping.quote.priceCents).totalCents)) {
    throw new Refusal({ status: 422, body: { ...BELOW_MINIMUM_ERROR, code: "MINIMUM" } });
  }

  const stockLeft: { productId: number; stock: number; name: string }[] = [];
  for (const line of lines) {
    const product = byId.get(line.productId)!;
    const left = await reserveLineUnits(tx, { ...line, preorder: preorderIds.has(line.productId) }, ctx.now);
    if (left === null) {
      // What the gate keeps: a pre-order's units left, else the shelf's.
      const [current] = preorderIds.has(line.productId)
        ? await tx.select({ stock: preorderUnitsLeft }).from(productPreorders).where(eq(productPreorders.productId, line.productId))
        : await tx.select({ stock: products.stock }).from(products).where(eq(products.id, line.productId));
      throw new Refusal(outOfStock(line.productId, product.title), { productId: line.productId, stock: current?.stock ?? 0, name: product.title });
    }
    stockLeft.push({ productId: line.productId, stock: left, name: product.title });
  }

  // The code's use is taken last: every checkout locks products first, then the code (one order
  // of locks everywhere, no deadlock on PostgreSQL), and holds the code's row only briefly.
  let discount: HeldDiscount | null = null;
  if (choices.discountCode) {
    const held = await reserveDiscountUse(tx, choices.discountCode, { subtotalCents, now: ctx.now, customer: buyer });
    if ("ok" in held) throw new Refusal(discountRefused(held));
    discount = held;
  }
  const shipping = shippingFor(discount?.discountCents ?? 0);
  // French VAT, the buyer's member state's past the distance-sales threshold, or an exempt
  // intra-EU supply priced excluding VAT (services/sale-vat.server.ts): its totals are the order's.
  const taxed = await saleVat(tx, priced, computeOrderTotals(priced, choices.insuranceSelected, discount?.discountCents ?? 0, shipping.quote.priceCents), { business: choices.business, deliveryCountry: shipping.country }, ctx.now);
  const { vat, totals } = taxed;
  // A drop's units are held for its own, shorter time (10 minutes unless the seller says otherwise).
  const holdMinutes = dropLines.length > 0 ? Math.min(...dropLines.map((line) => line.rules.holdMinutes)) : ctx.reservationMinutes;
  const expiresAt = new Date(ctx.now.getTime() + holdMinutes * 60_000);

  // A cart mixing pre-orders and items in stock ships as the seller's setting said when it was placed.
  const preorderShipping = isMixedCart(lines.map((line) => ({ preorder: preorderIds.has(line.productId) }))) ? await getPreorderShipping(tx) : null;
  let created: { id: string; number: string } | undefined;
  // The number is 10 digits of time and chance: on the rare clash, draw again.
  for (let attempt = 0; !created && attempt < 5; attempt++) {
    [created] = await tx
      .insert(orders)
      .values({
        number: formatOrderNumber(ctx.orderPrefix, Date.now(), randomInt(10_000)),
        status: "pending_payment",
        customerEmail: buyer.email,
        userId: buyer.userId,
        buyerEmailKey: buyer.email ? emailKey(buyer.email) : null,
        // Only a drop's orders keep the network (the bound on unpaid drop orders; cleared after 30 days).
        clientNetwork: dropLines.length > 0 ? network : null,
        ...totals,
        discountCode: discount?.code ?? null,
        discountCodeId: discount?.codeId ?? null,
        shippingMethodId: shipping.quote.methodId,
        shippingMethodName: shipping.quote.name,
        shippingKind: shipping.quote.kind,
        shippingDeliveryTime: shipping.quote.deliveryTime,
        shippingCountry: shipping.country,
        shippingAddress: shipping.relayAddress,
        weightGrams,
        vatRegime: taxed.regime,
        vatBreakdown: vat.breakdown,
        vatCountry: taxed.vatCountry,
        paymentProvider: providerName,
        cgvSnapshotId: choices.cgvSnapshotId,
        businessBuyer: choices.business,
        preorderShipping,
        idempotencyKey: ctx.idempotencyKey ?? null,
        reservedUntil: expiresAt,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .onConflictDoNothing({ target: orders.number })
      .returning({ id: orders.id, number: orders.number });
  }
  if (!created) throw new Error("could not draw a free order number");
  // A pre-order line keeps the dates shown when ordering: the delivery date agreed (L216-1).
  const preorderDates = await openPreorderDatesOf(tx, [...preorderIds], ctx.now);
  await tx.insert(orderItems).values(
    taxed.lines.map((line, i) => {
      const dates = preorderDates.get(line.productId);
      return { orderId: created.id, ...line, discountShareCents: vat.lines[i]!.discountShareCents, vatCents: vat.lines[i]!.vatCents, preorder: preorderIds.has(line.productId), preorderReleaseOn: dates?.releaseOn ?? null, preorderDeliveryOn: dates?.estimatedDeliveryOn ?? null };
    }),
  );
  await recordOrderEvent(tx, { orderId: created.id, type: "created", actorId: buyer.userId, at: ctx.now });
  // The store credit asked for, spent in this transaction (a refusal further back gives it back).
  const storeCreditCents = choices.storeCreditCents > 0 ? await spendStoreCreditOnOrder(tx, { orderId: created.id, orderNumber: created.number, userId: buyer.userId, totalCents: totals.totalCents, requestedCents: choices.storeCreditCents }) : 0;

  const sessionLines: SessionLine[] = taxed.lines.map(({ productId, name, unitPriceCents, quantity }) => {
    const dates = preorderDates.get(productId);
    return { name, unitAmountCents: unitPriceCents, quantity, ...(dates ? { description: preorderDatesText(dates) } : {}) };
  });
  if (totals.insuranceCents > 0) sessionLines.push({ name: SIGNATURE_DELIVERY_LABEL, unitAmountCents: totals.insuranceCents, quantity: 1 });
  const sessionShipping: SessionShipping = {
    name: shipping.quote.name,
    kind: shipping.quote.kind,
    deliveryTime: shipping.quote.deliveryTime,
    amountCents: totals.shippingCents,
    country: shipping.country,
    ...(preorderShipping ? { note: mixedCartShippingText(preorderShipping) } : {}),
  };
  const vatNote = taxed.regime === "intra_eu_exempt" ? INTRA_EU_EXEMPTION_MENTION : null;
  return { ...created, totalCents: totals.totalCents, storeCreditCents, discountCents: totals.discountCents, discountCode: discount?.code ?? null, lines: sessionLines, shipping: sessionShipping, vatNote, expiresAt, stockLeft };
}

/** Drop refusals that end the buyer's turn (an e-mail or a sign-in missing can be given at once: those keep it). */
const TURN_SPENT_BY = new Set<string>(["DROP_LIMIT", "DROP_PENDING", "DROP_NETWORK"]);

/** The first drop line without a valid admission, each valid one used on the way. */
async function firstUnadmitted(tx: Db, lines: { productId: number; name: string }[], ctx: CheckoutContext) {
  for (const line of lines) {
    if (!(await useAdmission(tx, ctx.admissions?.tokens.get(line.productId), line.productId, ctx.admissions?.secret ?? "", ctx.now))) return line;
  }
  return null;
}

/** Whether the body asks for an "Achat professionnel" (any value under `business`, valid or not). */
function asksBusiness(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { business?: unknown }).business != null;
}

const BUSINESS_SALES_OFF = {
  error: "Achat professionnel indisponible",
  details: "La boutique ne propose plus l'achat professionnel : votre commande n'a pas été passée. Pour commander en tant que particulier, actualisez le panier et réessayez.",
  code: "BUSINESS_OFF" as const,
};

const SIGNATURE_DELIVERY_OFF = {
  error: `${SIGNATURE_DELIVERY_LABEL} indisponible`,
  details: `La ${SIGNATURE_DELIVERY_LABEL.toLowerCase()} n'est plus proposée. Décochez-la dans le panier, puis réessayez.`,
  code: "SIGNATURE_DELIVERY_OFF" as const,
};

const shippingRefused = (details: string): CheckoutResult => ({
  status: 422,
  body: { error: "Livraison impossible", details, code: "SHIPPING", fieldErrors: { delivery: details } },
});

/**
 * The delivery the order is charged: the buyer's method priced by the server's rule (domain/
 * shipping.ts), or refused in French when it no longer fits (gone, another country, too heavy);
 * without a choice, the cheapest method to an address in France that carries the cart.
 */
function priceDelivery(
  methods: Awaited<ReturnType<typeof activeShippingMethods>>,
  choice: DeliveryChoice | null,
  cart: { weightGrams: number; goodsCents: number },
): { quote: ShippingQuote; country: string; relayAddress: ShippingAddress | null } {
  if (!choice) {
    // A relay point needs the buyer's choice of point: only a method to an address is taken for them.
    const [cheapest] = quoteAll(methods, { ...cart, country: "FR" }).filter((quote) => quote.kind !== "relay");
    if (!cheapest) throw new Refusal(shippingRefused("Choisissez un mode de livraison dans votre panier."));
    return { quote: cheapest, country: "FR", relayAddress: null };
  }
  const method = methods.find((candidate) => candidate.id === choice.methodId) ?? null;
  const quote = method ? quoteShipping(method, { ...cart, country: choice.country }) : null;
  if (!method || !quote) throw new Refusal(shippingRefused(shippingRefusal(method, { ...cart, country: choice.country }, countryName(choice.country))));
  if (quote.kind !== "relay") return { quote, country: choice.country, relayAddress: null };
  const relay = choice.relayPoint;
  if (!relay) throw new Refusal(shippingRefused("Indiquez le point relais choisi : son nom, son identifiant et son adresse complète."));
  return {
    quote,
    country: choice.country,
    relayAddress: { method: "relay", fullName: "", relayPointName: relay.name, relayPointId: relay.id, line1: relay.line1, postalCode: relay.postalCode.toUpperCase(), city: relay.city, country: choice.country },
  };
}

/** Whether an order may still be paid (used by the test payment page). */
export async function isOrderPayable(db: Db, orderId: string, now: Date): Promise<boolean> {
  const [row] = await db.select({ status: orders.status, reservedUntil: orders.reservedUntil }).from(orders).where(and(eq(orders.id, orderId)));
  return row?.status === "pending_payment" && row.reservedUntil !== null && row.reservedUntil > now;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The buyer came back from the payment page with "cancel": the session is closed at the
 * provider (so it can no longer be paid) and the units go back on sale at once, instead of at
 * the end of the reservation. The order id in the cancel URL is the proof: only that buyer's
 * browser was sent there. An order its store credit pays entirely, waiting for its delivery
 * address on the shop, has no session: it ends at once. False when there is nothing to cancel
 * (already paid, expired, unknown).
 */
export async function cancelCheckout(db: Db, provider: PaymentProvider, orderId: string, now = new Date()): Promise<boolean> {
  if (!UUID.test(orderId)) return false;
  const [order] = await db
    .select({ id: orders.id, sessionId: orders.providerSessionId, creditOnly: sql<boolean>`${orders.storeCreditCents} = ${orders.totalCents}` })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.status, "pending_payment")));
  if (!order) return false;
  if (order.sessionId) {
    try {
      await provider.expireSession(order.sessionId);
    } catch {
      return false; // paid meanwhile, or the provider refuses: the webhook decides
    }
  } else if (!order.creditOnly) return false; // its session is being opened: the reservation's end decides
  return db.transaction((tx) => endUnpaidOrder(tx, order.id, "cancelled", now));
}

/** A signed-in customer's order still waiting for its payment, while its units are held. */
export type PendingPayment = { orderId: string; paymentUrl: string; reservedUntil: string };

/**
 * The payment a customer left unfinished (a closed tab, another device): their order page
 * offers to go back to it or to cancel it, instead of holding their units for nobody until the
 * reservation ends. Null once paid, cancelled or past its reservation, and for anyone else.
 */
export async function pendingPaymentOf(db: Db, userId: string, orderNumber: string, now = new Date()): Promise<PendingPayment | null> {
  const [row] = await db
    .select({ orderId: orders.id, paymentUrl: orders.paymentUrl, reservedUntil: orders.reservedUntil })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.number, orderNumber), eq(orders.status, "pending_payment"), gt(orders.reservedUntil, now)));
  if (!row?.paymentUrl || !row.reservedUntil) return null;
  return { orderId: row.orderId, paymentUrl: row.paymentUrl, reservedUntil: row.reservedUntil.toISOString() };
}

/** The customer cancels their unpaid order from its page: as "cancel" on the payment page. */
export async function cancelCustomerCheckout(db: Db, provider: PaymentProvider, userId: string, orderNumber: string, now = new Date()): Promise<boolean> {
  const pending = await pendingPaymentOf(db, userId, orderNumber, now);
  return pending !== null && cancelCheckout(db, provider, pending.orderId, now);
}
