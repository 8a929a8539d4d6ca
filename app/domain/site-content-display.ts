import type { CountdownLocation, PromotionPosition } from "./site-content";

/**
 * What the banners need in the browser (app/components/layout/site-banners.tsx), apart from
 * site-content.ts so that the public pages' bundle does not carry the admin forms' schemas.
 */

export type Remaining = { days: number; hours: number; minutes: number; seconds: number };

/** The time left until `target`, in whole seconds (rounded down); null once it has come. */
export function remainingTime(target: Date, now: Date): Remaining | null {
  const total = Math.floor((target.getTime() - now.getTime()) / 1000);
  if (total <= 0) return null;
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3_600),
    minutes: Math.floor((total % 3_600) / 60),
    seconds: total % 60,
  };
}

/**
 * Which part of the site a path belongs to, for where banners show. "none": the admin area and
 * the test payment page (it stands for the payment provider's own page).
 */
export type SiteArea = "home" | "catalog" | "cart" | "other" | "none";

const CATALOG_PATHS = ["/catalog", "/tcg", "/accessories", "/entertainment", "/product"];

export function siteAreaOf(pathname: string): SiteArea {
  if (pathname === "/") return "home";
  if (pathname === "/cart") return "cart";
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  if (under("/admin") || under("/paiement")) return "none";
  return CATALOG_PATHS.some(under) ? "catalog" : "other";
}

export function promotionShownIn(position: PromotionPosition, area: SiteArea): boolean {
  if (area === "none") return false;
  return position === "banner" || position === area;
}

export function countdownShownIn(location: CountdownLocation, area: SiteArea): boolean {
  if (area === "none") return false;
  return location === "global" || location === area;
}

// Made on first use: a browser's first Intl formatter costs tens of ms (decision 025), and
// every page loads this module while few show a moment.
let parisParts: Intl.DateTimeFormat | undefined;
function parisPartsFormat(): Intl.DateTimeFormat {
  parisParts ??= new Intl.DateTimeFormat("fr-FR", {
    timeZone: "Europe/Paris",
    weekday: "long",
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  return parisParts;
}

/**
 * "samedi 14 mars à 18:00" ("18:00:30" when the seconds count), Paris time. Built from the
 * parts rather than a date style, whose wording differs between ICU versions: the server's
 * and the browser's text must match for hydration.
 */
export function formatParisMoment(instant: Date): string {
  const p: Record<string, string> = {};
  for (const part of parisPartsFormat().formatToParts(instant)) p[part.type] = part.value;
  const time = `${p.hour}:${p.minute}${p.second === "00" ? "" : `:${p.second}`}`;
  return `${p.weekday} ${p.day} ${p.month} à ${time}`;
}
