import { describe, expect, it } from "vitest";
import {
  type Countdown,
  type Promotion,
  countdownFormSchema,
  countdownFormValues,
  countdownSavedToast,
  countdownStatus,
  countdownTarget,
  defaultPromotionDraft,
  heroBannerFormSchema,
  hiddenCategory,
  isCountdownActive,
  isPromotionActive,
  nextSiteContentChange,
  parseCountdown,
  parseHeroBanner,
  parsePromotion,
  promotionFormSchema,
  promotionFormValues,
  promotionSavedToast,
  promotionStatus,
} from "./site-content";

const HERO_DEFAULTS = {
  isActive: true,
  message: "10 € offerts sur votre premier achat en live",
  promoCode: "COMPTOIR10",
  showPromoVersion: 1,
};

const PROMOTION_DEFAULTS: Promotion = {
  code: "BIENVENUE15",
  message: "15 % de remise sur tout le site",
  position: "banner",
  expiresAt: null,
  isVisible: false,
  percentOff: 15,
};

const COUNTDOWN_DEFAULTS: Countdown = {
  isActive: false,
  date: "",
  hour: "18",
  minute: "00",
  second: "00",
  message: "Nouvelle sortie\u00a0: ouverture des ventes dans",
  category: "sealed",
  location: "home",
  hideProducts: true,
};

describe("stored values", () => {
  it("gives SPEC.md's defaults when nothing is stored", () => {
    for (const stored of [undefined, null, {}]) {
      expect(parseHeroBanner(stored)).toEqual(HERO_DEFAULTS);
      expect(parsePromotion(stored)).toEqual(PROMOTION_DEFAULTS);
      expect(parseCountdown(stored)).toEqual(COUNTDOWN_DEFAULTS);
    }
  });

  it("merges partial stored values over the defaults", () => {
    expect(parseHeroBanner({ isActive: false, promoCode: "ETE25" })).toEqual({ ...HERO_DEFAULTS, isActive: false, promoCode: "ETE25" });
    expect(parsePromotion({ isVisible: true, code: "NOEL" })).toEqual({ ...PROMOTION_DEFAULTS, isVisible: true, code: "NOEL" });
    expect(parseCountdown({ isActive: true, date: "2026-12-01" })).toEqual({ ...COUNTDOWN_DEFAULTS, isActive: true, date: "2026-12-01" });
  });

  it("keeps complete stored values", () => {
    const hero = { isActive: false, message: "Soldes", promoCode: "SOLDES", showPromoVersion: 2 };
    expect(parseHeroBanner(hero)).toEqual(hero);
    const promotion: Promotion = { code: "ETE", message: "Été", position: "cart", expiresAt: "2026-08-31T21:59:59.000Z", isVisible: true, percentOff: 30 };
    expect(parsePromotion(promotion)).toEqual(promotion);
  });

  it.each([["garbage"], [42], [[1, 2]], [{ isActive: "oui" }], [{ showPromoVersion: 1.5 }], [{ showPromoVersion: 3 }]])(
    "falls back to the hero defaults for %j",
    (stored) => {
      expect(parseHeroBanner(stored)).toEqual(HERO_DEFAULTS);
    },
  );

  it.each([["garbage"], [{ isVisible: "true" }], [{ position: "footer" }], [{ expiresAt: "demain" }], [{ percentOff: 0 }], [{ percentOff: 150 }]])(
    "falls back to the promotion defaults (hidden) for %j",
    (stored) => {
      expect(parsePromotion(stored)).toEqual(PROMOTION_DEFAULTS);
    },
  );

  it.each([[{ hour: "24" }], [{ minute: "7" }], [{ date: "01/12/2026" }], [{ category: "booster" }], [{ location: "cart" }], [{ hideProducts: 1 }]])(
    "falls back to the countdown defaults (inactive) for %j",
    (stored) => {
      expect(parseCountdown(stored)).toEqual(COUNTDOWN_DEFAULTS);
    },
  );
});

describe("isPromotionActive", () => {
  const now = new Date("2026-06-01T10:00:00Z");
  const visible = { ...PROMOTION_DEFAULTS, isVisible: true };

  it("is active only while visible", () => {
    expect(isPromotionActive(visible, now)).toBe(true);
    expect(isPromotionActive(PROMOTION_DEFAULTS, now)).toBe(false);
  });

  it("is active up to its expiry, not after it", () => {
    const promotion = { ...visible, expiresAt: "2026-06-01T10:00:00.000Z" };
    expect(isPromotionActive(promotion, new Date("2026-06-01T09:59:59Z"))).toBe(true);
    expect(isPromotionActive(promotion, new Date("2026-06-01T10:00:00Z"))).toBe(true);
    expect(isPromotionActive(promotion, new Date("2026-06-01T10:00:00.001Z"))).toBe(false);
    expect(isPromotionActive({ ...promotion, isVisible: false }, new Date("2026-06-01T09:00:00Z"))).toBe(false);
  });
});

describe("countdownTarget: Paris wall time, summer and winter", () => {
  const at = (date: string, hour: string, minute = "00", second = "00") => countdownTarget({ ...COUNTDOWN_DEFAULTS, date, hour, minute, second });

  it("is UTC+2 in summer and UTC+1 in winter", () => {
    expect(at("2026-07-14", "18")).toEqual(new Date("2026-07-14T16:00:00Z"));
    expect(at("2026-12-01", "18", "30", "15")).toEqual(new Date("2026-12-01T17:30:15Z"));
  });

  it("has no target for the hour skipped when summer time starts", () => {
    expect(at("2026-03-29", "02", "30")).toBeNull();
    expect(at("2026-03-29", "03", "00")).toEqual(new Date("2026-03-29T01:00:00Z"));
  });

  it("takes the first of the hour repeated when summer time ends", () => {
    expect(at("2026-10-25", "02", "30")).toEqual(new Date("2026-10-25T00:30:00Z"));
  });

  it("has no target without a date, or with a date that does not exist", () => {
    expect(at("", "18")).toBeNull();
    expect(at("2026-02-30", "18")).toBeNull();
  });
});

describe("isCountdownActive and hiddenCategory", () => {
  const countdown: Countdown = { ...COUNTDOWN_DEFAULTS, isActive: true, date: "2026-12-01", hour: "18" };
  const target = new Date("2026-12-01T17:00:00Z");
  const before = new Date(target.getTime() - 1);

  it("runs while active and before its target", () => {
    expect(isCountdownActive(countdown, before)).toBe(true);
    expect(isCountdownActive(countdown, target)).toBe(false);
    expect(isCountdownActive({ ...countdown, isActive: false }, before)).toBe(false);
    expect(isCountdownActive({ ...countdown, date: "" }, before)).toBe(false);
  });

  it("hides its category only while it runs with hideProducts", () => {
    expect(hiddenCategory(countdown, before)).toBe("sealed");
    expect(hiddenCategory({ ...countdown, category: "cards" }, before)).toBe("cards");
    expect(hiddenCategory(countdown, target)).toBeNull();
    expect(hiddenCategory({ ...countdown, hideProducts: false }, before)).toBeNull();
    expect(hiddenCategory({ ...countdown, isActive: false }, before)).toBeNull();
  });
});

describe("nextSiteContentChange", () => {
  const now = new Date("2026-12-01T12:00:00Z");
  const countdown: Countdown = { ...COUNTDOWN_DEFAULTS, isActive: true, date: "2026-12-01", hour: "18" };
  const promotion: Promotion = { ...PROMOTION_DEFAULTS, isVisible: true, expiresAt: "2026-12-01T14:00:00.000Z" };

  it("is the countdown's end or the first moment after the promotion's expiry, whichever comes first", () => {
    expect(nextSiteContentChange(promotion, countdown, now)).toEqual(new Date("2026-12-01T14:00:00.001Z"));
    expect(nextSiteContentChange({ ...promotion, expiresAt: "2026-12-02T00:00:00.000Z" }, countdown, now)).toEqual(new Date("2026-12-01T17:00:00Z"));
  });

  it("ignores what is not showing, and what has already changed", () => {
    expect(nextSiteContentChange({ ...promotion, isVisible: false }, countdown, now)).toEqual(new Date("2026-12-01T17:00:00Z"));
    expect(nextSiteContentChange({ ...promotion, expiresAt: null }, countdown, now)).toEqual(new Date("2026-12-01T17:00:00Z"));
    expect(nextSiteContentChange(promotion, { ...countdown, isActive: false }, now)).toEqual(new Date("2026-12-01T14:00:00.001Z"));
    expect(nextSiteContentChange(promotion, countdown, new Date("2026-12-01T18:00:00Z"))).toBeNull();
    expect(nextSiteContentChange(PROMOTION_DEFAULTS, COUNTDOWN_DEFAULTS, now)).toBeNull();
  });
});

describe("promotionFormSchema", () => {
  const valid = { code: " ete-25 ", percentOff: "25", message: " -25 % cet été ", position: "home", expiryDate: "2026-08-31", expiryTime: "20:00", isVisible: "on" };

  it("reads a posted promotion: code in upper case, expiry in Paris time", () => {
    expect(promotionFormSchema.parse(valid)).toEqual({
      code: "ETE-25",
      percentOff: 25,
      message: "-25 % cet été",
      position: "home",
      expiresAt: "2026-08-31T18:00:00.000Z",
      isVisible: true,
    });
  });

  it("ends a day without a time at its last second, and has no end without a date", () => {
    expect(promotionFormSchema.parse({ ...valid, expiryTime: "" }).expiresAt).toBe("2026-08-31T21:59:59.000Z");
    expect(promotionFormSchema.parse({ ...valid, expiryDate: "", expiryTime: "" }).expiresAt).toBeNull();
  });

  it("accepts an expiry already past (the promotion then shows nowhere) and an empty code", () => {
    expect(promotionFormSchema.parse({ ...valid, expiryDate: "2020-01-01" }).expiresAt).toBe("2020-01-01T19:00:00.000Z");
    expect(promotionFormSchema.parse({ ...valid, code: "" }).code).toBe("");
    expect(promotionFormSchema.parse({ ...valid, isVisible: undefined }).isVisible).toBe(false);
  });

  it.each([
    [{ code: "ÉTÉ" }, "code", "Le code ne peut contenir que des lettres sans accent, des chiffres, «\u00a0-\u00a0» et «\u00a0_\u00a0»"],
    [{ code: "A".repeat(33) }, "code", "Le code ne peut pas dépasser 32 caractères"],
    [{ percentOff: "0" }, "percentOff", "La remise doit être un nombre entier entre 1 et 100"],
    [{ percentOff: "101" }, "percentOff", "La remise doit être un nombre entier entre 1 et 100"],
    [{ percentOff: "12,5" }, "percentOff", "La remise doit être un nombre entier entre 1 et 100"],
    [{ message: "  " }, "message", "Le message est obligatoire"],
    [{ message: "x".repeat(201) }, "message", "Le message ne peut pas dépasser 200 caractères"],
    [{ position: "footer" }, "position", "Choisissez un emplacement"],
    [{ expiryDate: "2026-02-30" }, "expiryDate", "Date invalide"],
    [{ expiryTime: "25:00" }, "expiryTime", "Heure invalide"],
    [{ expiryDate: "2027-03-28", expiryTime: "02:30" }, "expiryTime", "Cette heure n'existe pas ce jour-là (passage à l'heure d'été)"],
    [{ expiryDate: "" }, "expiryDate", "Choisissez la date d'expiration, ou videz l'heure"],
  ])("refuses %j on %s", (change, field, message) => {
    const result = promotionFormSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((issue) => issue.path[0] === field)?.message).toBe(message);
  });

  it("shows a stored promotion back in Paris time", () => {
    const values = promotionFormValues(promotionFormSchema.parse(valid));
    expect(values).toMatchObject({ code: "ETE-25", percentOff: "25", expiryDate: "2026-08-31", expiryTime: "20:00", isVisible: true });
  });

  it("drafts SPEC.md's 15 % code ending 7 days from now, hidden", () => {
    const draft = defaultPromotionDraft(new Date("2026-06-01T10:20:30.400Z"));
    expect(draft).toMatchObject({ percentOff: 15, isVisible: false, position: "banner", expiresAt: "2026-06-08T10:20:00.000Z" });
    expect(draft.code).not.toBe("");
  });
});

describe("countdownFormSchema", () => {
  const valid = { isActive: "on", date: "2026-12-01", time: "9:05", message: "Display Écarlate et Violet", category: "cards", location: "catalog", hideProducts: "on" };

  it("stores the Paris date, hour, minute and second zero-padded", () => {
    expect(countdownFormSchema.parse(valid)).toEqual({
      isActive: true,
      date: "2026-12-01",
      hour: "09",
      minute: "05",
      second: "00",
      message: "Display Écarlate et Violet",
      category: "cards",
      location: "catalog",
      hideProducts: true,
    });
    expect(countdownFormSchema.parse({ ...valid, time: "18:00:30" })).toMatchObject({ hour: "18", minute: "00", second: "30" });
  });

  it("needs a date only when active", () => {
    expect(countdownFormSchema.safeParse({ ...valid, date: "" }).error?.issues[0]).toMatchObject({ path: ["date"], message: "Choisissez la date de fin du compte à rebours" });
    expect(countdownFormSchema.parse({ ...valid, isActive: undefined, hideProducts: undefined, date: "" })).toMatchObject({ isActive: false, hideProducts: false, date: "" });
  });

  it.each([
    [{ time: "24:00" }, "time"],
    [{ date: "2026-13-01" }, "date"],
    [{ date: "2026-03-29", time: "02:15" }, "time"],
    [{ category: "booster" }, "category"],
    [{ location: "cart" }, "location"],
    [{ message: "" }, "message"],
  ])("refuses %j on %s", (change, field) => {
    const result = countdownFormSchema.safeParse({ ...valid, ...change });
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it("shows a stored countdown back as the form's time", () => {
    expect(countdownFormValues(countdownFormSchema.parse(valid)).time).toBe("09:05");
    expect(countdownFormValues(countdownFormSchema.parse({ ...valid, time: "18:00:30" })).time).toBe("18:00:30");
  });
});

describe("heroBannerFormSchema", () => {
  it("reads a posted hero banner", () => {
    expect(heroBannerFormSchema.parse({ message: "Live ce soir", promoCode: "LIVE10", showPromoVersion: "2" })).toEqual({
      isActive: false,
      message: "Live ce soir",
      promoCode: "LIVE10",
      showPromoVersion: 2,
    });
  });

  it("refuses an unknown presentation and an empty message", () => {
    const result = heroBannerFormSchema.safeParse({ isActive: "on", message: "", promoCode: "", showPromoVersion: "3" });
    expect(result.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(["message", "showPromoVersion"]);
  });
});

describe("the promotions page's statuses and toasts", () => {
  const now = new Date("2026-12-01T12:00:00Z");

  it("says whether the promotion shows", () => {
    const visible = { ...PROMOTION_DEFAULTS, isVisible: true };
    expect(promotionStatus(visible, now).label).toBe("En ligne");
    expect(promotionStatus(PROMOTION_DEFAULTS, now).label).toBe("Masquée");
    expect(promotionStatus({ ...visible, expiresAt: "2026-11-30T00:00:00.000Z" }, now).label).toBe("Expirée");
    expect(promotionSavedToast(visible, now)).toEqual({ title: "Promotion enregistrée", description: "La promotion est visible par tous les visiteurs." });
    expect(promotionSavedToast({ ...visible, expiresAt: "2026-11-30T00:00:00.000Z" }, now).description).toBe("Sa date d'expiration est passée\u00a0: les visiteurs ne la voient pas.");
  });

  it("says whether the countdown runs, and what it hides", () => {
    const running: Countdown = { ...COUNTDOWN_DEFAULTS, isActive: true, date: "2026-12-01", hour: "18" };
    expect(countdownStatus(running, now).label).toBe("En cours");
    expect(countdownStatus({ ...running, date: "2026-11-30" }, now).label).toBe("Terminé");
    expect(countdownStatus(COUNTDOWN_DEFAULTS, now).label).toBe("Désactivé");
    expect(countdownSavedToast(running, now).description).toContain("Les produits «\u00a0Scellés\u00a0» sont masqués jusque-là.");
  });
});
