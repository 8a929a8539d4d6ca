import { describe, expect, it } from "vitest";
import {
  type DiscountRule,
  discountAmountCents,
  discountFormDefaults,
  discountFormSchema,
  discountFormSchemaAt,
  discountLimitsSchema,
  discountPreviewSchema,
  discountStatus,
  discountValueLabel,
  evaluateDiscount,
  isWellFormedCode,
  normaliseDiscountCode,
} from "./discounts";

const NOW = new Date("2026-06-01T10:00:00Z");

const rule = (overrides: Partial<DiscountRule> = {}): DiscountRule => ({
  code: "PROMO15",
  kind: "percent",
  percentOff: 15,
  amountOffCents: null,
  minSubtotalCents: 0,
  expiresAt: null,
  maxUses: null,
  maxUsesPerCustomer: null,
  usedCount: 0,
  reservedCount: 0,
  isActive: true,
  ...overrides,
});

const form = (overrides: Record<string, string> = {}) => ({
  code: "promo15",
  kind: "percent",
  value: "15",
  minSubtotal: "",
  expiresDate: "",
  expiresTime: "",
  maxUses: "",
  maxUsesPerCustomer: "",
  isActive: "on",
  ...overrides,
});

const errorsOf = (input: Record<string, string>) => {
  const result = discountFormSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("codes", () => {
  it("normalises to upper case without spaces around, and knows which can exist", () => {
    expect(normaliseDiscountCode("  bienvenue-10 ")).toBe("BIENVENUE-10");
    expect(isWellFormedCode("AB")).toBe(false);
    expect(isWellFormedCode("ÉTÉ10")).toBe(false);
    expect(isWellFormedCode("ETE 10")).toBe(false);
    expect(isWellFormedCode("ETE_10-B")).toBe(true);
    expect(isWellFormedCode("X".repeat(33))).toBe(false);
  });
});

describe("the admin form", () => {
  it("reads a percentage code, upper-cased, active, without limits", () => {
    expect(discountFormSchema.parse(form())).toEqual({
      code: "PROMO15",
      kind: "percent",
      percentOff: 15,
      amountOffCents: null,
      minSubtotalCents: 0,
      expiresAt: null,
      maxUses: null,
      maxUsesPerCustomer: null,
      isActive: true,
    });
  });

  it("reads a fixed amount in euros as cents, a minimum, limits and an expiry in Paris time", () => {
    const values = discountFormSchema.parse(
      form({ kind: "amount", value: "10,50", minSubtotal: "49,90", maxUses: "100", maxUsesPerCustomer: "1", expiresDate: "2026-12-31", expiresTime: "18:00", isActive: "" }),
    );
    expect(values).toMatchObject({ kind: "amount", amountOffCents: 1_050, percentOff: null, minSubtotalCents: 4_990, maxUses: 100, maxUsesPerCustomer: 1, isActive: false });
    // Winter: Paris is UTC+1.
    expect(values.expiresAt?.toISOString()).toBe("2026-12-31T17:00:00.000Z");
  });

  it("refuses an expiry already past, unless it is the code's stored one", () => {
    const now = () => new Date("2026-11-26T10:00:00Z");
    const past = form({ expiresDate: "2026-11-25", expiresTime: "18:00" });
    const refused = discountFormSchemaAt({ now }).safeParse(past);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([["expiresDate", "Cette date d'expiration est déjà passée."]]);
    // Today 10:59 in Paris is 09:59 UTC: past too; 23:59 (no time) is still ahead.
    expect(discountFormSchemaAt({ now }).safeParse(form({ expiresDate: "2026-11-26", expiresTime: "10:59" })).success).toBe(false);
    expect(discountFormSchemaAt({ now }).safeParse(form({ expiresDate: "2026-11-26" })).success).toBe(true);
    // An expired code edited for something else keeps its expiry; another past one is refused.
    const stored = new Date("2026-11-25T17:00:00Z");
    expect(discountFormSchemaAt({ now, storedExpiry: stored }).safeParse(past).success).toBe(true);
    expect(discountFormSchemaAt({ now, storedExpiry: stored }).safeParse(form({ expiresDate: "2026-11-24" })).success).toBe(false);
  });

  it("takes the end of the day when no time is given", () => {
    expect(discountFormSchema.parse(form({ expiresDate: "2026-07-14" })).expiresAt?.toISOString()).toBe("2026-07-14T21:59:00.000Z");
  });

  it.each([
    [{ code: "" }, "code", "Le code est obligatoire."],
    [{ code: "ab" }, "code", /de 3 à 32 caractères/],
    [{ code: "été-10" }, "code", /sans espace ni accent/],
    [{ code: "BIEN VENUE" }, "code", /sans espace/],
    [{ kind: "gift" }, "kind", "Choisissez un pourcentage ou un montant fixe."],
    [{ value: "0" }, "value", "Le pourcentage doit être un nombre entier de 1 à 100."],
    [{ value: "101" }, "value", "Le pourcentage doit être un nombre entier de 1 à 100."],
    [{ value: "12,5" }, "value", "Le pourcentage doit être un nombre entier de 1 à 100."],
    [{ kind: "amount", value: "0" }, "value", /supérieur à 0/],
    [{ kind: "amount", value: "dix" }, "value", /supérieur à 0/],
    [{ kind: "amount", value: "10,555" }, "value", /supérieur à 0/],
    [{ minSubtotal: "-5" }, "minSubtotal", /montant en euros/],
    [{ maxUses: "0" }, "maxUses", /au moins 1/],
    [{ maxUsesPerCustomer: "1,5" }, "maxUsesPerCustomer", /au moins 1/],
    [{ maxUses: "2", maxUsesPerCustomer: "3" }, "maxUsesPerCustomer", "La limite par client ne peut pas dépasser la limite totale."],
    [{ expiresTime: "18:00" }, "expiresTime", "Choisissez d'abord une date d'expiration."],
    [{ expiresDate: "2026-02-30" }, "expiresDate", "Date d'expiration invalide."],
    [{ expiresDate: "2026-03-29", expiresTime: "02:30" }, "expiresTime", /n'existe pas/],
    [{ expiresDate: "2026-03-01", expiresTime: "25:00" }, "expiresTime", "Heure invalide."],
  ])("refuses %j on %s", (overrides, field, message) => {
    const errors = errorsOf(form(overrides));
    expect(errors[field]).toEqual(typeof message === "string" ? message : expect.stringMatching(message));
  });

  it("gives every field's error at once", () => {
    expect(Object.keys(errorsOf(form({ code: "", value: "", maxUses: "x" })))).toEqual(["code", "value", "maxUses"]);
  });

  it("shows a stored code back as the form reads it", () => {
    const stored = discountFormSchema.parse(form({ kind: "amount", value: "10,5", minSubtotal: "30", maxUses: "5", expiresDate: "2026-12-31", expiresTime: "18:00" }));
    const shown = discountFormDefaults({ ...stored, usedCount: 0, reservedCount: 0 });
    expect(shown).toMatchObject({ code: "PROMO15", value: "10,50", minSubtotal: "30", maxUses: "5", expiresDate: "2026-12-31", expiresTime: "18:00", isActive: "on" });
    expect(discountFormSchema.parse(shown)).toEqual(stored);
    expect(discountFormDefaults(null)).toMatchObject({ kind: "percent", isActive: "on" });
  });

  it("has a limits-only schema for the promotion's code", () => {
    expect(discountLimitsSchema.parse({ minSubtotal: "20", maxUses: "", maxUsesPerCustomer: "2", code: "ignored" })).toEqual({
      minSubtotalCents: 2_000,
      maxUses: null,
      maxUsesPerCustomer: 2,
    });
    expect(discountLimitsSchema.safeParse({ maxUses: "-1" }).success).toBe(false);
  });
});

describe("what a code takes off", () => {
  it("rounds a percentage up to the cent, in the customer's favour", () => {
    // 15 % of 14,99 € = 2,2485 € → 2,25 €.
    expect(discountAmountCents(rule(), 1_499)).toBe(225);
    expect(discountAmountCents(rule({ percentOff: 10 }), 1_000)).toBe(100);
    expect(discountAmountCents(rule({ percentOff: 100 }), 4_321)).toBe(4_321);
  });

  it("never takes more than the subtotal", () => {
    expect(discountAmountCents(rule({ kind: "amount", percentOff: null, amountOffCents: 5_000 }), 1_250)).toBe(1_250);
    expect(discountAmountCents(rule({ kind: "amount", percentOff: null, amountOffCents: 500 }), 1_250)).toBe(500);
  });
});

describe("evaluateDiscount", () => {
  const ok = (r: DiscountRule | null, subtotalCents = 10_000, customerUses?: number | null) => evaluateDiscount(r, { subtotalCents, now: NOW, customerUses });

  it("applies a valid code", () => {
    expect(ok(rule())).toEqual({ ok: true, discountCents: 1_500 });
  });

  it("refuses an unknown code with the shop's text", () => {
    expect(ok(null)).toEqual({ ok: false, reason: "unknown", message: "Ce code promo n'existe pas." });
  });

  it("refuses an inactive code", () => {
    expect(ok(rule({ isActive: false }))).toMatchObject({ ok: false, reason: "inactive", message: "Ce code promo n'est plus actif." });
  });

  it("refuses an expired code, saying when (Paris date)", () => {
    expect(ok(rule({ expiresAt: new Date("2026-05-31T22:30:00Z") }))).toMatchObject({
      ok: false,
      reason: "expired",
      message: "Ce code promo a expiré le 1 juin 2026.",
    });
    expect(ok(rule({ expiresAt: new Date(NOW.getTime() + 1) }))).toMatchObject({ ok: true });
    expect(ok(rule({ expiresAt: NOW }))).toMatchObject({ ok: false, reason: "expired" });
  });

  it("refuses a code whose uses (paid and held) reached its limit", () => {
    expect(ok(rule({ maxUses: 10, usedCount: 7, reservedCount: 3 }))).toMatchObject({
      ok: false,
      reason: "limit",
      message: "Ce code promo a atteint son nombre maximal d'utilisations.",
    });
    expect(ok(rule({ maxUses: 10, usedCount: 7, reservedCount: 2 }))).toMatchObject({ ok: true });
  });

  it("says the minimum and what is missing, insurance excluded", () => {
    expect(ok(rule({ minSubtotalCents: 5_000 }), 3_750)).toEqual({
      ok: false,
      reason: "minimum",
      message: "Ce code promo s'applique à partir de 50,00\u00a0€ d'achats (hors remise contre signature)\u00a0: il manque 12,50\u00a0€.",
    });
    expect(ok(rule({ minSubtotalCents: 5_000 }), 5_000)).toMatchObject({ ok: true });
  });

  it("checks the per-customer limit once the uses are counted", () => {
    const limited = rule({ maxUsesPerCustomer: 1 });
    expect(ok(limited)).toMatchObject({ ok: true });
    expect(ok(limited, 10_000, 0)).toMatchObject({ ok: true });
    expect(ok(limited, 10_000, 1)).toEqual({ ok: false, reason: "customer_limit", message: "Vous avez déjà utilisé ce code promo." });
    expect(ok(rule({ maxUsesPerCustomer: 2 }), 10_000, 2)).toMatchObject({ message: "Vous avez déjà utilisé ce code promo 2 fois, le maximum par client." });
    expect(ok(limited, 10_000, null)).toMatchObject({ ok: false, reason: "sign_in", message: /connectez-vous/ });
    expect(ok(rule(), 10_000, null)).toMatchObject({ ok: true });
  });
});

describe("the cart's preview and the admin list", () => {
  it("keeps only the code, ids, quantities and the insurance choice", () => {
    expect(discountPreviewSchema.parse({ code: " promo ", items: [{ productId: 1, quantity: 2, priceCents: 1 }], discountCents: 99_999, totalCents: 1 })).toEqual({
      code: "promo",
      items: [{ productId: 1, quantity: 2 }],
      insuranceSelected: false,
    });
    expect(discountPreviewSchema.safeParse({ code: "  ", items: [] }).error?.issues[0]?.message).toBe("Saisissez un code promo.");
  });

  it("labels values and states", () => {
    expect(discountValueLabel(rule())).toBe("15\u00a0%");
    expect(discountValueLabel(rule({ kind: "amount", percentOff: null, amountOffCents: 1_000 }))).toBe("10,00\u00a0€");
    expect(discountStatus(rule(), NOW).label).toBe("Actif");
    expect(discountStatus(rule({ isActive: false }), NOW).label).toBe("Inactif");
    expect(discountStatus(rule({ expiresAt: NOW }), NOW).label).toBe("Expiré");
    expect(discountStatus(rule({ maxUses: 1, reservedCount: 1 }), NOW).label).toBe("Épuisé");
  });
});
