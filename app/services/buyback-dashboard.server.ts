import { and, eq, gte, lt, sql } from "drizzle-orm";
import { buybackOffers, inboxEvents, purchaseLots, storeCreditAccounts } from "~/db/schema";
import type { Db } from "~/db/types";
import { periodRanges } from "~/domain/dashboard";

/**
 * The dashboard's buy-back figures over the last 30 days (issue 54, point 5), apart from the
 * sales figures: offers sent and accepted, purchases paid in credit or by transfer, units put
 * into stock, and the store credit the shop owes today (every balance).
 */
export type BuybackFigures = {
  days: number;
  offersSent: number;
  accepted: { count: number; cents: number };
  paidCredit: { count: number; cents: number };
  paidTransfer: { count: number; cents: number };
  unitsAdded: number;
  creditOutstandingCents: number;
};

export const BUYBACK_DASHBOARD_DAYS = 30;

const counted = { count: sql<number>`count(*)`.mapWith(Number) };

export async function dashboardBuyback(db: Db, now: Date): Promise<BuybackFigures> {
  const { from, to } = periodRanges(now, BUYBACK_DASHBOARD_DAYS).current;
  const eventsIn = (type: "offer" | "accepted") => and(eq(inboxEvents.type, type), gte(inboxEvents.createdAt, from), lt(inboxEvents.createdAt, to));
  const completedIn = (means: "credit" | "transfer") => and(eq(buybackOffers.paymentMeans, means), gte(buybackOffers.completedAt, from), lt(buybackOffers.completedAt, to));
  const paid = { ...counted, cents: sql<number>`coalesce(sum(${buybackOffers.paidCents}), 0)`.mapWith(Number) };
  const [[sent], [accepted], [credit], [transfer], [units], [outstanding]] = await Promise.all([
    db.select(counted).from(inboxEvents).where(eventsIn("offer")),
    // An adjustment accepted again is the same purchase: only the first acceptance counts.
    db
      .select({ ...counted, cents: sql<number>`coalesce(sum(${inboxEvents.amountCents}), 0)`.mapWith(Number) })
      .from(inboxEvents)
      .where(and(eventsIn("accepted"), eq(inboxEvents.fromStatus, "offre_envoyee"))),
    db.select(paid).from(buybackOffers).where(completedIn("credit")),
    db.select(paid).from(buybackOffers).where(completedIn("transfer")),
    db
      .select({ units: sql<number>`coalesce(sum(${purchaseLots.quantity}), 0)`.mapWith(Number) })
      .from(purchaseLots)
      .where(and(eq(purchaseLots.source, "buyback"), gte(purchaseLots.receivedAt, from), lt(purchaseLots.receivedAt, to))),
    db.select({ cents: sql<number>`coalesce(sum(${storeCreditAccounts.balanceCents}), 0)`.mapWith(Number) }).from(storeCreditAccounts),
  ]);
  return {
    days: BUYBACK_DASHBOARD_DAYS,
    offersSent: sent?.count ?? 0,
    accepted: { count: accepted?.count ?? 0, cents: accepted?.cents ?? 0 },
    paidCredit: { count: credit?.count ?? 0, cents: credit?.cents ?? 0 },
    paidTransfer: { count: transfer?.count ?? 0, cents: transfer?.cents ?? 0 },
    unitsAdded: units?.units ?? 0,
    creditOutstandingCents: outstanding?.cents ?? 0,
  };
}
