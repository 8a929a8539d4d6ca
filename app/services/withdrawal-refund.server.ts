import { and, eq, isNull } from "drizzle-orm";
import { orders, withdrawalRequests } from "~/db/schema";
import type { Db } from "~/db/types";
import { fieldErrors } from "~/domain/auth-forms";
import { formatEuros } from "~/domain/money";
import { ORDER_NOT_FOUND, REFUND_PROVIDER_FAILED, otherProviderMessage } from "~/domain/order-workflow";
import { refundableRest } from "~/domain/partial-refund";
import { withdrawalReturnFormSchema } from "~/domain/withdrawal-return-form";
import type { OrderActionResult } from "./admin-orders.server";
import type { WebhookDeps } from "./payment-webhooks.server";
import type { PaymentProvider } from "./payments/types";
import { priorRefunds, refundPartOfOrder, refundableOrder } from "./partial-refunds.server";
import { getOrderWithdrawal } from "./withdrawal.server";

/**
 * « Marquer le retour reçu » (a shipped order) and « Rembourser la rétractation » (a paid one
 * whose withdrawal covers only some articles): refunds what the customer withdrew through the
 * partial refunds (services/partial-refunds.server.ts), priced from the order's stored lines:
 * - the articles and units of the withdrawal, each put back in stock or not as the seller ticks;
 * - the delivery and the insurance (what is left of them) only when every unit of the order is
 *   withdrawn (L221-24: the standard delivery is refunded with a whole withdrawal);
 * - less an optional deduction for depreciation with its reason (L221-23), shipped orders only.
 * The refund's key is "withdrawal:<request id>": a second click, or a retry after a provider
 * failure, finds the same refund and refunds nothing more. The request then keeps when the return
 * was received and which refund settled it.
 */
export async function refundAdminWithdrawal(db: Db, provider: PaymentProvider, number: string, form: unknown, actorId: string, deps: WebhookDeps): Promise<OrderActionResult> {
  const failed = "Remboursement non effectué";
  const parsed = withdrawalReturnFormSchema.safeParse(form);
  if (!parsed.success) return { ok: false, status: 400, title: failed, message: "Vérifiez les champs signalés.", fieldErrors: fieldErrors(parsed.error) };
  const [order] = await db.select().from(orders).where(eq(orders.number, number));
  if (!order) return { ok: false, status: 404, title: "Commande introuvable", message: ORDER_NOT_FOUND };
  const withdrawal = await getOrderWithdrawal(db, order.id);
  if (!withdrawal) return { ok: false, status: 404, title: failed, message: "Aucune rétractation n'a été demandée pour cette commande." };
  if (withdrawal.refund) {
    return { ok: true, status: 200, title: "Rétractation déjà remboursée", message: `${formatEuros(withdrawal.refund.amountCents)} ont déjà été remboursés pour cette rétractation : rien de plus n'est remboursé.` };
  }
  if (order.paymentProvider !== provider.name) return { ok: false, status: 409, title: "Action impossible", message: otherProviderMessage(order.paymentProvider) };
  const { deduction, reason } = parsed.data;
  if (deduction > 0 && order.status !== "shipped") {
    const message = "Une déduction pour dépréciation ne s'applique qu'à des articles expédiés puis retournés.";
    return { ok: false, status: 400, title: failed, message, fieldErrors: { deduction: message } };
  }
  const rest = refundableRest(await refundableOrder(db, order), await priorRefunds(db, order.id));
  const restock = parsed.data as Record<string, unknown>;
  const request = {
    lines: withdrawal.lines.map((line) => ({ orderItemId: line.orderItemId, quantity: line.quantity, restock: restock[`restock:${line.orderItemId}`] === "on" })),
    shippingCents: withdrawal.whole ? Math.max(0, rest.shippingCents) : 0,
    insuranceCents: withdrawal.whole ? Math.max(0, rest.insuranceCents) : 0,
    adjustment: deduction > 0 ? { kind: "depreciation" as const, cents: deduction, reason } : null,
  };
  const now = deps.now?.() ?? new Date();
  const result = await refundPartOfOrder(db, provider, { orderId: order.id, requestKey: `withdrawal:${withdrawal.id}`, request, actorId }, deps);
  if (!result.ok) {
    if (result.status === 502) {
      // The refund waits at the provider (the sweeper or a new click finishes it, same key): the return is received.
      if (order.status === "shipped") await db.update(withdrawalRequests).set({ receivedAt: now }).where(and(eq(withdrawalRequests.id, withdrawal.id), isNull(withdrawalRequests.receivedAt)));
      return { ok: false, status: 502, title: "Remboursement en attente", message: REFUND_PROVIDER_FAILED };
    }
    return { ok: false, status: result.status, title: failed, message: result.message, fieldErrors: { form: result.message } };
  }
  await db
    .update(withdrawalRequests)
    .set({ refundId: result.refund.id, ...(order.status === "shipped" && !withdrawal.receivedAt ? { receivedAt: now } : {}) })
    .where(eq(withdrawalRequests.id, withdrawal.id));
  const note = result.refund.creditNoteNumber ? ` Avoir ${result.refund.creditNoteNumber}.` : "";
  return { ok: true, status: 200, title: "Rétractation remboursée", message: `${formatEuros(result.refund.amountCents)} remboursés au client, prévenu par e-mail.${note}` };
}
