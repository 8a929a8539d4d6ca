import { z } from "zod";
import type { FieldErrors } from "./auth-forms";
import { SITE_MESSAGE_LOCATIONS, SITE_MESSAGE_LOCATION_LABELS, type SiteMessageLocation } from "./catalog-values";

/**
 * Site messages (SPEC.md "Site message"): the seller's short notices shown under the header of
 * the public pages of one location, or of every public page ("global"). Their content is plain
 * text: links are recognised in it and rendered as React links, never as HTML.
 */

export const TITLE_MAX = 120;
export const CONTENT_MAX = 1000;

/** SPEC.md section 5: the toast of a form missing its title or content. */
export const REQUIRED_TOAST = { title: "Champs requis", description: "Le titre et le contenu sont obligatoires." } as const;

const TITLE_REQUIRED = "Le titre est obligatoire";
const CONTENT_REQUIRED = "Le contenu est obligatoire";

// PostgreSQL text cannot hold NUL; no invisible control character but tabs and line breaks belongs in a notice.
const stripControls = (value: string) => value.replace(/\p{Cc}/gu, (c) => (c === "\n" || c === "\t" ? c : ""));

/** The title is one line; the content keeps its line breaks (shown as typed). */
const title = z
  .string({ error: TITLE_REQUIRED })
  .transform((value) => stripControls(value.replace(/\s+/g, " ")).trim())
  .pipe(z.string().min(1, TITLE_REQUIRED).max(TITLE_MAX, `Le titre doit contenir au plus ${TITLE_MAX} caractères`));

const content = z
  .string({ error: CONTENT_REQUIRED })
  .transform((value) => stripControls(value.replace(/\r\n?/g, "\n")).trim())
  .pipe(z.string().min(1, CONTENT_REQUIRED).max(CONTENT_MAX, `Le contenu doit contenir au plus ${CONTENT_MAX} caractères`));

/** The admin form, checked in the browser before sending and by the action on whatever arrives. */
export const siteMessageSchema = z.object({
  title,
  content,
  location: z.enum(SITE_MESSAGE_LOCATIONS, { error: "Choisissez un emplacement dans la liste" }),
});
export type SiteMessageInput = z.infer<typeof siteMessageSchema>;

/** The toast of a refused form: SPEC.md's "Champs requis" when a required field is empty. */
export function formErrorToast(errors: FieldErrors): { title: string; description: string } {
  if (errors.title === TITLE_REQUIRED || errors.content === CONTENT_REQUIRED) return REQUIRED_TOAST;
  const first = errors.title ?? errors.content ?? errors.location ?? "Vérifiez le formulaire.";
  return { title: "Formulaire invalide", description: first.endsWith(".") ? first : `${first}.` };
}

export const locationLabel = (location: SiteMessageLocation) => SITE_MESSAGE_LOCATION_LABELS[location];

/** Where a location's messages show, for the admin list ("Site entier" says it all). */
export const LOCATION_HINTS: Record<SiteMessageLocation, string> = {
  global: "toutes les pages publiques",
  home: "la page d'accueil",
  catalog: "le catalogue, les pages TCG, Accessoires et Gaming",
  product: "les fiches produit",
  checkout: "le panier, le paiement et la confirmation de commande",
};

const CATALOG_PATHS = new Set(["/catalog", "/tcg", "/accessories", "/entertainment"]);
const CHECKOUT_PATHS = new Set(["/cart", "/merci"]);

/** Whether a page shows site messages at all: every public page, never the admin area. */
export function showsSiteMessages(pathname: string): boolean {
  return !(pathname === "/admin" || pathname.startsWith("/admin/"));
}

/** The location a public page belongs to, besides "global" (null: global messages only). */
export function locationOfPath(pathname: string): Exclude<SiteMessageLocation, "global"> | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === "/") return "home";
  if (CATALOG_PATHS.has(path)) return "catalog";
  if (path.startsWith("/product/")) return "product";
  if (CHECKOUT_PATHS.has(path) || path.startsWith("/paiement/")) return "checkout";
  return null;
}

/** The messages a page shows: its location's and the global ones, in the given order. */
export function messagesForPath<M extends { location: SiteMessageLocation }>(messages: readonly M[], pathname: string): M[] {
  if (!showsSiteMessages(pathname)) return [];
  const location = locationOfPath(pathname);
  return messages.filter((m) => m.location === "global" || m.location === location);
}

/**
 * What a visitor's dismissal is remembered by: the message and its text (FNV-1a of id, title
 * and content), so an edited message shows again while a reactivated one stays dismissed.
 */
export function dismissKey(message: { id: string; title: string; content: string }): string {
  let hash = 0x811c9dc5;
  for (const char of `${message.id}\n${message.title}\n${message.content}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${message.id}.${hash.toString(16).padStart(8, "0")}`;
}

export type MessageSegment = { kind: "text"; text: string } | { kind: "link"; text: string; href: string; external: boolean };

/**
 * A same-site path ("/catalog", "/product/x?y=1#z") or an http(s) URL, else null. "//host" and
 * "/\host" are other sites for a browser; javascript:, data: and the like are never links.
 */
export function safeHref(raw: string): { href: string; external: boolean } | null {
  if (/[\s\\<>"'`\p{Cc}]/u.test(raw)) return null;
  // A path's second character is a name's, never "/" (nor "\\", refused above).
  if (raw.startsWith("/")) return /^\/(?:[\w\-.~%]|$)/.test(raw) ? { href: raw, external: false } : null;
  if (!/^https?:\/\//i.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  // "https://shop.fr@evil.example" reads as the shop but goes elsewhere.
  if (url.username || url.password) return null;
  return { href: url.href, external: true };
}

// [text](target), a bare http(s) URL, or a bare path after a space, an opening bracket or quote.
const LINKS = /\[([^\]\n]{1,200})\]\(([^()\s]{1,2000})\)|(https?:\/\/[^\s<>"'`]+)|(^|[\s(«"'])(\/[\w\-.~%/?#=&+]*)/giu;
const TRAILING = /[.,;:!?»"']+$/;

/** A bare link's end: trailing punctuation, and a closing bracket it did not open, stay text. */
function trimBare(candidate: string): string {
  let end = candidate.replace(TRAILING, "");
  while (end.endsWith(")") && (end.match(/\(/g)?.length ?? 0) < (end.match(/\)/g)?.length ?? 0)) {
    end = end.slice(0, -1).replace(TRAILING, "");
  }
  return end;
}

/** The content cut into text and links, for React to render as text nodes and <a> elements. */
export function messageSegments(content: string): MessageSegment[] {
  const segments: MessageSegment[] = [];
  const text = (value: string) => {
    if (!value) return;
    const last = segments.at(-1);
    if (last?.kind === "text") last.text += value;
    else segments.push({ kind: "text", text: value });
  };
  let cursor = 0;
  for (const match of content.matchAll(LINKS)) {
    const [whole, label, target, url, before = "", path] = match;
    let start = match.index;
    let raw: string;
    let shown: string;
    if (label !== undefined && target !== undefined) {
      raw = target;
      shown = label;
    } else {
      start += before.length;
      raw = trimBare(url ?? path ?? "");
      shown = raw;
    }
    const link = safeHref(raw);
    if (!link || (path !== undefined && raw.length < 2)) continue;
    text(content.slice(cursor, start));
    segments.push({ kind: "link", text: shown, ...link });
    cursor = label !== undefined ? start + whole.length : start + raw.length;
  }
  text(content.slice(cursor));
  return segments;
}

/** The two examples the messages page starts with: inactive, so a new shop shows none of them. */
export const EXAMPLE_MESSAGES: (SiteMessageInput & { isActive: boolean })[] = [
  {
    title: "Nouveaux arrivages chaque semaine",
    content: "Displays, ETB et cartes à l'unité rejoignent la boutique tous les vendredis. Découvrez les dernières pépites dans [le catalogue](/catalog) !",
    location: "global",
    isActive: false,
  },
  {
    title: "Envoi soigné et suivi",
    content: "Chaque commande part protégée (sleeve, toploader, carton rigide) avec un numéro de suivi. Une question avant de commander ? Écrivez-nous sur /contact.",
    location: "checkout",
    isActive: false,
  },
];
