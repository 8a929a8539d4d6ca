import { z } from "zod";

/**
 * How an order that mixes pre-orders and items in stock ships (issue 55, decision 062): the
 * seller's setting (/admin/settings), said by the cart and the payment page, recorded on the order.
 */
export const PREORDER_SHIPPING_MODES = ["at_release", "split"] as const;
export type PreorderShippingMode = (typeof PREORDER_SHIPPING_MODES)[number];
export const DEFAULT_PREORDER_SHIPPING: PreorderShippingMode = "at_release";

export const PREORDER_SHIPPING_LABELS: Record<PreorderShippingMode, string> = {
  at_release: "Une seule expédition à la sortie",
  split: "Deux expéditions, livraison facturée une fois",
};

export const preorderShippingSchema = z.object({
  mode: z.enum(PREORDER_SHIPPING_MODES, { message: "Choisissez l'expédition des paniers mixtes : une seule à la sortie, ou deux." }),
});

/** An order mixes them when it has at least one pre-order line and one line in stock. */
export function isMixedCart(lines: readonly { preorder: boolean }[]): boolean {
  return lines.some((line) => line.preorder) && lines.some((line) => !line.preorder);
}

/** What the cart and the payment page say of a mixed cart's shipping. */
export function mixedCartShippingText(mode: PreorderShippingMode): string {
  return mode === "split"
    ? "Votre panier réunit des précommandes et des articles disponibles : les articles disponibles sont expédiés tout de suite, les précommandes à leur sortie, et la livraison n'est facturée qu'une fois."
    : "Votre panier réunit des précommandes et des articles disponibles : tout est expédié en une seule fois, à la sortie des précommandes.";
}
