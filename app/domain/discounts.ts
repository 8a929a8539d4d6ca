import { z } from "zod";
import { type DiscountKind, DISCOUNT_KINDS } from "./catalog-values";
import { checkoutRequestSchema } from "./checkout";
import { formatEuros, parseEurosToCents } from "./money";
import { formatParisDate, formatParisShortDateTime, parisWallTime, parisWallTimeToUtc } from "./paris-time";
import { CODE_MAX_LENGTH, CODE_MIN_LENGTH, isWellFormedCode, normaliseDiscountCode } from "./discount-code";

export { CODE_MAX_LENGTH, CODE_MIN_LENGTH, isWellFormedCode, normaliseDiscountCode } from "./discount-code";

/**
 * Discount codes: the admin form's schema (the same in the browser and the action) and the rule
 * that decides what a code takes off a subtotal, or why it is refused, in French. Pure: the
 * service reads the row and the counts, this file decides. Ships to the browser (zod and Intl).
 */

const MAX_AMOUNT_OFF_CENTS = 10_000_000; // 100 000 €
const MAX_USES = 1_000_000;

// ---------------------------------------------------------------------------------------------
// The admin form

export const DISCOUNT_FORM_FIELDS = ["code", "kind", "value", "minSubtotal", "expiresDate", "expiresTime", "maxUses", "maxUsesPerCustomer", "isActive"] as const;
export type DiscountFormField = (typeof DISCOUNT_FORM_FIELDS)[number];

export type DiscountLimits = { minSubtotalCents: number; maxUses: number | null; maxUsesPerCustomer: number | null };
export type DiscountFormValues = DiscountLimits & {
  code: string;
  kind: DiscountKind;
  percentOff: number | null;
  amountOffCents: number | null;
  expiresAt: Date | null;
  isActive: boolean;
};

const text = z
  .string({ error: "Valeur invalide" })
  .optional()
  .transform((value) => (value ?? "").trim());

const limitsShape = { minSubtotal: text, maxUses: text, maxUsesPerCustomer: text };

type Fail = (field: DiscountFormField, message: string) => void;

function parseLimit(value: string, field: "maxUses" | "maxUsesPerCustomer", fail: Fail): number | null {
  if (value === "") return null;
  const n = Number(value.replace(/[\s\u00a0\u202f]/g, ""));
  if (!Number.isInteger(n) || n < 1 || n > MAX_USES) {
    fail(field, "Indiquez un nombre entier d'au moins 1, ou laissez vide pour ne pas limiter.");
    return null;
  }
  return n;
}

function parseLimits(raw: { minSubtotal: string; maxUses: string; maxUsesPerCustomer: string }, fail: Fail): DiscountLimits {
  let minSubtotalCents = 0;
  if (raw.minSubtotal !== "") {
    const cents = parseEurosToCents(raw.minSubtotal);
    if (cents === null || cents > MAX_AMOUNT_OFF_CENTS) fail("minSubtotal", "Indiquez un montant en euros, par exemple 30 ou 29,90.");
    else minSubtotalCents = cents;
  }
  const maxUses = parseLimit(raw.maxUses, "maxUses", fail);
  const maxUsesPerCustomer = parseLimit(raw.maxUsesPerCustomer, "maxUsesPerCustomer", fail);
  if (maxUses !== null && maxUsesPerCustomer !== null && maxUsesPerCustomer > maxUses) {
    fail("maxUsesPerCustomer", "La limite par client ne peut pas dépasser la limite totale.");
  }
  return { minSubtotalCents, maxUses, maxUsesPerCustomer };
}

/** A failing field makes the whole parse fail; the values are only read when none did. */
function collector(ctx: z.RefinementCtx) {
  const state = { failed: false };
  const fail: Fail = (field, message) => {
    state.failed = true;
    ctx.addIssue({ code: "custom", path: [field], message });
  };
  return { state, fail };
}

/** The minimum and the limits alone: what /admin/codes may change on the promotion's code. */
export const discountLimitsSchema = z.object(limitsShape).transform((raw, ctx): DiscountLimits => {
  const { state, fail } = collector(ctx);
  const limits = parseLimits(raw, fail);
  return state.failed ? z.NEVER : limits;
});

const TRUE_VALUES = new Set(["on", "true", "1"]);

/** Expiry typed as Paris wall time; no time means the end of that day (23:59). */
function parseExpiry(dateText: string, timeText: string, fail: Fail): Date | null {
  if (dateText === "") {
    if (timeText !== "") fail("expiresTime", "Choisissez d'abord une date d'expiration.");
    return null;
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateText);
  // Seconds only come back from a stored instant that had some (the promotion's expiry).
  const time = timeText === "" ? ["", "23", "59", "0"] : /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(timeText);
  const [year, month, day] = date ? [Number(date[1]), Number(date[2]), Number(date[3])] : [0, 0, 0];
  const [hour, minute, second] = time ? [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)] : [99, 99, 99];
  const real = new Date(Date.UTC(year, month - 1, day));
  if (!date || year < 2000 || year > 2100 || real.getUTCMonth() !== month - 1 || real.getUTCDate() !== day) {
    fail("expiresDate", "Date d'expiration invalide.");
    return null;
  }
  if (hour > 23 || minute > 59 || second > 59) {
    fail("expiresTime", "Heure invalide.");
    return null;
  }
  const instant = parisWallTimeToUtc(year, month, day, hour, minute, second);
  if (!instant) fail("expiresTime", "Cette heure n'existe pas ce jour-là (passage à l'heure d'été).");
  return instant;
}

/** The whole form: strings in (as posted), typed values ready for discount_codes out. */
export const discountFormSchema = z
  .object({ code: text, kind: text, value: text, expiresDate: text, expiresTime: text, isActive: text, ...limitsShape })
  .transform((raw, ctx): DiscountFormValues => {
    const { state, fail } = collector(ctx);
    const code = normaliseDiscountCode(raw.code);
    if (code === "") fail("code", "Le code est obligatoire.");
    else if (!isWellFormedCode(code)) {
      fail("code", `Le code doit faire de ${CODE_MIN_LENGTH} à ${CODE_MAX_LENGTH} caractères\u00a0: lettres, chiffres, tiret (-) ou tiret bas (_), sans espace ni accent.`);
    }

    let percentOff: number | null = null;
    let amountOffCents: number | null = null;
    const kind = (DISCOUNT_KINDS as readonly string[]).includes(raw.kind) ? (raw.kind as DiscountKind) : null;
    if (!kind) fail("kind", "Choisissez un pourcentage ou un montant fixe.");
    else if (kind === "percent") {
      const n = Number(raw.value.replace(/[\s\u00a0\u202f%]/g, ""));
      if (raw.value === "" || !Number.isInteger(n) || n < 1 || n > 100) fail("value", "Le pourcentage doit être un nombre entier de 1 à 100.");
      else percentOff = n;
    } else {
      const cents = parseEurosToCents(raw.value);
      if (cents === null || cents <= 0) fail("value", "Indiquez un montant supérieur à 0\u00a0€, par exemple 10 ou 4,50.");
      else if (cents > MAX_AMOUNT_OFF_CENTS) fail("value", `Le montant ne peut pas dépasser ${formatEuros(MAX_AMOUNT_OFF_CENTS)}.`);
      else amountOffCents = cents;
    }

    const expiresAt = parseExpiry(raw.expiresDate, raw.expiresTime, fail);
    const limits = parseLimits(raw, fail);
    if (state.failed || !kind) return z.NEVER;
    return { code, kind, percentOff, amountOffCents, expiresAt, isActive: TRUE_VALUES.has(raw.isActive.toLowerCase()), ...limits };
  });

export type DiscountFormInput = z.input<typeof discountFormSchema>;

/**
 * The form as the seller sends it now: also refuses an expiry already past (a new code that
 * could never be used), unless it is the code's stored one, kept while something else changes.
 */
export function discountFormSchemaAt({ now, storedExpiry = null }: { now: () => Date; storedExpiry?: Date | null }) {
  return discountFormSchema.superRefine((values, ctx) => {
    const expiry = values.expiresAt?.getTime();
    if (expiry !== undefined && expiry <= now().getTime() && expiry !== storedExpiry?.getTime()) {
      ctx.addIssue({ code: "custom", path: ["expiresDate"], message: "Cette date d'expiration est déjà passée." });
    }
  });
}

/** A stored code as the form shows it again (the inverse of the schema). */
export function discountFormDefaults(code: DiscountRule | null): Record<DiscountFormField, string> {
  if (!code) {
    return { code: "", kind: "percent", value: "", minSubtotal: "", expiresDate: "", expiresTime: "", maxUses: "", maxUsesPerCustomer: "", isActive: "on" };
  }
  const expiry = code.expiresAt ? parisWallTime(code.expiresAt) : null;
  return {
    code: code.code,
    kind: code.kind,
    value: code.kind === "percent" ? String(code.percentOff ?? "") : euroInput(code.amountOffCents ?? 0),
    minSubtotal: code.minSubtotalCents > 0 ? euroInput(code.minSubtotalCents) : "",
    expiresDate: expiry?.date ?? "",
    expiresTime: expiry?.time ?? "",
    maxUses: code.maxUses === null ? "" : String(code.maxUses),
    maxUsesPerCustomer: code.maxUsesPerCustomer === null ? "" : String(code.maxUsesPerCustomer),
    isActive: code.isActive ? "on" : "",
  };
}

/** 1050 → "10,50", 1000 → "10" (as a person types it). */
function euroInput(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------------------------
// The rule

/** What the rule needs of a stored code. */
export type DiscountRule = {
  code: string;
  kind: DiscountKind;
  percentOff: number | null;
  amountOffCents: number | null;
  minSubtotalCents: number;
  expiresAt: Date | null;
  maxUses: number | null;
  maxUsesPerCustomer: number | null;
  usedCount: number;
  reservedCount: number;
  isActive: boolean;
};

export type DiscountRefusalReason = "unknown" | "inactive" | "expired" | "limit" | "minimum" | "sign_in" | "customer_limit";
export type DiscountOutcome = { ok: true; discountCents: number } | { ok: false; reason: DiscountRefusalReason; message: string };

export const UNKNOWN_CODE_MESSAGE = "Ce code promo n'existe pas.";
export const LIMIT_REACHED_MESSAGE = "Ce code promo a atteint son nombre maximal d'utilisations.";

const refusal = (reason: DiscountRefusalReason, message: string): DiscountOutcome => ({ ok: false, reason, message });

/**
 * What a percentage or an amount takes off the products' subtotal, in cents. A percentage is
 * rounded UP to the cent (in the customer's favour: 15 % of 14,99 € is 2,25 €, not 2,24 €).
 * Never more than the subtotal; the "Remise contre signature" is never discounted.
 */
export function discountAmountCents(rule: Pick<DiscountRule, "kind" | "percentOff" | "amountOffCents">, subtotalCents: number): number {
  const raw = rule.kind === "percent" ? Math.ceil((subtotalCents * (rule.percentOff ?? 0)) / 100) : (rule.amountOffCents ?? 0);
  return Math.max(0, Math.min(raw, subtotalCents));
}

/**
 * Whether a code applies to a subtotal now, and for how much. `customerUses` is how many of
 * this customer's orders hold the code: undefined when not counted yet (the checkout counts
 * them after taking the code's lock), null when the customer is unknown (a guest without
 * e-mail), which a per-customer limit cannot be checked against.
 */
export function evaluateDiscount(
  rule: DiscountRule | null,
  input: { subtotalCents: number; now: Date; customerUses?: number | null },
): DiscountOutcome {
  if (!rule) return refusal("unknown", UNKNOWN_CODE_MESSAGE);
  if (!rule.isActive) return refusal("inactive", "Ce code promo n'est plus actif.");
  if (rule.expiresAt && rule.expiresAt.getTime() <= input.now.getTime()) {
    return refusal("expired", `Ce code promo a expiré le ${formatParisDate(rule.expiresAt)}.`);
  }
  if (rule.maxUses !== null && rule.usedCount + rule.reservedCount >= rule.maxUses) return refusal("limit", LIMIT_REACHED_MESSAGE);
  if (input.subtotalCents < rule.minSubtotalCents) {
    return refusal(
      "minimum",
      `Ce code promo s'applique à partir de ${formatEuros(rule.minSubtotalCents)} d'achats (hors remise contre signature)\u00a0: il manque ${formatEuros(rule.minSubtotalCents - input.subtotalCents)}.`,
    );
  }
  if (rule.maxUsesPerCustomer !== null && input.customerUses !== undefined) {
    if (input.customerUses === null) return refusal("sign_in", "Ce code promo est limité par client\u00a0: connectez-vous pour l'utiliser.");
    if (input.customerUses >= rule.maxUsesPerCustomer) {
      return refusal(
        "customer_limit",
        rule.maxUsesPerCustomer === 1
          ? "Vous avez déjà utilisé ce code promo."
          : `Vous avez déjà utilisé ce code promo ${rule.maxUsesPerCustomer} fois, le maximum par client.`,
      );
    }
  }
  return { ok: true, discountCents: discountAmountCents(rule, input.subtotalCents) };
}

// ---------------------------------------------------------------------------------------------
// The cart's preview and the admin list

/** The cart's "Appliquer": the code and the cart's lines (ids and quantities: the server prices them). */
export const discountPreviewSchema = z.object({
  code: z.string({ error: "Saisissez un code promo." }).trim().min(1, "Saisissez un code promo.").max(64, "Code promo trop long."),
  items: checkoutRequestSchema.shape.items,
  insuranceSelected: z.boolean().default(false),
});

export type DiscountPreview =
  | { ok: true; code: string; subtotalCents: number; insuranceCents: number; discountCents: number; totalCents: number }
  | { ok: false; code: string; error: string; reason?: DiscountRefusalReason };

/** "15 %" or "10,00 €". */
export function discountValueLabel(rule: Pick<DiscountRule, "kind" | "percentOff" | "amountOffCents">): string {
  return rule.kind === "percent" ? `${rule.percentOff}\u00a0%` : formatEuros(rule.amountOffCents ?? 0);
}

/** Where a code stands today, for the admin list (its badge). */
export function discountStatus(rule: Pick<DiscountRule, "isActive" | "expiresAt" | "maxUses" | "usedCount" | "reservedCount">, now: Date) {
  if (!rule.isActive) return { label: "Inactif", tone: "neutral" as const };
  if (rule.expiresAt && rule.expiresAt.getTime() <= now.getTime()) return { label: "Expiré", tone: "warning" as const };
  if (rule.maxUses !== null && rule.usedCount + rule.reservedCount >= rule.maxUses) return { label: "Épuisé", tone: "warning" as const };
  return { label: "Actif", tone: "success" as const };
}

/** "31/12/2026 23:59" (Paris), or "Sans expiration". */
export function expiryLabel(expiresAt: Date | null): string {
  return expiresAt ? formatParisShortDateTime(expiresAt) : "Sans expiration";
}
