import { useEffect, useRef, useState } from "react";
import { toast } from "~/components/ui/toaster";
import { describeCartChanges } from "~/domain/cart";
import { type CheckoutFailure, type CheckoutSuccess, EMPTY_CART_ERROR, PROGRESS_START, PROVIDER_ERROR, type PaymentProviderName, checkoutMessage, nextProgress } from "~/domain/checkout";

export type { PaymentProviderName };
import { formatEuros } from "~/domain/money";
import { getCart, refreshCartFromServer } from "~/lib/cart-store";

const DEFAULT_ERROR = "Une erreur est survenue lors de la création de la session de paiement.";
const STOCK_TEXT = /plus disponible|victime de son succès/;

/** Goes to the payment page; SPEC.md's fallbacks if the browser is still here after 1 s. */
function redirectTo(url: string) {
  window.location.assign(url);
  window.setTimeout(() => {
    try {
      window.location.href = url;
    } catch {
      window.open(url, "_blank", "noopener");
    }
  }, 1_000);
}

/**
 * The checkout as the browser runs it (SPEC.md sections 4, 5 and 8): the cart is checked against
 * the server first, then POST /api/checkout with ids and quantities only; a progress bar
 * (10, +10 every 300 ms up to 90, 100 on success) while it runs; the answers become toasts.
 */
export function useCheckout(provider: PaymentProviderName) {
  const [progress, setProgress] = useState<number | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearInterval(timer.current), []);

  function stop() {
    window.clearInterval(timer.current);
    setProgress(null);
  }

  async function start() {
    if (progress !== null) return;
    if (getCart().items.length === 0) {
      toast.error(EMPTY_CART_ERROR.error, { description: EMPTY_CART_ERROR.details });
      return;
    }
    setProgress(PROGRESS_START);
    timer.current = window.setInterval(() => setProgress((p) => (p === null ? p : nextProgress(p))), 300);

    const changes = await refreshCartFromServer();
    const changed = describeCartChanges(changes ?? [], formatEuros);
    if (changed) {
      // The total the customer saw is no longer the one they would pay: show it first.
      stop();
      toast.error(changed.title, { description: `${changed.description} Vérifiez votre panier avant de payer.` });
      return;
    }
    const cart = getCart();
    if (cart.items.length === 0) {
      stop();
      toast.error(EMPTY_CART_ERROR.error, { description: EMPTY_CART_ERROR.details });
      return;
    }
    toast.info("Adresse de livraison", {
      description: "Tous les champs d'adresse sont obligatoires pour la livraison. Si vous choisissez un point relais, indiquez son adresse complète.",
    });

    let answer: Partial<CheckoutSuccess & CheckoutFailure> = {};
    let ok = false;
    try {
      const response = await fetch("/api/checkout", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          items: cart.items.map((line) => ({ productId: line.product.id, quantity: line.quantity })),
          insuranceSelected: cart.insuranceSelected,
        }),
      });
      ok = response.ok;
      answer = (await response.json().catch(() => ({}))) as typeof answer;
    } catch {
      answer = { error: "Connexion impossible. Vérifiez votre connexion internet et réessayez." };
    }

    if (ok && answer.url) {
      window.clearInterval(timer.current);
      setProgress(100);
      redirectTo(answer.url);
      return;
    }
    stop();
    const text = [answer.error, answer.details].filter(Boolean).join(" ");
    if (answer.code === "OUT_OF_STOCK" || answer.code === "UNAVAILABLE" || STOCK_TEXT.test(text)) {
      toast.warning("Produit indisponible", {
        description:
          answer.details ??
          "Ce produit a été victime de son succès : il vient d'être pris par d'autres collectionneurs. Restez à l'affût, il pourrait revenir bientôt !",
      });
      await refreshCartFromServer();
      return;
    }
    toast.error("Erreur", { description: ok ? PROVIDER_ERROR : text || DEFAULT_ERROR });
  }

  return { progress, busy: progress !== null, message: progress === null ? null : checkoutMessage(progress, provider), start };
}
