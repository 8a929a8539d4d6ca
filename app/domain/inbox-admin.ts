import { z } from "zod";
import { INBOX_KINDS, INBOX_STATUSES, type InboxKind, type InboxStatus } from "./inbox-values";
import { MESSAGE_MAX } from "./contact-forms";
import { KIND_STATUSES } from "./inbox-workflow";
import { parsePageNumber } from "./pagination";
import { oneOfParam } from "./query-params";

/** The seller's inbox ("Messages reçus"): its URL state and the forms of a request's page. */

export const INBOX_PAGE_SIZE = 20;

export type InboxQuery = { kind: InboxKind | null; status: InboxStatus | null; page: number };

/** Unknown values read as "all"; a status the chosen kind never has is dropped. */
export function parseInboxQuery(params: URLSearchParams): InboxQuery {
  const kind = oneOfParam(params.get("kind"), INBOX_KINDS, null);
  const status = oneOfParam(params.get("status"), kind ? KIND_STATUSES[kind] : INBOX_STATUSES, null);
  return { kind, status, page: parsePageNumber(params.get("page")) };
}

/** The list's URL for a query; defaults are left out. */
export function inboxListHref(query: InboxQuery): string {
  const params = new URLSearchParams();
  if (query.kind) params.set("kind", query.kind);
  if (query.status) params.set("status", query.status);
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `/admin/inbox?${search}` : "/admin/inbox";
}

/** "3 demandes", "1 demande", "Aucune demande". */
export function requestCountText(n: number): string {
  if (n === 0) return "Aucune demande";
  return `${n} demande${n > 1 ? "s" : ""}`;
}

export const REPLY_MIN = 2;
export const NOTE_MAX = 2000;
export const replySchema = z.object({
  reply: z
    .string()
    .trim()
    .min(REPLY_MIN, `La réponse doit contenir au moins ${REPLY_MIN} caractères`)
    .max(MESSAGE_MAX, "La réponse doit contenir au plus 5\u00a0000 caractères"),
});

/** The offer's note to the customer (its lines are read by buyback-offer.ts readOfferLines). */
export const offerNoteSchema = z.object({
  note: z.string().trim().max(NOTE_MAX, "La note doit contenir au plus 2\u00a0000 caractères").default(""),
});

/** Buy-back photos: one WebP each, no larger than this on its longer side. */
export const PHOTO_MAX_SIDE = 1600;

const PHOTO_KEY = /^rachat_\d{13}_[0-9a-f]{16}\.webp$/;

/**
 * Private storage key of a buy-back photo: `rachat_<ms timestamp>_<16 hex>.webp`, one path
 * segment (the photo route's :key), never `pokemon_` (the product image sweep's prefix).
 */
export function photoKey(now: Date, random: string): string {
  const key = `rachat_${String(now.getTime()).padStart(13, "0")}_${random}.webp`;
  if (!PHOTO_KEY.test(key)) throw new Error(`photoKey: random part must be 16 lowercase hex digits, got "${random}"`);
  return key;
}

export function isPhotoKey(key: string): boolean {
  return PHOTO_KEY.test(key);
}
