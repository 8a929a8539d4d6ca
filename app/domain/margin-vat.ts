import { z } from "zod";
import { exclVatOf } from "./vat-allocation";

/**
 * VAT on the margin of second-hand goods (CGI art. 297 A; docs/decisions/057): the base is the
 * sale price TTC less the purchase price, and the VAT is inside it (20/120 of a positive margin at
 * 20 %). Never shown to the buyer. Pure: the services read lots, order lines and refunds.
 */

/** Per sale (each line's own margin, a negative one counting 0) or per declaration period (globalisation, art. 297 A II). */
export const MARGIN_VAT_MODES = ["per_sale", "per_period"] as const;
export type MarginVatMode = (typeof MARGIN_VAT_MODES)[number];
export const DEFAULT_MARGIN_VAT_MODE: MarginVatMode = "per_sale";

export const marginVatModeSchema = z.object({
  mode: z.enum(MARGIN_VAT_MODES, { message: "Choisissez le calcul de la TVA sur la marge : par vente ou par période." }),
});

export const MARGIN_VAT_MODE_LABELS: Record<MarginVatMode, string> = {
  per_sale: "Par vente (marge de chaque article vendu ; une marge négative compte pour 0)",
  per_period: "Par période de déclaration (ventes du mois moins achats du mois, un excédent d'achats reporté sur le mois suivant)",
};

/** The flag of units sold with no purchase lot left: their margin cannot be computed. */
export const UNKNOWN_COST_FLAG = "prix d'achat inconnu";

/** The VAT inside a margin at a rate (20 %: 20/120), rounded as every TTC amount of the shop is; none on a margin of 0 or less. */
export function vatOnMargin(marginCents: number, rateBp: number): number {
  return marginCents > 0 ? marginCents - exclVatOf(marginCents, rateBp) : 0;
}

/** A lot as FIFO reads it, oldest first. */
export type LotStock = { lotId: number; remaining: number; unitCostCents: number };

/** Units of an order line: from a lot at its cost, or (lotId null) from no lot, their cost unknown. */
export type CostSegment = { lotId: number | null; quantity: number; unitCostCents: number | null };

/**
 * The units of a sale taken from the lots, oldest first (the lots come in FIFO order); the units no
 * lot has left make a last segment with no cost.
 */
export function allocateFifo(lots: readonly LotStock[], quantity: number): CostSegment[] {
  const segments: CostSegment[] = [];
  let left = quantity;
  for (const lot of lots) {
    if (left <= 0) break;
    const take = Math.min(lot.remaining, left);
    if (take <= 0) continue;
    segments.push({ lotId: lot.lotId, quantity: take, unitCostCents: lot.unitCostCents });
    left -= take;
  }
  if (left > 0) segments.push({ lotId: null, quantity: left, unitCostCents: null });
  return segments;
}

/**
 * The units given back by a refund, newest first (the last segment taken comes back first, so
 * units with no cost, taken last, come back before those of a lot): what each lot gets back.
 */
export function returnUnits(segments: readonly CostSegment[], quantity: number): { kept: CostSegment[]; returned: CostSegment[] } {
  const kept = segments.map((segment) => ({ ...segment }));
  const returned: CostSegment[] = [];
  let left = quantity;
  for (let i = kept.length - 1; i >= 0 && left > 0; i--) {
    const take = Math.min(kept[i]!.quantity, left);
    if (take <= 0) continue;
    kept[i]!.quantity -= take;
    returned.push({ ...kept[i]!, quantity: take });
    left -= take;
  }
  return { kept: kept.filter((segment) => segment.quantity > 0), returned };
}

/** A margin-scheme line as sold: its TTC after its share of the discount, its units and their cost. */
export type MarginLine = { netCents: number; quantity: number; rateBp: number; segments: readonly CostSegment[] };

/** A line's margin: the price of its units with a known cost, less that cost, its VAT; and the price of those without one. */
export type MarginFigures = { saleCents: number; costCents: number; marginCents: number; vatCents: number; unknownSaleCents: number; unknownUnits: number };

const ZERO: MarginFigures = { saleCents: 0, costCents: 0, marginCents: 0, vatCents: 0, unknownSaleCents: 0, unknownUnits: 0 };

export function lineMargin(line: MarginLine): MarginFigures {
  if (line.quantity <= 0) return { ...ZERO, unknownSaleCents: line.netCents };
  const known = line.segments.filter((segment) => segment.unitCostCents !== null);
  const knownUnits = known.reduce((sum, segment) => sum + segment.quantity, 0);
  const costCents = known.reduce((sum, segment) => sum + segment.quantity * segment.unitCostCents!, 0);
  // The line's price spread over its units evenly; the units with a cost take their share, rounded.
  const saleCents = Math.round((line.netCents * knownUnits) / line.quantity);
  const marginCents = saleCents - costCents;
  return { saleCents, costCents, marginCents, vatCents: vatOnMargin(marginCents, line.rateBp), unknownSaleCents: line.netCents - saleCents, unknownUnits: line.quantity - knownUnits };
}

/** A refund of a margin-scheme line: units and TTC given back (both ≥ 0; a goodwill gives money and no unit). */
export type MarginRefund = { quantity: number; totalCents: number };

/**
 * Per sale, the margin VAT of the line's invoice, then of each of its refunds in order (a credit
 * note's figures are the change it makes: negative when it lowers the margin). After a refund the
 * line is what is left of it: its price less what was given back, its units less those returned
 * (newest first, `returnUnits`).
 */
export function marginByDocument(line: MarginLine, refunds: readonly MarginRefund[]): MarginFigures[] {
  let state: MarginLine = line;
  let before = lineMargin(state);
  const documents = [before];
  for (const refund of refunds) {
    state = { ...state, netCents: state.netCents - refund.totalCents, quantity: state.quantity - refund.quantity, segments: returnUnits(state.segments, refund.quantity).kept };
    const after = lineMargin(state);
    documents.push({
      saleCents: after.saleCents - before.saleCents,
      costCents: after.costCents - before.costCents,
      marginCents: after.marginCents - before.marginCents,
      vatCents: after.vatCents - before.vatCents,
      unknownSaleCents: after.unknownSaleCents - before.unknownSaleCents,
      unknownUnits: after.unknownUnits - before.unknownUnits,
    });
    before = after;
  }
  return documents;
}

/** A declaration period's margin-scheme sales (TTC, less refunds) and purchases (lots received). */
export type PeriodTotals = { salesCents: number; purchasesCents: number };
export type PeriodMargin = { baseCents: number; vatCents: number; carriedOutCents: number };

/**
 * Globalisation (art. 297 A II): each period's base is its sales less its purchases and less the
 * purchases carried from the period before; a negative base is no VAT and its excess is carried
 * to the next period (never refunded).
 */
export function periodMargins(periods: readonly PeriodTotals[], rateBp: number, carriedInCents = 0): PeriodMargin[] {
  let carried = carriedInCents;
  return periods.map((period) => {
    const baseCents = period.salesCents - period.purchasesCents - carried;
    carried = baseCents < 0 ? -baseCents : 0;
    return { baseCents, vatCents: vatOnMargin(baseCents, rateBp), carriedOutCents: carried };
  });
}
