import { useEffect, useSyncExternalStore } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "~/components/ui/toaster";
import { useViewer } from "~/lib/viewer";

/**
 * « Ajouter à ma liste » (issue 56, point 3) on cached public pages: every visitor gets the same
 * HTML, an empty heart; the browser of a signed-in visitor (the viewer hint cookie) then asks
 * GET /api/wishlist once per page (navigation) for the ids on their list and fills the hearts,
 * so a change made on /account/liste or in another tab shows on the next page. A click
 * turns the heart at once and rolls it back if the server refuses. Signed out, it leads to the
 * sign-in page, which brings the visitor back. Kept small: it ships with every listing and
 * product page (docs/decisions/066-wish-list.md), so no library, one inline path.
 */
let listed: Set<number> | null = null;
/** The viewer and navigation `listed` was loaded for: the hearts of one page share one request. */
let loadedFor: string | null = null;
/** Clicks since that load was asked: its answer may predate them, so they are applied over it. */
let clicked = new Map<number, boolean>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => (listeners.add(listener), () => void listeners.delete(listener));

function load(viewer: string, page: string) {
  const key = `${viewer}|${page}`;
  if (loadedFor === key) return;
  // Another person signed in on this browser: never show the last one's hearts meanwhile.
  if (!loadedFor?.startsWith(`${viewer}|`)) listed = null;
  loadedFor = key;
  clicked = new Map();
  fetch("/api/wishlist")
    .then((response) => (response.ok ? (response.json() as Promise<{ productIds: number[] }>) : Promise.reject()))
    .then(({ productIds }) => {
      if (loadedFor !== key) return;
      listed = new Set(productIds);
      clicked.forEach((on, productId) => (on ? listed!.add(productId) : listed!.delete(productId)));
      notify();
    })
    .catch(() => (loadedFor = null)); // the next heart rendered asks again
}

function set(productId: number, on: boolean) {
  clicked.set(productId, on);
  listed = new Set(listed);
  if (on) listed.add(productId);
  else listed.delete(productId);
  notify();
}

async function toggle(productId: number, on: boolean): Promise<number> {
  set(productId, on);
  const response = await fetch("/api/wishlist", { method: "POST", body: new URLSearchParams({ productId: String(productId), intent: on ? "add" : "remove" }) }).catch(() => null);
  if (response?.ok) {
    // Its alerts start off (a click is no consent to e-mails): where to switch them on.
    if (on) toast.success("Ajouté à votre liste. Ses alertes s'activent dans Mon compte › Ma liste d'envies.");
    return 200;
  }
  set(productId, !on);
  const error = (await response?.json().catch(() => null)) as { error?: string } | null;
  toast.error(error?.error ?? "La liste n'a pas pu être modifiée. Vérifiez votre connexion et réessayez.");
  return response?.status ?? 0;
}

const HEART = "M19 14c1.49-1.46 3-3.21 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.76 0-3 .5-4.5 2-1.5-1.5-2.74-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4.05 3 5.5l7 7Z";

/** `name`: on a card, the product's name ends the button's name (several hearts per page). */
export function WishlistHeart({ productId, name, className }: { productId: number; name?: string; className: string }) {
  const viewer = useViewer();
  const navigate = useNavigate();
  const { pathname, search, key } = useLocation();
  const pressed = useSyncExternalStore(subscribe, () => (viewer && listed?.has(productId)) === true, () => false);
  useEffect(() => {
    if (viewer) load(viewer.name, key);
  }, [viewer, key]);
  // One name in both states, aria-pressed saying which (a toggle whose name changed would be read twice over).
  const label = "Ajouter à ma liste";
  const signIn = () => navigate(`/login?redirectTo=${encodeURIComponent(pathname + search)}`);
  const onClick = () => {
    if (!viewer) return signIn();
    void toggle(productId, !pressed).then((status) => status === 401 && signIn());
  };
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={`inline-flex items-center justify-center gap-2 font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ${className}`}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className={`size-5 shrink-0 ${pressed ? "fill-current text-destructive" : "fill-none"}`} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
        <path d={HEART} />
      </svg>
      {/* On a card the heart alone shows: its name is read, never an aria-label (WCAG 2.5.3, as the card's other button). */}
      {name ? <span className="sr-only">{`${label} : ${name}`}</span> : label}
    </button>
  );
}
