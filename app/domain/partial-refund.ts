import type { VatBreakdownRow } from "./invoice";
import { formatEuros } from "./money";
import type { VatRateBp, VatScheme } from "./vat";
import { type RatedAmount, formatVatRate, splitProRata, vatByRate } from "./vat-allocation";
import { SIGNATURE_DELIVERY_LABEL } from "./signature-delivery";

/**
 * What a refund gives back, computed from the order as it was sold (its stored lines, the charges'
 * parts by rate as its invoice shows them), never from the seller's form: the form says which
 * articles and how many, how much of the delivery, and an amount with its reason; this says what
 * that is worth, by rate, and refuses what was already given back (docs/decisions/042).
 *
 * - An article's k units of n are worth its net total × (r + k) / n − its net × r / n, where r
 *   units went back before (each rounded to the cent): the refunds of every unit sum to the line
 *   exactly, however they were split.
 * - The delivery (and the insurance) likewise over their parts by rate.
 * - A goodwill amount is spread over what is left at each rate; a deduction for depreciation is
 *   taken from the articles refunded, in proportion to them.
 * - The VAT is that of each rate's total (CGI art. 242 nonies A), as on the invoice; the refund
 *   that closes the order takes exactly what is left of each rate, so the credit notes of an
 *   order add up to its invoice to the cent.
 */

export const REFUND_STATUSES = ["pending", "refunded"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const REFUND_ADJUSTMENT_KINDS = ["goodwill", "depreciation"] as const;
export type RefundAdjustmentKind = (typeof REFUND_ADJUSTMENT_KINDS)[number];
export const REFUND_ADJUSTMENT_LABELS: Record<RefundAdjustmentKind, string> = {
  goodwill: "Geste commercial",
  depreciation: "Déduction pour dépréciation",
};

/** Where an amount's VAT goes: a rate, the margin scheme (no VAT shown) or none (franchise). */
export type VatBucket = VatRateBp | "margin" | "none";

/** An article of the order as it was sold: its net total after its share of the discount. */
export type RefundableLine = {
  orderItemId: string;
  name: string;
  quantity: number;
  unitPriceCents: number;
  netCents: number;
  bucket: VatBucket;
  vatScheme: VatScheme;
};

/** A charge's part at a rate (or its whole, under the franchise: bucket "none"). */
export type ChargeBucketPart = { bucket: VatBucket; totalCents: number };

export type RefundableOrder = {
  totalCents: number;
  lines: RefundableLine[];
  shipping: ChargeBucketPart[];
  insurance: ChargeBucketPart[];
  /** The order's VAT by rate and its margin-scheme goods, as the invoice shows them. */
  vatBreakdown: VatBreakdownRow[];
  marginSchemeCents: number;
};

/** An article refunded, as a refund and its credit note keep it. */
export type RefundLine = {
  orderItemId: string;
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
  rateBp: VatRateBp | null;
  vatScheme: VatScheme;
  restock: boolean;
};

/** A refund's charges and adjustment by rate, as kept with it. */
export type RefundParts = { shipping: ChargeBucketPart[]; insurance: ChargeBucketPart[]; adjustment: ChargeBucketPart[] };

/** What an earlier refund (pending or done) already gave back. */
export type PriorRefund = {
  amountCents: number;
  lines: readonly Pick<RefundLine, "orderItemId" | "quantity">[];
  shippingCents: number;
  insuranceCents: number;
  vatBreakdown: readonly VatBreakdownRow[];
  marginSchemeCents: number;
  /** Its charges' parts by rate (refunds written before partial refunds closed their order: none). */
  parts?: RefundParts;
};

export type RefundRequest = {
  lines: { orderItemId: string; quantity: number; restock: boolean }[];
  shippingCents: number;
  insuranceCents: number;
  adjustment: { kind: RefundAdjustmentKind; cents: number; reason: string } | null;
};

export type ComputedRefund = {
  amountCents: number;
  lines: RefundLine[];
  shippingCents: number;
  insuranceCents: number;
  shippingParts: ChargeBucketPart[];
  insuranceParts: ChargeBucketPart[];
  adjustment: { kind: RefundAdjustmentKind; cents: number; reason: string; parts: ChargeBucketPart[] } | null;
  vatBreakdown: VatBreakdownRow[];
  marginSchemeCents: number;
  closesOrder: boolean;
};

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** What is left to give back of an order, by article, charge and in all. */
export function refundableRest(order: RefundableOrder, prior: readonly PriorRefund[]) {
  const refundedUnits = new Map<string, number>();
  for (const refund of prior) for (const line of refund.lines) refundedUnits.set(line.orderItemId, (refundedUnits.get(line.orderItemId) ?? 0) + line.quantity);
  const shippingCents = sum(order.shipping.map((part) => part.totalCents));
  const insuranceCents = sum(order.insurance.map((part) => part.totalCents));
  return {
    refundedUnits,
    units: new Map(order.lines.map((line) => [line.orderItemId, line.quantity - (refundedUnits.get(line.orderItemId) ?? 0)])),
    shippingCents: shippingCents - sum(prior.map((refund) => refund.shippingCents)),
    insuranceCents: insuranceCents - sum(prior.map((refund) => refund.insuranceCents)),
    totalCents: order.totalCents - sum(prior.map((refund) => refund.amountCents)),
  };
}

/** A request for everything not yet given back: the refund of a cancellation or a whole withdrawal. */
export function wholeRestRequest(order: RefundableOrder, prior: readonly PriorRefund[], restock: boolean): RefundRequest {
  const rest = refundableRest(order, prior);
  return {
    lines: order.lines.filter((line) => (rest.units.get(line.orderItemId) ?? 0) > 0).map((line) => ({ orderItemId: line.orderItemId, quantity: rest.units.get(line.orderItemId)!, restock })),
    shippingCents: rest.shippingCents,
    insuranceCents: rest.insuranceCents,
    adjustment: null,
  };
}

/** `k` more of `of`, after `before` of it went back: its cumulative share, rounded, less what was given. */
const shareOf = (total: number, of: number, before: number, k: number) => Math.round((total * (before + k)) / of) - Math.round((total * before) / of);

/**
 * A charge's parts for `cents` more of it: in proportion to what is left of each part after the
 * earlier refunds (largest remainder), so no part is ever given back below zero or beyond itself.
 */
function chargeParts(parts: readonly ChargeBucketPart[], given: readonly ChargeBucketPart[], cents: number): ChargeBucketPart[] {
  if (cents === 0) return [];
  const left = parts.map((part) => part.totalCents - sum(given.filter((done) => done.bucket === part.bucket).map((done) => done.totalCents)));
  const split = splitProRata(cents, left.map((value) => Math.max(0, value)));
  return parts.map((part, i) => ({ bucket: part.bucket, totalCents: split[i]! })).filter((part) => part.totalCents !== 0);
}

function byBucket(amounts: readonly ChargeBucketPart[]): Map<VatBucket, number> {
  const totals = new Map<VatBucket, number>();
  for (const amount of amounts) totals.set(amount.bucket, (totals.get(amount.bucket) ?? 0) + amount.totalCents);
  return totals;
}

function bucketOfLine(order: RefundableOrder, orderItemId: string): VatBucket {
  return order.lines.find((line) => line.orderItemId === orderItemId)!.bucket;
}

/** What the order holds at each bucket: its rates' totals, its margin-scheme goods, the rest (franchise). */
function orderBuckets(order: RefundableOrder): Map<VatBucket, number> {
  const totals = new Map<VatBucket, number>(order.vatBreakdown.map((row) => [row.rateBp, row.totalCents]));
  if (order.marginSchemeCents) totals.set("margin", order.marginSchemeCents);
  const none = order.totalCents - sum(order.vatBreakdown.map((row) => row.totalCents)) - order.marginSchemeCents;
  if (none) totals.set("none", none);
  return totals;
}

function priorBuckets(prior: readonly PriorRefund[]): Map<VatBucket, number> {
  const totals = new Map<VatBucket, number>();
  const add = (bucket: VatBucket, cents: number) => cents && totals.set(bucket, (totals.get(bucket) ?? 0) + cents);
  for (const refund of prior) {
    for (const row of refund.vatBreakdown) add(row.rateBp, row.totalCents);
    add("margin", refund.marginSchemeCents);
    add("none", refund.amountCents - sum(refund.vatBreakdown.map((row) => row.totalCents)) - refund.marginSchemeCents);
  }
  return totals;
}

/** What is left of each of the order's rates and of its margin-scheme goods after the `prior` refunds. */
export function restOfRates(order: RefundableOrder, prior: readonly PriorRefund[]): { vatBreakdown: VatBreakdownRow[]; marginSchemeCents: number } {
  const given = prior.flatMap((refund) => refund.vatBreakdown);
  const left = (row: VatBreakdownRow, key: "baseCents" | "vatCents" | "totalCents") => row[key] - sum(given.filter((done) => done.rateBp === row.rateBp).map((done) => done[key]));
  return {
    vatBreakdown: order.vatBreakdown
      .map((row) => ({ rateBp: row.rateBp, baseCents: left(row, "baseCents"), vatCents: left(row, "vatCents"), totalCents: left(row, "totalCents") }))
      // A rate whose TTC is all given back may still owe a cent of base against one of VAT.
      .filter((row) => row.totalCents !== 0 || row.baseCents !== 0 || row.vatCents !== 0),
    marginSchemeCents: order.marginSchemeCents - sum(prior.map((refund) => refund.marginSchemeCents)),
  };
}

/**
 * The refund of everything not yet given back (a cancellation, a late payment, a whole
 * withdrawal): the articles and charges left, and the money an earlier deduction kept, so that
 * it closes the order at the rates left. Units are not put back here: the cancellation does it.
 */
export function wholeRestRefund(order: RefundableOrder, prior: readonly PriorRefund[]): ComputedRefund | null {
  const rest = refundableRest(order, prior);
  if (rest.totalCents <= 0) return null;
  const request = wholeRestRequest(order, prior, false);
  const computed = computeRefund(order, prior, request);
  const base = computed.ok ? computed.refund : { lines: [], shippingCents: 0, insuranceCents: 0, shippingParts: [], insuranceParts: [], adjustment: null };
  const goodsCents = computed.ok ? computed.refund.amountCents : 0;
  // The money an earlier deduction kept: what is left of each rate beyond these articles and charges.
  const taken = byBucket(computed.ok ? [...computed.refund.lines.map((line) => ({ bucket: bucketOfLine(order, line.orderItemId), totalCents: line.totalCents })), ...computed.refund.shippingParts, ...computed.refund.insuranceParts] : []);
  const held = orderBuckets(order);
  const given = priorBuckets(prior);
  const balance = [...held.keys()]
    .map((bucket) => ({ bucket, totalCents: held.get(bucket)! - (given.get(bucket) ?? 0) - (taken.get(bucket) ?? 0) }))
    .filter((part) => part.totalCents !== 0);
  return {
    ...base,
    amountCents: rest.totalCents,
    adjustment: rest.totalCents > goodsCents ? { kind: "goodwill", cents: rest.totalCents - goodsCents, reason: "Solde de la commande", parts: balance } : null,
    ...restOfRates(order, prior),
    closesOrder: true,
  };
}

export type RefundComputation = { ok: true; refund: ComputedRefund } | { ok: false; error: string };

/**
 * The refund `request` asks for, on `order` after the `prior` refunds: its amount, its articles
 * and charges, its VAT by rate; or, in French, why it cannot be made.
 */
export function computeRefund(order: RefundableOrder, prior: readonly PriorRefund[], request: RefundRequest): RefundComputation {
  const rest = refundableRest(order, prior);
  const fail = (error: string): RefundComputation => ({ ok: false, error });
  const lines: RefundLine[] = [];
  const amounts: ChargeBucketPart[] = [];
  const seen = new Set<string>();
  for (const wanted of request.lines) {
    if (wanted.quantity === 0) continue;
    const line = order.lines.find((candidate) => candidate.orderItemId === wanted.orderItemId);
    if (!line || seen.has(line.orderItemId)) return fail("Un des articles choisis n'appartient pas à cette commande.");
    seen.add(line.orderItemId);
    const left = rest.units.get(line.orderItemId) ?? 0;
    if (!Number.isInteger(wanted.quantity) || wanted.quantity < 0) return fail(`Quantité invalide pour « ${line.name} ».`);
    if (wanted.quantity > left) return fail(left === 0 ? `« ${line.name} » a déjà été remboursé.` : `Quantité trop élevée pour « ${line.name} » : ${left} au plus reste${left > 1 ? "nt" : ""} à rembourser.`);
    const totalCents = shareOf(line.netCents, line.quantity, rest.refundedUnits.get(line.orderItemId) ?? 0, wanted.quantity);
    lines.push({
      orderItemId: line.orderItemId,
      name: line.name,
      quantity: wanted.quantity,
      unitPriceCents: line.unitPriceCents,
      totalCents,
      rateBp: typeof line.bucket === "number" ? line.bucket : null,
      vatScheme: line.vatScheme,
      restock: wanted.restock,
    });
    amounts.push({ bucket: line.bucket, totalCents });
  }
  for (const [cents, left, label] of [
    [request.shippingCents, rest.shippingCents, "La livraison"],
    [request.insuranceCents, rest.insuranceCents, `La ${SIGNATURE_DELIVERY_LABEL.toLowerCase()}`],
  ] as const) {
    if (!Number.isInteger(cents) || cents < 0) return fail(`${label} : montant invalide.`);
    if (cents > left) return fail(`${label} : ${formatEuros(Math.max(0, left))} au plus reste à rembourser.`);
  }
  const shippingParts = chargeParts(order.shipping, prior.flatMap((refund) => refund.parts?.shipping ?? []), request.shippingCents);
  const insuranceParts = chargeParts(order.insurance, prior.flatMap((refund) => refund.parts?.insurance ?? []), request.insuranceCents);
  amounts.push(...shippingParts, ...insuranceParts);

  let adjustment: ComputedRefund["adjustment"] = null;
  if (request.adjustment && request.adjustment.cents !== 0) {
    const { kind, cents, reason } = request.adjustment;
    if (!Number.isInteger(cents) || cents < 0) return fail("Le montant doit être positif.");
    if (!reason.trim()) return fail(kind === "goodwill" ? "Indiquez le motif du geste commercial." : "Indiquez le motif de la déduction (l'état de l'article retourné).");
    if (kind === "depreciation") {
      const goods = lines.map((line, i) => ({ bucket: amounts[i]!.bucket, totalCents: line.totalCents }));
      const goodsCents = sum(goods.map((line) => line.totalCents));
      if (goodsCents === 0) return fail("Une déduction pour dépréciation porte sur des articles retournés : choisissez-les.");
      if (cents >= goodsCents) return fail(`La déduction doit rester inférieure au prix des articles retournés (${formatEuros(goodsCents)}).`);
      const taken = splitProRata(cents, goods.map((line) => line.totalCents));
      const parts = goods.map((line, i) => ({ bucket: line.bucket, totalCents: -taken[i]! })).filter((part) => part.totalCents !== 0);
      adjustment = { kind, cents: -cents, reason: reason.trim(), parts };
    } else {
      // What is left at each bucket once this refund's articles and charges are taken.
      const held = orderBuckets(order);
      const given = priorBuckets(prior);
      const now = byBucket(amounts);
      const buckets = [...held.keys()];
      const room = buckets.map((bucket) => Math.max(0, held.get(bucket)! - (given.get(bucket) ?? 0) - (now.get(bucket) ?? 0)));
      if (cents > sum(room)) return fail(`Le remboursement dépasse ce qui reste à rembourser (${formatEuros(Math.max(0, rest.totalCents))}).`);
      const split = splitProRata(cents, room);
      adjustment = { kind, cents, reason: reason.trim(), parts: buckets.map((bucket, i) => ({ bucket, totalCents: split[i]! })).filter((part) => part.totalCents !== 0) };
    }
    amounts.push(...adjustment.parts);
  }

  const amountCents = sum(amounts.map((amount) => amount.totalCents));
  if (amountCents <= 0) return fail(lines.length || request.shippingCents || request.insuranceCents ? "Ce remboursement ne rend rien." : "Choisissez au moins un article, la livraison ou un montant à rembourser.");
  if (amountCents > rest.totalCents) return fail(`Le remboursement dépasse ce qui reste à rembourser (${formatEuros(Math.max(0, rest.totalCents))}).`);
  // Never more at a rate than is left of it: an earlier goodwill amount took its share of each rate.
  const held = orderBuckets(order);
  const given = priorBuckets(prior);
  for (const [bucket, cents] of byBucket(amounts)) {
    const left = (held.get(bucket) ?? 0) - (given.get(bucket) ?? 0);
    if (cents > left) {
      const where = typeof bucket === "number" ? `au taux de ${formatVatRate(bucket)}` : bucket === "margin" ? "sur les biens d'occasion" : "";
      return fail(`Ce remboursement rendrait ${formatEuros(cents)} ${where}, où ${formatEuros(Math.max(0, left))} seulement restent (un geste commercial déjà accordé en a pris une part) : retenez la différence par une déduction.`.replace("  ", " "));
    }
  }

  const closesOrder = amountCents === rest.totalCents;
  let vatBreakdown: VatBreakdownRow[];
  let marginSchemeCents: number;
  if (closesOrder) {
    // The last refund takes what is left of each rate: the order's credit notes add up to its invoice.
    ({ vatBreakdown, marginSchemeCents } = restOfRates(order, prior));
  } else {
    // One amount per rate (a deduction is negative beside its articles): the VAT of each rate's total.
    const rated: RatedAmount[] = [...byBucket(amounts)].flatMap(([bucket, totalCents]) => (typeof bucket === "number" ? [{ rateBp: bucket, totalCents }] : []));
    vatBreakdown = vatByRate(rated).rows;
    marginSchemeCents = sum(amounts.filter((amount) => amount.bucket === "margin").map((amount) => amount.totalCents));
  }
  return {
    ok: true,
    refund: {
      amountCents,
      lines,
      shippingCents: request.shippingCents,
      insuranceCents: request.insuranceCents,
      shippingParts,
      insuranceParts,
      adjustment,
      vatBreakdown,
      marginSchemeCents,
      closesOrder,
    },
  };
}
