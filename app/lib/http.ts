/**
 * Public catalogue pages: browsers revalidate every time (max-age=0), while the server's own
 * page cache (server/page-cache.ts), purged on every catalogue change, may share them.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, must-revalidate";

/** Whether a Cache-Control value lets a shared cache keep the answer (`public`, not `private` or `no-store`). */
export function isSharedCacheControl(cacheControl: string): boolean {
  return /(^|,)\s*public\b/.test(cacheControl) && !/no-store|private/.test(cacheControl);
}

/** A route module's `headers` export for pages the page cache may share. */
export function publicPageHeaders(): HeadersInit {
  return { "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL };
}

/**
 * A form page's `headers` export: a document POST answers with its action's headers (a 429's
 * Retry-After), which React Router only passes on when the route says so.
 */
export function formPageHeaders({ actionHeaders }: { actionHeaders: Headers }): Headers {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

/** Pages that belong to one person (cart, order, account): never stored by a shared cache. */
export const PRIVATE_PAGE_CACHE_CONTROL = "private, no-store";


export const METHOD_NOT_ALLOWED = "Méthode non autorisée.";

/** A form posted to a page that has none (React Router's own refusal is an English sentence). */
export const NO_FORM_ON_THIS_PAGE = "Cette page ne reçoit pas de formulaire.";

/** A resource route's answer to a method it does not take (React Router's own is English JSON). */
export function methodNotAllowed(allow: string): Response {
  return new Response(METHOD_NOT_ALLOWED, {
    status: 405,
    headers: { Allow: allow, "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** The `action` of a resource route that is only read: a post there is a script's. */
export function readOnlyAction(): Response {
  return methodNotAllowed("GET, HEAD");
}

/** A PDF shown in the browser (inline) under its own file name; never indexed. */
export function pdfResponse(pdf: Uint8Array, fileName: string, cacheControl: string): Response {
  return new Response(Buffer.from(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${fileName}"`,
      "Cache-Control": cacheControl,
      "X-Robots-Tag": "noindex",
    },
  });
}
