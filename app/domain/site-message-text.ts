import type { SiteMessageLocation } from "./catalog-values";

/**
 * Where site messages show and how their text becomes links: what the public pages need, kept
 * apart from the admin form's zod schema (app/domain/site-messages.ts) so that no public page
 * loads zod (docs/performance.md).
 */

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
