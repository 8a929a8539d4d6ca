import { sliceText } from "~/domain/text-rules";
import { type SQL, and, asc, eq, inArray, sql } from "drizzle-orm";
import { orderItems, orderRefunds, orders, withdrawalRequests } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { fieldErrors } from "~/domain/auth-forms";
import type { FieldErrors } from "~/domain/field-errors";
import type { WithdrawalSource } from "~/domain/catalog-values";
import type { MailShop } from "~/domain/email-templates";
import { tooManyAttemptsMessage } from "~/domain/rate-limits";
import {
  WITHDRAWAL_NOT_FOUND,
  WITHDRAWAL_REFUSED_TITLE,
  type WithdrawalFailure,
  type WithdrawalOrder,
  type WithdrawalReceipt,
  type WithdrawalView,
  type WithdrawnLine,
  withdrawalRefusal,
  QUANTITY_FIELD_PREFIX,
  withdrawnLines,
  withdrawsWholeOrder,
} from "~/domain/withdrawal";
import { sellerWithdrawalEmail, withdrawalAcknowledgementEmail } from "~/domain/withdrawal-emails";
import { WITHDRAWAL_LINES_MESSAGES, withdrawalConfirmSchema, withdrawalLookupSchema } from "~/domain/withdrawal-lookup-schema";
import type { AppContext } from "~/lib/context";
import { absoluteUrl } from "~/lib/seo";
import { queueEmail } from "./mail.server";
import { getOrderView, recordOrderEvent } from "./orders.server";
import { consumeRateLimit } from "./rate-limit.server";
import type { Viewer } from "./session.server";

/**
 * The withdrawal function: a signed-in customer withdraws from one of their orders, a guest
 * from the order their number and e-mail designate. One transaction records the request (one
 * per order: asking again acts once and answers with the first date), its timeline event, the
 * customer's acknowledgement and the seller's notice.
 */

export type WithdrawalDeps = {
  db: Db;
  shop: MailShop;
  sellerEmail: string;
  /** Where shipped articles go back (the shop's address); null: the e-mail says to ask. */
  returnAddress: string | null;
  orderPrefix: string;
  now?: () => Date;
};

/** The dependencies, from a loader's or action's context. */
export function withdrawalDepsFrom(context: Pick<AppContext, "db" | "shop" | "publicUrl" | "checkout">): WithdrawalDeps {
  return {
    db: context.db,
    shop: { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl },
    sellerEmail: context.checkout.sellerEmail,
    returnAddress: context.shop.legal.address || null,
    orderPrefix: context.checkout.orderPrefix,
  };
}

/** Whose order: the signed-in customer's (their account's address gets the acknowledgement), or the one a number and an e-mail designate. */
export type WithdrawalLookup = { kind: "account"; userId: string; email: string; orderNumber: string } | { kind: "guest"; orderNumber: string; email: string };

const sourceOf = (lookup: WithdrawalLookup): WithdrawalSource => (lookup.kind === "account" ? "account" : "guest");

function matching(lookup: WithdrawalLookup): SQL | undefined {
  // Both halves must match; either wrong finds nothing, and the answer is the same.
  return lookup.kind === "account"
    ? and(eq(orders.number, lookup.orderNumber), eq(orders.userId, lookup.userId))
    : and(eq(orders.number, lookup.orderNumber), eq(sql`lower(${orders.customerEmail})`, lookup.email.toLowerCase()));
}

/** `customerEmail`: the order's address as written at payment, where a guest's acknowledgement goes. */
type Found = { order: WithdrawalOrder; customerEmail: string | null; request: { requestedAt: string; email: string; customerName: string | null } | null };

/** The order a lookup designates, with its withdrawal if one was made; null when none matches. */
export async function findWithdrawalOrder(db: Db | Tx, lookup: WithdrawalLookup): Promise<Found | null> {
  if (lookup.orderNumber.length > 40) return null;
  const [row] = await db
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      createdAt: orders.createdAt,
      totalCents: orders.totalCents,
      customerEmail: orders.customerEmail,
      requestedAt: withdrawalRequests.requestedAt,
      requestEmail: withdrawalRequests.email,
      requestName: withdrawalRequests.customerName,
    })
    .from(orders)
    .leftJoin(withdrawalRequests, eq(withdrawalRequests.orderId, orders.id))
    .where(matching(lookup))
    .limit(1);
  if (!row) return null;
  const lines = await db
    .select({ id: orderItems.id, name: orderItems.name, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, row.id))
    .orderBy(asc(orderItems.name), asc(orderItems.id));
  return {
    order: { number: row.number, status: row.status, createdAt: row.createdAt.toISOString(), lines, totalCents: row.totalCents },
    customerEmail: row.customerEmail,
    request: row.requestedAt ? { requestedAt: row.requestedAt.toISOString(), email: row.requestEmail ?? "", customerName: row.requestName } : null,
  };
}

export type WithdrawalOutcome =
  | { ok: true; created: boolean; receipt: WithdrawalReceipt }
  | { ok: false; status: 400 | 404 | 409; failure: WithdrawalFailure };

const refusedFailure = (description: string): WithdrawalFailure => ({ title: WITHDRAWAL_REFUSED_TITLE, description });

export type WithdrawalLineChoice = { orderItemId: string; quantity: number };

/**
 * Records the withdrawal, once, with the name the consumer gave and the articles withdrawn
 * (checked by withdrawalConfirmSchema; checked again here against the order's items: an article
 * not in the order or more units than bought answer 400 and write nothing).
 * The order row is locked first, so a second click, or the seller refunding at the same moment,
 * waits and then sees the outcome: a request already made answers with its own date and sends
 * nothing; a status that no longer allows it answers 409.
 */
export async function requestWithdrawal(deps: WithdrawalDeps, lookup: WithdrawalLookup, customerName: string, choice: WithdrawalLineChoice[] | null = null): Promise<WithdrawalOutcome> {
  const now = deps.now?.() ?? new Date();
  const source = sourceOf(lookup);
  return deps.db.transaction(async (tx): Promise<WithdrawalOutcome> => {
    const [order] = await tx
      .select({ id: orders.id, number: orders.number, status: orders.status, customerEmail: orders.customerEmail })
      .from(orders)
      .where(matching(lookup))
      .for("update");
    if (!order) return { ok: false, status: 404, failure: WITHDRAWAL_NOT_FOUND };
    const [earlier] = await tx.select().from(withdrawalRequests).where(eq(withdrawalRequests.orderId, order.id));
    if (earlier) {
      return {
        ok: true,
        created: false,
        receipt: { number: order.number, status: order.status, requestedAt: earlier.requestedAt.toISOString(), email: earlier.email, customerName: earlier.customerName, alreadyRequested: true },
      };
    }
    const refusal = withdrawalRefusal(order.status);
    if (refusal) return { ok: false, status: 409, failure: refusedFailure(refusal) };
    const items = await tx.select({ id: orderItems.id, name: orderItems.name, quantity: orderItems.quantity }).from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.name), asc(orderItems.id));
    const invalid = invalidChoice(choice, items);
    if (invalid) return { ok: false, status: 400, failure: { title: "Articles à corriger", description: invalid } };
    const chosen = choice ?? items.map((item) => ({ orderItemId: item.id, quantity: item.quantity }));
    const withdrawn = withdrawnLines(chosen, items);
    const whole = withdrawsWholeOrder(withdrawn, items);

    // A guest's acknowledgement goes to the order's address as written at payment.
    const email = lookup.kind === "account" ? lookup.email : (order.customerEmail ?? lookup.email);
    const [request] = await tx
      .insert(withdrawalRequests)
      .values({ orderId: order.id, email, customerName, userId: lookup.kind === "account" ? lookup.userId : null, source, requestedAt: now, lines: chosen })
      .returning({ id: withdrawalRequests.id });
    const view = (await getOrderView(tx, order.id))!;
    const ack = await queueEmail(tx, {
      to: email,
      // The pages invite the customer to answer it (a partial return, a question): to the shop, even when MAIL_FROM is a no-reply.
      replyTo: deps.shop.email || undefined, // none while the seller has saved no contact e-mail
      kind: "withdrawal-ack",
      content: withdrawalAcknowledgementEmail({ shop: deps.shop, order: view, requestedAt: now, customerName, returnAddress: deps.returnAddress, withdrawn, whole }),
    });
    const notice = await queueEmail(tx, {
      to: deps.sellerEmail,
      // The seller's mail client answers the customer directly.
      replyTo: email,
      kind: "withdrawal-seller",
      content: sellerWithdrawalEmail({ shop: deps.shop, order: view, requestedAt: now, customerName, source, email, withdrawn, whole, adminUrl: absoluteUrl(deps.shop.publicUrl, `/admin/orders/${encodeURIComponent(order.number)}`) }),
    });
    await tx.update(withdrawalRequests).set({ emailId: ack.id }).where(eq(withdrawalRequests.id, request!.id));
    await recordOrderEvent(tx, {
      orderId: order.id,
      type: "withdrawal_requested",
      details: { email, source, emailIds: [ack.id, notice.id], lines: chosen, whole },
      actorId: lookup.kind === "account" ? lookup.userId : null,
      at: now,
    });
    return { ok: true, created: true, receipt: { number: order.number, status: order.status, requestedAt: now.toISOString(), email, customerName, alreadyRequested: false } };
  });
}

/** Why a choice of articles cannot be recorded, in French; null when it can (null choice: the whole order). */
function invalidChoice(choice: WithdrawalLineChoice[] | null, items: readonly { id: string; name: string; quantity: number }[]): string | null {
  if (!choice) return null;
  const seen = new Set<string>();
  for (const line of choice) {
    const item = items.find((candidate) => candidate.id === line.orderItemId);
    if (!item || seen.has(item.id)) return WITHDRAWAL_LINES_MESSAGES.unknown;
    seen.add(item.id);
    if (!Number.isInteger(line.quantity) || line.quantity < 1) return WITHDRAWAL_LINES_MESSAGES.invalid(item.name, item.quantity);
    if (line.quantity > item.quantity) return WITHDRAWAL_LINES_MESSAGES.tooMany(item.name, item.quantity);
  }
  return choice.length === 0 ? WITHDRAWAL_LINES_MESSAGES.none : null;
}

/** When each of these orders' withdrawal was asked (the account's order list), by order id. */
export async function withdrawalDates(db: Db, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.select({ orderId: withdrawalRequests.orderId, requestedAt: withdrawalRequests.requestedAt }).from(withdrawalRequests).where(inArray(withdrawalRequests.orderId, orderIds));
  return new Map(rows.map((row) => [row.orderId, row.requestedAt.toISOString()]));
}

/** When the customer asked to withdraw from this order of theirs; null when not (yet). */
export async function customerWithdrawalDate(db: Db, userId: string, number: string): Promise<string | null> {
  const [row] = await db
    .select({ requestedAt: withdrawalRequests.requestedAt })
    .from(withdrawalRequests)
    .innerJoin(orders, eq(orders.id, withdrawalRequests.orderId))
    .where(and(eq(orders.userId, userId), eq(orders.number, number)));
  return row?.requestedAt.toISOString() ?? null;
}

/** An order's withdrawal as the seller's order page shows it. */
export type OrderWithdrawal = {
  id: string;
  requestedAt: string;
  email: string;
  /** The name the form took (null before it asked). */
  customerName: string | null;
  source: WithdrawalSource;
  /** The articles withdrawn, and whether that is every unit of the order. */
  lines: WithdrawnLine[];
  whole: boolean;
  receivedAt: string | null;
  /** The refund that settled it: its status and amount (null: not refunded yet). */
  refund: { id: string; status: "pending" | "refunded"; amountCents: number; refundedAt: string | null } | null;
};

/** An order's withdrawal for the seller's order page; null when none was asked. */
export async function getOrderWithdrawal(db: Db, orderId: string): Promise<OrderWithdrawal | null> {
  const [row] = await db
    .select({
      id: withdrawalRequests.id,
      requestedAt: withdrawalRequests.requestedAt,
      email: withdrawalRequests.email,
      customerName: withdrawalRequests.customerName,
      source: withdrawalRequests.source,
      lines: withdrawalRequests.lines,
      receivedAt: withdrawalRequests.receivedAt,
      refundId: orderRefunds.id,
      refundStatus: orderRefunds.status,
      refundAmountCents: orderRefunds.amountCents,
      refundedAt: orderRefunds.refundedAt,
    })
    .from(withdrawalRequests)
    .leftJoin(orderRefunds, eq(orderRefunds.id, withdrawalRequests.refundId))
    .where(eq(withdrawalRequests.orderId, orderId));
  if (!row) return null;
  const items = await db.select({ id: orderItems.id, name: orderItems.name, quantity: orderItems.quantity }).from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.name), asc(orderItems.id));
  const lines = withdrawnLines(row.lines, items);
  return {
    id: row.id,
    requestedAt: row.requestedAt.toISOString(),
    email: row.email,
    customerName: row.customerName,
    source: row.source,
    lines,
    whole: withdrawsWholeOrder(lines, items),
    receivedAt: row.receivedAt?.toISOString() ?? null,
    refund: row.refundId
      ? { id: row.refundId, status: row.refundStatus!, amountCents: row.refundAmountCents!, refundedAt: row.refundedAt?.toISOString() ?? null }
      : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The page (/retractation)

/** The confirmation's name field and the acknowledgement's address. */
type Declaration = { email: string; customerName: string; quantities?: Record<string, string>; fieldErrors?: FieldErrors };

function viewOf(found: Found, source: WithdrawalSource, declaration: Declaration): WithdrawalView {
  if (found.request) return { step: "done", receipt: { number: found.order.number, status: found.order.status, ...found.request, alreadyRequested: true } };
  const refusal = withdrawalRefusal(found.order.status);
  if (refusal) return { step: "refused", number: found.order.number, source, failure: refusedFailure(refusal) };
  return { step: "confirm", order: found.order, source, ...declaration };
}

export const NOT_IN_ACCOUNT: WithdrawalFailure = {
  title: "Commande introuvable dans votre compte",
  description: "Indiquez son numéro et l'adresse e-mail donnée à la commande : le formulaire ci-dessous la retrouve.",
};

/**
 * What the page shows on arrival: a signed-in customer coming from one of their orders
 * (?commande=) goes straight to its confirmation; everybody else gets the form, with the
 * number filled in when the link gave one.
 */
export async function withdrawalPageView(db: Db, viewer: Viewer | null, number: string): Promise<WithdrawalView> {
  const orderNumber = number.trim().toUpperCase().slice(0, 40);
  if (!viewer || !orderNumber) return { step: "form", values: { orderNumber } };
  const found = await findWithdrawalOrder(db, { kind: "account", userId: viewer.id, email: viewer.email, orderNumber });
  if (!found) return { step: "form", values: { orderNumber }, failure: NOT_IN_ACCOUNT };
  return viewOf(found, "account", { email: viewer.email, customerName: viewer.name });
}

const SESSION_ENDED: WithdrawalFailure = {
  title: "Session expirée",
  description: "Vous n'êtes plus connecté : indiquez le numéro de la commande et son adresse e-mail pour continuer.",
};

const FIX_FIELDS: WithdrawalFailure = { title: "Champs à corriger", description: "Vérifiez le numéro de commande et l'adresse e-mail." };

export type WithdrawalPostResult = { status: number; view: WithdrawalView; created: boolean; retryAfterMs?: number };

const textOf = (value: unknown) => (typeof value === "string" ? sliceText(value, 300) : "");

/**
 * A post of /retractation: "lookup" (the guest form, step 1 → 2) or "confirm" (step 2 → 3, with
 * the consumer's name). A guest's every post is checked again from scratch (number and e-mail
 * are sent with the confirmation) and counted against the address's limit; a signed-in
 * customer's order is looked up in their account.
 */
export async function withdrawalPost(deps: WithdrawalDeps, post: { form: Record<string, unknown>; viewer: Viewer | null; clientIp: string }): Promise<WithdrawalPostResult> {
  const { form, viewer } = post;
  const values = { orderNumber: textOf(form.orderNumber), email: textOf(form.email) };
  const schema = withdrawalLookupSchema(deps.orderPrefix);
  let lookup: WithdrawalLookup;
  if (form.source === "account") {
    if (!viewer) return { status: 401, created: false, view: { step: "form", values, failure: SESSION_ENDED } };
    const number = schema.shape.orderNumber.safeParse(form.orderNumber);
    if (!number.success) return { status: 404, created: false, view: { step: "form", values, failure: NOT_IN_ACCOUNT } };
    lookup = { kind: "account", userId: viewer.id, email: viewer.email, orderNumber: number.data };
  } else {
    const parsed = schema.safeParse(form);
    if (!parsed.success) return { status: 400, created: false, view: { step: "form", values, failure: FIX_FIELDS, fieldErrors: fieldErrors(parsed.error) } };
    const limit = await consumeRateLimit(deps.db, "withdrawalPerIp", post.clientIp);
    if (limit.blocked) {
      const failure = { title: "Trop de tentatives", description: tooManyAttemptsMessage(limit.retryAfterMs) };
      return { status: 429, created: false, retryAfterMs: limit.retryAfterMs, view: { step: "form", values, failure } };
    }
    lookup = { kind: "guest", ...parsed.data };
  }
  const notFound: WithdrawalPostResult = { status: 404, created: false, view: { step: "form", values, failure: lookup.kind === "account" ? NOT_IN_ACCOUNT : WITHDRAWAL_NOT_FOUND } };

  // The name and the articles come with the confirmation button: a lookup shows the confirmation
  // with the account's name filled in (a guest's empty) and every unit chosen; a confirmation
  // refused (withdrawalConfirmSchema, on the order's articles) shows it again, nothing written.
  const confirming = form.intent === "confirm";
  const found = await findWithdrawalOrder(deps.db, lookup);
  if (!found) return notFound;
  const parsed = confirming && !found.request ? withdrawalConfirmSchema(found.order.lines).safeParse(form) : null;
  if (!parsed?.success) {
    const typed = Object.entries(form).filter(([key]) => key.startsWith(QUANTITY_FIELD_PREFIX));
    const quantities = confirming && typed.length ? Object.fromEntries(typed.map(([key, value]) => [key, textOf(value)])) : undefined;
    const declaration: Declaration = {
      // Where requestWithdrawal sends the acknowledgement.
      email: lookup.kind === "account" ? lookup.email : (found.customerEmail ?? lookup.email),
      customerName: confirming ? textOf(form.customerName) : lookup.kind === "account" && viewer ? viewer.name : "",
      ...(quantities ? { quantities } : {}),
      ...(parsed?.error ? { fieldErrors: fieldErrors(parsed.error) } : {}),
    };
    const view = viewOf(found, sourceOf(lookup), declaration);
    const status = view.step === "refused" ? 409 : view.step === "confirm" && view.fieldErrors ? 400 : 200;
    return { status, created: false, view };
  }
  const outcome = await requestWithdrawal(deps, lookup, parsed.data.customerName, parsed.data.lines);
  if (!outcome.ok) {
    if (outcome.status === 404) return notFound;
    if (outcome.status === 400) {
      const declaration: Declaration = { email: lookup.kind === "account" ? lookup.email : (found.customerEmail ?? lookup.email), customerName: parsed.data.customerName, fieldErrors: { form: outcome.failure.description } };
      return { status: 400, created: false, view: viewOf(found, sourceOf(lookup), declaration) };
    }
    return { status: 409, created: false, view: { step: "refused", number: lookup.orderNumber, source: sourceOf(lookup), failure: outcome.failure } };
  }
  return { status: 200, created: outcome.created, view: { step: "done", receipt: outcome.receipt } };
}
