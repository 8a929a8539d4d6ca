import { formatEuros } from "./money";
import { formatParisDate } from "./paris-time";

/**
 * Whether a product's struck-through former price (compareAtCents) may be shown, from its price
 * history (table product_prices, written by a trigger on every price a product takes).
 *
 * Code de la consommation L112-1-1: an announced reduction states the price applied before it,
 * which is the lowest price the seller applied to all consumers during the 30 days before the
 * reduction took effect. Read here strictly:
 * - the reduction took effect when the current price did (the last price in the history);
 * - the reference price is the lowest price in force at any moment of the 30 days before that;
 * - the former price shown must be above the current price (else it announces no reduction) and
 *   at most that reference price (a higher one would overstate the reduction);
 * - the history must cover those 30 days whole: a product on sale for less long, or whose history
 *   does not reach back that far, shows no former price (nothing proves what was applied).
 * Successive reductions are not chained: each new price starts its own 30 days.
 * Pure and without a clock: the decision only moves when the price or the former price changes,
 * which changes the product (its cached page is purged then).
 */

export const REFERENCE_PERIOD_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** One price and when it took effect; the history lists them in the order they were written. */
export type PricePoint = { priceCents: number; effectiveFrom: Date };

export type CompareAtDecision =
  | { shown: true; compareAtCents: number; referenceCents: number }
  | { shown: false; reason: "no-compare-at" }
  | { shown: false; reason: "not-a-reduction"; compareAtCents: number; priceCents: number }
  /** `firstKnown`: the history's first price, or null when there is none or it is not the current price's. */
  | { shown: false; reason: "no-history"; compareAtCents: number; currentSince: Date | null; firstKnown: Date | null }
  | { shown: false; reason: "above-reference"; compareAtCents: number; referenceCents: number };

/**
 * The lowest price in force during the 30 days before the last price of `history` took effect,
 * and when that price took effect; null when the history does not cover those 30 days whole (or
 * is empty). A price replaced at the same instant it was set (one transaction writing twice) was
 * never applied and does not count.
 */
export function referencePrice(history: readonly PricePoint[]): { referenceCents: number; currentSince: Date } | null {
  const points = history.map((point, order) => ({ ...point, at: point.effectiveFrom.getTime(), order })).sort((a, b) => a.at - b.at || a.order - b.order);
  const current = points.at(-1);
  if (!current) return null;
  const windowStart = current.at - REFERENCE_PERIOD_DAYS * DAY_MS;
  if (points[0]!.at > windowStart) return null;
  let lowest: number | null = null;
  for (let i = 0; i < points.length - 1; i++) {
    const from = points[i]!.at;
    const until = points[i + 1]!.at;
    // In force during [from, until): does it meet [windowStart, current.at) for a while?
    if (until > from && until > windowStart && from < current.at) lowest = Math.min(lowest ?? Infinity, points[i]!.priceCents);
  }
  return lowest === null ? null : { referenceCents: lowest, currentSince: current.effectiveFrom };
}

/** Whether `compareAtCents` may be shown struck through beside `priceCents`, and why not. */
export function compareAtDecision(input: { priceCents: number; compareAtCents: number | null; history: readonly PricePoint[] }): CompareAtDecision {
  const { priceCents, compareAtCents, history } = input;
  if (compareAtCents === null) return { shown: false, reason: "no-compare-at" };
  if (compareAtCents <= priceCents) return { shown: false, reason: "not-a-reduction", compareAtCents, priceCents };
  const last = history.reduce<PricePoint | null>((latest, point) => (latest === null || point.effectiveFrom.getTime() >= latest.effectiveFrom.getTime() ? point : latest), null);
  // A history that does not end on the price shown says nothing about it.
  const reference = last?.priceCents === priceCents ? referencePrice(history) : null;
  if (!reference) {
    const first = history.reduce<Date | null>((earliest, point) => (earliest === null || point.effectiveFrom < earliest ? point.effectiveFrom : earliest), null);
    return { shown: false, reason: "no-history", compareAtCents, currentSince: last?.priceCents === priceCents ? last.effectiveFrom : null, firstKnown: last?.priceCents === priceCents ? first : null };
  }
  if (compareAtCents > reference.referenceCents) return { shown: false, reason: "above-reference", compareAtCents, referenceCents: reference.referenceCents };
  return { shown: true, compareAtCents, referenceCents: reference.referenceCents };
}

/**
 * Why the former price is not shown, for the admin ("Prix barré non affiché : …"); null when it
 * is shown or there is none.
 */
export function compareAtRefusal(decision: CompareAtDecision): string | null {
  if (decision.shown) return null;
  const days = REFERENCE_PERIOD_DAYS;
  switch (decision.reason) {
    case "no-compare-at":
      return null;
    case "not-a-reduction":
      return `ce n'est pas une réduction (${formatEuros(decision.compareAtCents)} n'est pas au-dessus du prix de ${formatEuros(decision.priceCents)}).`;
    case "no-history": {
      const { currentSince, firstKnown } = decision;
      if (!currentSince || !firstKnown) return `aucun historique de prix sur les ${days} jours précédant ce prix.`;
      if (firstKnown.getTime() === currentSince.getTime()) {
        return `le prix actuel est le premier connu (depuis le ${formatParisDate(currentSince)}) ; une baisse ne peut s'annoncer qu'avec ${days} jours d'historique de prix avant elle.`;
      }
      return `l'historique des prix ne couvre pas les ${days} jours précédant le prix actuel (premier prix connu le ${formatParisDate(firstKnown)}, prix actuel depuis le ${formatParisDate(currentSince)}).`;
    }
    case "above-reference":
      return `${formatEuros(decision.compareAtCents)} dépasse le prix le plus bas des ${days} jours précédant la baisse (${formatEuros(decision.referenceCents)}), qui est le prix de référence (article L112-1-1 du Code de la consommation).`;
  }
}
