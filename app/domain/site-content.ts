import { z } from "zod";
import { CATALOG_CATEGORY_IDS, type CatalogCategoryId } from "./categories";
import { CATALOG_CATEGORY_LABELS } from "./catalog-query";
import { normaliseDiscountCode } from "./discounts";
import { parisWallTime, parisWallTimeToUtc } from "./paris-time";

/**
 * What the seller shows every visitor (SPEC.md section 3): the promotion, the countdown and the
 * home page's hero banner, stored in site_settings and edited at /admin/promotions. Each has a
 * stored shape (JSON, read back over SPEC.md's defaults) and a form schema (the posted strings,
 * checked by the same schema in the browser and in the action).
 */

export const MESSAGE_MAX_LENGTH = 200;
export const CODE_MAX_LENGTH = 32;

// ---------------------------------------------------------------------------------------------
// Stored shapes

export const PROMOTION_POSITIONS = ["banner", "home", "cart"] as const;
export type PromotionPosition = (typeof PROMOTION_POSITIONS)[number];
export const PROMOTION_POSITION_LABELS: Record<PromotionPosition, string> = {
  banner: "Bandeau sur toutes les pages",
  home: "Page d'accueil",
  cart: "Panier",
};

export const DEFAULT_PROMOTION_PERCENT = 15;

export const promotionSchema = z.object({
  /** Upper case; empty: a message without a code. */
  code: z.string().default("BIENVENUE15"),
  message: z.string().default(`${DEFAULT_PROMOTION_PERCENT} % de remise sur tout le site`),
  position: z.enum(PROMOTION_POSITIONS).default("banner"),
  /** An instant (ISO 8601), or null: no end. */
  expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
  isVisible: z.boolean().default(false),
  /** The discount its code gives at checkout (a site-wide percentage). */
  percentOff: z.number().int().min(1).max(100).default(DEFAULT_PROMOTION_PERCENT),
});
export type Promotion = z.infer<typeof promotionSchema>;

export const COUNTDOWN_LOCATIONS = ["home", "catalog", "global"] as const;
export type CountdownLocation = (typeof COUNTDOWN_LOCATIONS)[number];
export const COUNTDOWN_LOCATION_LABELS: Record<CountdownLocation, string> = {
  home: "Page d'accueil",
  catalog: "Pages du catalogue",
  global: "Toutes les pages",
};

const twoDigits = (max: number) => z.string().regex(/^\d{2}$/).refine((value) => Number(value) <= max);

/**
 * Stored as SPEC.md says (date, hour and minute, zero-padded) plus the second, so that a drop
 * can end on the second as product launches do. The target is Paris wall time.
 */
export const countdownSchema = z.object({
  isActive: z.boolean().default(false),
  /** "2026-12-01", or "" when none was chosen. */
  date: z.union([z.literal(""), z.string().regex(/^\d{4}-\d{2}-\d{2}$/)]).default(""),
  hour: twoDigits(23).default("18"),
  minute: twoDigits(59).default("00"),
  second: twoDigits(59).default("00"),
  message: z.string().default("Nouvelle sortie\u00a0: ouverture des ventes dans"),
  category: z.enum(CATALOG_CATEGORY_IDS).default("sealed"),
  location: z.enum(COUNTDOWN_LOCATIONS).default("home"),
  hideProducts: z.boolean().default(true),
});
export type Countdown = z.infer<typeof countdownSchema>;

export const HERO_PROMO_VERSIONS = [1, 2] as const;
export const HERO_PROMO_VERSION_LABELS: Record<(typeof HERO_PROMO_VERSIONS)[number], string> = {
  1: "Pastille au-dessus du titre",
  2: "Encart détaillé sous les boutons",
};

/** Hero banner of the home page (SPEC.md section 3); showPromoVersion picks how its promo is drawn. */
export const heroBannerSchema = z.object({
  isActive: z.boolean().default(true),
  message: z.string().default("10 € offerts sur votre premier achat en live"),
  promoCode: z.string().default("COMPTOIR10"),
  showPromoVersion: z.union([z.literal(1), z.literal(2)]).default(1),
});
export type HeroBanner = z.infer<typeof heroBannerSchema>;

/** Stored values are merged over the defaults; anything unreadable gives the defaults (all of them). */
function parseStored<T>(schema: z.ZodType<T>, stored: unknown): T {
  const result = schema.safeParse(stored ?? {});
  return result.success ? result.data : schema.parse({});
}

export const parsePromotion = (stored: unknown): Promotion => parseStored(promotionSchema, stored);
export const parseCountdown = (stored: unknown): Countdown => parseStored(countdownSchema, stored);
export const parseHeroBanner = (stored: unknown): HeroBanner => parseStored(heroBannerSchema, stored);

// ---------------------------------------------------------------------------------------------
// Rules

/** SPEC.md section 4: visible, and not after its expiry when it has one. */
export function isPromotionActive(promotion: Promotion, now: Date): boolean {
  if (!promotion.isVisible) return false;
  return promotion.expiresAt === null || now.getTime() <= Date.parse(promotion.expiresAt);
}

/** The instant the countdown ends (its Paris date and time), or null: no date, or a time that does not exist. */
export function countdownTarget(countdown: Countdown): Date | null {
  const parsed = parseParisDateTime(countdown.date, `${countdown.hour}:${countdown.minute}:${countdown.second}`);
  return parsed.ok ? parsed.at : null;
}

/** SPEC.md section 4: active, with a target, and now before it. */
export function isCountdownActive(countdown: Countdown, now: Date): boolean {
  const target = countdownTarget(countdown);
  return countdown.isActive && target !== null && now.getTime() < target.getTime();
}

/** The catalogue category a running countdown hides, or null. */
export function hiddenCategory(countdown: Countdown, now: Date): CatalogCategoryId | null {
  return countdown.hideProducts && isCountdownActive(countdown, now) ? countdown.category : null;
}

/**
 * The next instant after `now` when what visitors see changes by itself: the countdown's end,
 * or the first moment after the promotion's expiry. Null when nothing is due. The server
 * purges its cached pages and tells open pages then.
 */
export function nextSiteContentChange(promotion: Promotion, countdown: Countdown, now: Date): Date | null {
  const candidates: number[] = [];
  if (isCountdownActive(countdown, now)) candidates.push(countdownTarget(countdown)!.getTime());
  if (isPromotionActive(promotion, now) && promotion.expiresAt !== null) candidates.push(Date.parse(promotion.expiresAt) + 1);
  return candidates.length === 0 ? null : new Date(Math.min(...candidates));
}

// ---------------------------------------------------------------------------------------------
// Forms (every value a string, as a form posts it)

const text = z.string({ error: "Valeur invalide" }).optional().transform((value) => (value ?? "").trim());
const checkbox = z.string({ error: "Valeur invalide" }).optional().transform((value) => value === "on" || value === "true");

/** A Paris date ("2026-12-01") and time ("18:00" or "18:00:30") as an instant, or what is wrong. */
export function parseParisDateTime(date: string, time: string): { ok: true; at: Date } | { ok: false; field: "date" | "time"; message: string } {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const year = Number(d?.[1]);
  const month = Number(d?.[2]);
  const day = Number(d?.[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (!d || year < 2000 || year > 2100 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return { ok: false, field: "date", message: "Date invalide" };
  }
  const t = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  const [hour, minute, second] = [Number(t?.[1]), Number(t?.[2]), Number(t?.[3] ?? 0)];
  if (!t || hour > 23 || minute > 59 || second > 59) return { ok: false, field: "time", message: "Heure invalide" };
  const at = parisWallTimeToUtc(year, month, day, hour, minute, second);
  if (!at) return { ok: false, field: "time", message: "Cette heure n'existe pas ce jour-là (passage à l'heure d'été)" };
  return { ok: true, at };
}

function checkMessage(message: string, fail: (message: string) => void, required = true) {
  if (required && message === "") fail("Le message est obligatoire");
  else if (message.length > MESSAGE_MAX_LENGTH) fail(`Le message ne peut pas dépasser ${MESSAGE_MAX_LENGTH} caractères`);
}

function oneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

export const promotionFormSchema = z
  .object({
    code: text,
    percentOff: text,
    message: text,
    position: text,
    expiryDate: text,
    expiryTime: text,
    isVisible: checkbox,
  })
  .transform((raw, ctx): Promotion => {
    let failed = false;
    const fail = (field: string) => (message: string) => {
      failed = true;
      ctx.addIssue({ code: "custom", path: [field], message });
    };
    const code = normaliseDiscountCode(raw.code);
    if (code.length > CODE_MAX_LENGTH) fail("code")(`Le code ne peut pas dépasser ${CODE_MAX_LENGTH} caractères`);
    else if (!/^[A-Z0-9_-]*$/.test(code)) fail("code")("Le code ne peut contenir que des lettres sans accent, des chiffres, «\u00a0-\u00a0» et «\u00a0_\u00a0»");
    const percentOff = /^\d{1,3}$/.test(raw.percentOff) ? Number(raw.percentOff) : NaN;
    if (!(percentOff >= 1 && percentOff <= 100)) fail("percentOff")("La remise doit être un nombre entier entre 1 et 100");
    checkMessage(raw.message, fail("message"));
    if (!oneOf(PROMOTION_POSITIONS, raw.position)) fail("position")("Choisissez un emplacement");
    let expiresAt: string | null = null;
    if (raw.expiryDate !== "") {
      // A day without a time ends with that day.
      const parsed = parseParisDateTime(raw.expiryDate, raw.expiryTime || "23:59:59");
      if (parsed.ok) expiresAt = parsed.at.toISOString();
      else fail(parsed.field === "date" ? "expiryDate" : "expiryTime")(parsed.message);
    } else if (raw.expiryTime !== "") fail("expiryDate")("Choisissez la date d'expiration, ou videz l'heure");
    if (failed) return z.NEVER;
    return { code, message: raw.message, position: raw.position as PromotionPosition, expiresAt, isVisible: raw.isVisible, percentOff };
  });

export const countdownFormSchema = z
  .object({
    isActive: checkbox,
    date: text,
    time: text,
    message: text,
    category: text,
    location: text,
    hideProducts: checkbox,
  })
  .transform((raw, ctx): Countdown => {
    let failed = false;
    const fail = (field: string) => (message: string) => {
      failed = true;
      ctx.addIssue({ code: "custom", path: [field], message });
    };
    let wall = { date: "", hour: "18", minute: "00", second: "00" };
    if (raw.date === "") {
      if (raw.isActive) fail("date")("Choisissez la date de fin du compte à rebours");
    } else {
      const parsed = parseParisDateTime(raw.date, raw.time || "00:00");
      if (!parsed.ok) fail(parsed.field)(parsed.message);
      else {
        // Read back from the instant: "9:05" is stored "09", "05", "00".
        const { date, time } = parisWallTime(parsed.at);
        const [hour = "00", minute = "00", second = "00"] = time.split(":");
        wall = { date, hour, minute, second };
      }
    }
    checkMessage(raw.message, fail("message"));
    if (!oneOf(CATALOG_CATEGORY_IDS, raw.category)) fail("category")("Choisissez une catégorie");
    if (!oneOf(COUNTDOWN_LOCATIONS, raw.location)) fail("location")("Choisissez un emplacement");
    if (failed) return z.NEVER;
    return {
      isActive: raw.isActive,
      ...wall,
      message: raw.message,
      category: raw.category as CatalogCategoryId,
      location: raw.location as CountdownLocation,
      hideProducts: raw.hideProducts,
    };
  });

export const heroBannerFormSchema = z
  .object({ isActive: checkbox, message: text, promoCode: text, showPromoVersion: text })
  .transform((raw, ctx): HeroBanner => {
    let failed = false;
    const fail = (field: string) => (message: string) => {
      failed = true;
      ctx.addIssue({ code: "custom", path: [field], message });
    };
    checkMessage(raw.message, fail("message"));
    if (raw.promoCode.length > CODE_MAX_LENGTH) fail("promoCode")(`Le code ne peut pas dépasser ${CODE_MAX_LENGTH} caractères`);
    const version = Number(raw.showPromoVersion);
    if (version !== 1 && version !== 2) fail("showPromoVersion")("Choisissez une présentation");
    if (failed) return z.NEVER;
    return { isActive: raw.isActive, message: raw.message, promoCode: raw.promoCode, showPromoVersion: version as 1 | 2 };
  });

/** What the forms show first: the stored values, as strings. */
export function promotionFormValues(promotion: Promotion) {
  const expiry = promotion.expiresAt ? parisWallTime(new Date(promotion.expiresAt)) : { date: "", time: "" };
  return {
    code: promotion.code,
    percentOff: String(promotion.percentOff),
    message: promotion.message,
    position: promotion.position,
    expiryDate: expiry.date,
    expiryTime: expiry.time,
    isVisible: promotion.isVisible,
  };
}

export function countdownFormValues(countdown: Countdown) {
  return {
    isActive: countdown.isActive,
    date: countdown.date,
    time: `${countdown.hour}:${countdown.minute}${countdown.second === "00" ? "" : `:${countdown.second}`}`,
    message: countdown.message,
    category: countdown.category,
    location: countdown.location,
    hideProducts: countdown.hideProducts,
  };
}

export const PROMOTION_DEFAULT_DAYS = 7;

/**
 * The promotion form when nothing was ever saved: SPEC.md's 15 % site-wide code, ending 7 days
 * from now (to the minute).
 */
export function defaultPromotionDraft(now: Date): Promotion {
  const end = new Date(now.getTime() + PROMOTION_DEFAULT_DAYS * 86_400_000);
  end.setUTCSeconds(0, 0);
  return { ...promotionSchema.parse({}), expiresAt: end.toISOString() };
}

// ---------------------------------------------------------------------------------------------
// The promotions page: each card's state, and the toast a save answers with

export type SettingStatus = { label: string; tone: "success" | "neutral" | "warning" };

export function promotionStatus(promotion: Promotion, now: Date): SettingStatus {
  if (!promotion.isVisible) return { label: "Masquée", tone: "neutral" };
  return isPromotionActive(promotion, now) ? { label: "En ligne", tone: "success" } : { label: "Expirée", tone: "warning" };
}

export function countdownStatus(countdown: Countdown, now: Date): SettingStatus {
  if (!countdown.isActive) return { label: "Désactivé", tone: "neutral" };
  return isCountdownActive(countdown, now) ? { label: "En cours", tone: "success" } : { label: "Terminé", tone: "warning" };
}

export function heroBannerStatus(hero: HeroBanner): SettingStatus {
  return hero.isActive ? { label: "Affichée", tone: "success" } : { label: "Masquée", tone: "neutral" };
}

export type SavedToast = { title: string; description: string };

export function promotionSavedToast(promotion: Promotion, now: Date): SavedToast {
  const title = "Promotion enregistrée";
  if (!promotion.isVisible) return { title, description: "La promotion est masquée\u00a0: les visiteurs ne la voient pas." };
  if (!isPromotionActive(promotion, now)) return { title, description: "Sa date d'expiration est passée\u00a0: les visiteurs ne la voient pas." };
  return { title, description: "La promotion est visible par tous les visiteurs." };
}

export function countdownSavedToast(countdown: Countdown, now: Date): SavedToast {
  const title = "Compte à rebours enregistré";
  if (!countdown.isActive) return { title, description: "Le compte à rebours est désactivé." };
  if (!isCountdownActive(countdown, now)) return { title, description: "Sa date de fin est passée\u00a0: il ne s'affiche pas." };
  const hidden = countdown.hideProducts ? ` Les produits «\u00a0${CATALOG_CATEGORY_LABELS[countdown.category]}\u00a0» sont masqués jusque-là.` : "";
  return { title, description: `Il s'affiche pour tous les visiteurs jusqu'à la fin.${hidden}` };
}

export function heroBannerSavedToast(hero: HeroBanner): SavedToast {
  return {
    title: "Bannière d'accueil enregistrée",
    description: hero.isActive ? "Elle s'affiche sur la page d'accueil." : "Elle est masquée de la page d'accueil.",
  };
}
