import { useEffect, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import { VIEWER_CHECKED_KEY, VIEWER_COOKIE } from "~/domain/browser-storage";

/**
 * Who the browser says is signed in: a readable, non-secret cookie the server sets at sign-in
 * and clears at sign-out. It only picks which header links to show, so that public pages can
 * be one cached HTML for every visitor (docs/decisions/014-one-page-for-every-visitor.md). The
 * proof of identity stays the HttpOnly session cookie, which every private page and action checks.
 */
export type ViewerHint = { name: string; role: "user" | "admin" };

export { VIEWER_COOKIE };
const NAME_MAX = 100;

export function encodeViewerHint(viewer: ViewerHint): string {
  return encodeURIComponent(JSON.stringify({ n: viewer.name.slice(0, NAME_MAX), r: viewer.role }));
}

/** The hint in a Cookie header (or `document.cookie`); null when absent or not well formed. */
export function parseViewerHint(cookies: string | null | undefined): ViewerHint | null {
  if (!cookies) return null;
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== VIEWER_COOKIE) continue;
    try {
      const value = JSON.parse(decodeURIComponent(part.slice(eq + 1).trim())) as { n?: unknown; r?: unknown } | null;
      if (typeof value?.n === "string" && (value.r === "user" || value.r === "admin")) return { name: value.n.slice(0, NAME_MAX), role: value.r };
    } catch {
      // a hand-edited or truncated cookie: as if absent
    }
    return null;
  }
  return null;
}

/** The Set-Cookie header that stores the hint (for as long as the session) or clears it (null). */
export function viewerHintCookie(viewer: ViewerHint | null, options: { secure: boolean; maxAgeSeconds: number }): string {
  const attributes = `Path=/; SameSite=Lax${options.secure ? "; Secure" : ""}`;
  return viewer ? `${VIEWER_COOKIE}=${encodeViewerHint(viewer)}; Max-Age=${options.maxAgeSeconds}; ${attributes}` : `${VIEWER_COOKIE}=; Max-Age=0; ${attributes}`;
}

/**
 * Runs in <head> before the first paint: marks <html data-viewer="user|admin"> from the hint,
 * so the cached page shows the account link instead of "Connexion" without a flash. Mirrors
 * parseViewerHint; kept tiny and dependency-free.
 */
export const VIEWER_SCRIPT = `(function(){try{var m=document.cookie.match(/(?:^|;\\s*)${VIEWER_COOKIE}=([^;]*)/);if(!m)return;var v=JSON.parse(decodeURIComponent(m[1]));if(v&&(v.r==="user"||v.r==="admin"))document.documentElement.setAttribute("data-viewer",v.r)}catch(_){}})()`;

/** Class names for the header: shown only to signed-in visitors, or only to others (before hydration too). */
export const SIGNED_IN_ONLY = "hidden [[data-viewer]_&]:inline-flex";
export const SIGNED_OUT_ONLY = "[[data-viewer]_&]:hidden";

const listeners = new Set<() => void>();
let lastCookies: string | null = null;
let lastHint: ViewerHint | null = null;

function readHint(): ViewerHint | null {
  const cookies = document.cookie;
  if (cookies !== lastCookies) {
    lastCookies = cookies;
    lastHint = parseViewerHint(cookies);
  }
  return lastHint;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab may have signed in or out.
  window.addEventListener("focus", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("focus", listener);
  };
}

const notify = () => listeners.forEach((listener) => listener());

/** The signed-in visitor as the browser knows them; null on the server and during hydration. */
export function useViewer(): ViewerHint | null {
  return useSyncExternalStore(subscribe, readHint, () => null);
}

const CHECKED_KEY = VIEWER_CHECKED_KEY;

/**
 * Keeps the hint and <html data-viewer> in step (rendered once, in the root): after each
 * navigation (sign-in and sign-out set the cookie), and once per browser session with the
 * server, which renews or clears the hint (a session that expired or was revoked elsewhere).
 */
export function useViewerSync(): void {
  const viewer = useViewer();
  const location = useLocation();
  useEffect(notify, [location]);
  useEffect(() => {
    const root = document.documentElement;
    if (viewer) root.setAttribute("data-viewer", viewer.role);
    else root.removeAttribute("data-viewer");
  }, [viewer]);
  useEffect(() => {
    if (!viewer) return;
    try {
      if (sessionStorage.getItem(CHECKED_KEY)) return;
      sessionStorage.setItem(CHECKED_KEY, "1");
    } catch {
      return; // no storage: the hint stays as the server last set it
    }
    fetch("/api/viewer", { credentials: "same-origin" }).then(notify, () => {});
  }, [viewer]);
}
