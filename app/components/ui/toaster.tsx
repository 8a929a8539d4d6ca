import { AlertTriangle } from "lucide-react";
import { type ReactNode, useEffect, useState, useSyncExternalStore } from "react";
import type { ExternalToast, Toaster as SonnerToaster, toast as sonnerToast } from "sonner";
import { useTheme } from "~/lib/theme";

/**
 * Toasts (sonner), whose code (about 10 KB gzipped) comes with the first toast, or before it on
 * an intent that usually leads to one (`preloadToasts`: pointer over or focus on "Ajouter au
 * panier"), instead of with every page (docs/performance.md). Import `toast` from here, not from
 * "sonner". <Toaster /> mounts sonner's live region as soon as the code is there, and a toast is
 * handed to sonner only once that region is on the page, so screen readers announce it.
 */
type Sonner = { Toaster: typeof SonnerToaster; toast: typeof sonnerToast };

let sonner: Promise<Sonner> | null = null;
/** Bumped each time a load of sonner starts: <Toaster /> follows it. */
let attempts = 0;
const listeners = new Set<() => void>();
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => (markMounted = resolve));

function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import("sonner").catch((error: unknown) => {
      sonner = null; // offline or a new deployment: the next toast tries again
      throw error;
    });
    attempts += 1;
    for (const listener of listeners) listener();
  }
  return sonner;
}

/** Starts loading the toasts' code, then mounts their live region; harmless to call often. */
export function preloadToasts(): void {
  loadSonner().catch(() => {});
}

type Kind = "success" | "error" | "info" | "warning";

function show(kind: Kind, message: ReactNode, data?: ExternalToast): void {
  Promise.all([loadSonner(), mounted]).then(
    ([{ toast: sonnerToast }]) => sonnerToast[kind](message, data),
    (error: unknown) => console.warn("Notification non affichée :", error),
  );
}

/**
 * SPEC.md section 8: a toast titled "Produit indisponible", or whose text says "victime de son
 * succès", is always shown in the red warning style with a warning icon.
 */
export function isStockWarning(title: ReactNode, description?: ReactNode): boolean {
  const says = (text: ReactNode) => typeof text === "string" && text.includes("victime de son succès");
  return title === "Produit indisponible" || says(title) || says(description);
}

/** The red warning style (sonner's warning toast, styled red below) with its warning icon. */
function warning(message: ReactNode, data?: ExternalToast): void {
  show("warning", message, { icon: <AlertTriangle className="size-4" aria-hidden="true" />, ...data });
}

/** A toast of a kind, unless SPEC.md section 8 wants it as the red stock warning. */
const kindOf =
  (kind: Exclude<Kind, "warning">) =>
  (message: ReactNode, data?: ExternalToast): void =>
    isStockWarning(message, data?.description as ReactNode) ? warning(message, data) : show(kind, message, data);

/** Takes one toast (by the id it was shown with) or all of them off; none shown yet, nothing to do. */
function dismiss(id?: string | number): void {
  sonner?.then(
    ({ toast: sonnerToast }) => sonnerToast.dismiss(id),
    () => {},
  );
}

export const toast = {
  dismiss,
  success: kindOf("success"),
  error: kindOf("error"),
  /** Neutral information (the delivery-address reminder, a cancelled payment, a cart update). */
  info: kindOf("info"),
  /** The red warning style with its icon (out of stock, "victime de son succès"). */
  warning,
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Toasts bottom-right, at most 3 visible (DESIGN.md); the theme follows the site's. */
export function Toaster() {
  const { resolved } = useTheme();
  const attempt = useSyncExternalStore(
    subscribe,
    () => attempts,
    () => 0,
  );
  const [module, setModule] = useState<{ Toaster: Sonner["Toaster"] } | null>(null);
  useEffect(() => {
    if (attempt === 0 || module) return;
    let live = true;
    loadSonner().then(
      ({ Toaster: Sonner }) => live && setModule({ Toaster: Sonner }),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [attempt, module]);
  if (!module) return null;
  return (
    <>
      <module.Toaster
        theme={resolved}
        position="bottom-right"
        visibleToasts={3}
        duration={5000}
        closeButton
        toastOptions={{
          closeButtonAriaLabel: "Fermer la notification",
          classNames: {
            toast: "!bg-card !text-card-foreground !border-border !rounded-xl !shadow-xl",
            description: "!text-muted-foreground",
            error: "!bg-destructive !text-destructive-foreground !border-destructive [&_[data-description]]:!text-destructive-foreground",
            // SPEC.md section 8: stock warnings are red, with a warning icon.
            warning: "!bg-destructive !text-destructive-foreground !border-destructive [&_[data-description]]:!text-destructive-foreground",
            info: "!border-l-4 !border-l-accent",
          },
        }}
      />
      <Mounted />
    </>
  );
}

/** Runs its effect once sonner's Toaster, its earlier sibling, is on the page and listening. */
function Mounted() {
  useEffect(() => markMounted(), []);
  return null;
}
