/**
 * Cutting a short delivery fairly among pre-orders (issue 55, point 2): pure rules, replayable.
 *
 * - "order": first placed, first served; an order is served whole while units remain, and the
 *   first one that no longer fits gets what is left (2 of 3), the later ones nothing.
 * - "draw": the customers in the order a seeded draw gives (one ticket per customer, however many
 *   units they asked: services/preorders.server.ts ranks them by an HMAC of the seed), then served
 *   one unit per customer per round in that order, so that as many customers as possible get one
 *   before anyone gets a second.
 */

export type PreorderClaim = {
  orderId: string;
  /** Who the per-customer limit counts (account, normalised e-mail or address key). */
  customerKey: string;
  units: number;
  /** When it was placed, then its sequence: the "order" rule's order. */
  placedAt: Date;
  seq: number;
};

export type AllocationRule = "order" | "draw";

export type OrderAllocation = { orderId: string; customerKey: string; ordered: number; allocated: number; refunded: number };

export type Allocation = { rule: AllocationRule; received: number; allocated: number; orders: OrderAllocation[] };

const byPlacement = (a: PreorderClaim, b: PreorderClaim) => a.placedAt.getTime() - b.placedAt.getTime() || a.seq - b.seq;

function result(rule: AllocationRule, received: number, claims: readonly PreorderClaim[], given: Map<string, number>): Allocation {
  const orders = [...claims].sort(byPlacement).map((claim) => {
    const allocated = given.get(claim.orderId) ?? 0;
    return { orderId: claim.orderId, customerKey: claim.customerKey, ordered: claim.units, allocated, refunded: claim.units - allocated };
  });
  return { rule, received, allocated: orders.reduce((sum, order) => sum + order.allocated, 0), orders };
}

function checkInput(claims: readonly PreorderClaim[], received: number) {
  if (!Number.isSafeInteger(received) || received < 0) throw new RangeError(`units received: ${received}`);
  for (const claim of claims) if (!Number.isSafeInteger(claim.units) || claim.units <= 0) throw new RangeError(`units of ${claim.orderId}: ${claim.units}`);
  if (new Set(claims.map((claim) => claim.orderId)).size !== claims.length) throw new RangeError("an order is claimed twice");
}

/** First placed, first served. */
export function allocateByOrder(claims: readonly PreorderClaim[], received: number): Allocation {
  checkInput(claims, received);
  const given = new Map<string, number>();
  let left = received;
  for (const claim of [...claims].sort(byPlacement)) {
    const units = Math.min(claim.units, left);
    given.set(claim.orderId, units);
    left -= units;
  }
  return result("order", received, claims, given);
}

/**
 * Served round by round in `drawnCustomers`' order (every customer with a claim must be in it,
 * once): each round gives one unit to each customer who still wants one, a customer's units going
 * to their earliest order first.
 */
export function allocateByDraw(claims: readonly PreorderClaim[], received: number, drawnCustomers: readonly string[]): Allocation {
  checkInput(claims, received);
  const wanting = new Map<string, PreorderClaim[]>();
  for (const claim of [...claims].sort(byPlacement)) wanting.set(claim.customerKey, [...(wanting.get(claim.customerKey) ?? []), claim]);
  if (drawnCustomers.length !== wanting.size || new Set(drawnCustomers).size !== drawnCustomers.length || drawnCustomers.some((key) => !wanting.has(key))) {
    throw new RangeError("the draw must name every customer with a pre-order, once");
  }
  const given = new Map<string, number>();
  let left = received;
  let servedThisRound = true;
  while (left > 0 && servedThisRound) {
    servedThisRound = false;
    for (const customer of drawnCustomers) {
      if (left === 0) break;
      const next = wanting.get(customer)!.find((claim) => (given.get(claim.orderId) ?? 0) < claim.units);
      if (!next) continue;
      given.set(next.orderId, (given.get(next.orderId) ?? 0) + 1);
      left -= 1;
      servedThisRound = true;
    }
  }
  return result("draw", received, claims, given);
}

/**
 * The customers in the draw's order: sorted by their ticket, a value the seed decides for each
 * (the service gives an HMAC-SHA256 of the customer's key under the seed, so the seed alone
 * replays the draw and nobody can choose their place).
 */
export function drawOrder(customerKeys: Iterable<string>, ticket: (customerKey: string) => string): string[] {
  return [...new Set(customerKeys)]
    .map((key) => ({ key, ticket: ticket(key) }))
    .sort((a, b) => (a.ticket < b.ticket ? -1 : a.ticket > b.ticket ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((entry) => entry.key);
}

const ALLOCATION_REFUND_KEY = "preorder-allocation:";

/** The refund key of an order's missing units in an allocation: one refund per order and allocation, however many applies. */
export function allocationRefundKey(allocationId: string): string {
  return `${ALLOCATION_REFUND_KEY}${allocationId}`;
}

export function isAllocationRefundKey(requestKey: string): boolean {
  return requestKey.startsWith(ALLOCATION_REFUND_KEY);
}
