import { data } from "react-router";
import { readAtMost } from "./read-at-most.server";

/**
 * What a post sends, read for the services; ESLint sends route code here instead of
 * `request.formData()` / `request.json()`, which had three faults a script could use:
 * - no ceiling: a 60 MB post to /login was buffered whole (110 MB more memory for one request);
 * - a body that is not a form (another content type, a broken multipart) threw: a 500;
 * - PostgreSQL cannot hold a NUL character in text ("invalid byte sequence for encoding UTF8:
 *   0x00"): a field with one failed at the first query, a 500. No keyboard types one and no
 *   text means anything by it, so it is dropped from every text (files are left as they are).
 */
const NUL = /\0/g;

/** The most an ordinary form or JSON post may weigh: the longest form (a 5,000-character description, URL-encoded) is under 64 KB. */
export const FORM_LIMIT_BYTES = 256 * 1024;

function clean(text: string): string {
  return text.includes("\0") ? text.replace(NUL, "") : text;
}

export function withoutNul(form: FormData): FormData {
  if (![...form].some(([name, value]) => name.includes("\0") || (typeof value === "string" && value.includes("\0")))) return form;
  const result = new FormData();
  for (const [name, value] of form) {
    if (typeof value === "string") result.append(clean(name), clean(value));
    else result.append(clean(name), value);
  }
  return result;
}

/**
 * A form post (URL-encoded or multipart) read with a ceiling: "too-large" past `limit` (the
 * declared length is trusted only to refuse early), "unreadable" when it cannot be parsed.
 */
export async function readFormAtMost(request: Request, limit: number): Promise<FormData | "too-large" | "unreadable"> {
  const body = await bodyAtMost(request, limit);
  if (!body) return "too-large";
  try {
    return withoutNul(await new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData());
  } catch {
    return "unreadable";
  }
}

/** An ordinary form: past the ceiling a 413, unreadable a 400, in French. */
export async function readForm(request: Request, limit = FORM_LIMIT_BYTES): Promise<FormData> {
  const form = await readFormAtMost(request, limit);
  if (form === "too-large") throw tooLarge();
  if (form === "unreadable") throw data("Le formulaire envoyé est illisible. Rechargez la page et réessayez.", { status: 400 });
  return form;
}

/** JSON.parse, with NUL characters dropped from every string, keys included. Throws on bad JSON. */
export function parseJson(text: string): unknown {
  // JSON can only carry a NUL escaped: without one, no reviver (the checkout's hot path).
  if (!text.includes("\\u0000")) return JSON.parse(text);
  return JSON.parse(text, function (_key, value: unknown) {
    if (typeof value === "string") return clean(value);
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).some((key) => key.includes("\0"))) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [clean(key), item]));
    }
    return value;
  });
}

/** The request's JSON body, or null when it is not JSON; past the ceiling a 413. */
export async function readJson(request: Request, limit = FORM_LIMIT_BYTES): Promise<unknown> {
  const body = await bodyAtMost(request, limit);
  if (!body) throw tooLarge();
  try {
    return parseJson(new TextDecoder().decode(body));
  } catch {
    return null;
  }
}

/** The rest of the body is not kept: it is dropped, and the connection closed after the answer (closeAfterUnreadBody, server/request-guards.ts). */
function tooLarge() {
  return data("L'envoi est trop volumineux.", { status: 413 });
}

/** The raw body, or null past `limit`. */
export async function bodyAtMost(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return null;
  return request.body ? readAtMost(request.body, limit) : new Uint8Array(new ArrayBuffer(0));
}
