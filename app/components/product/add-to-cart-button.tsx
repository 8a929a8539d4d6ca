import { AlertTriangle } from "lucide-react";
import { buttonVariants } from "~/components/ui/button";
import { preloadToasts, toast } from "~/components/ui/toaster";
import type { ProductView } from "~/domain/product-view";
import { addProductToCart, useCart } from "~/lib/cart-store";
import { useEarlyPress } from "~/lib/early-press";
import { cn } from "~/lib/utils";
import { CartIcon, CheckIcon } from "./icons";

// Worked out once, not per card (merging classes on every render of a listing adds up).
// Positioned: above a product card's link, whose ::after covers the card.
const CLASSES = {
  add: cn(buttonVariants({ variant: "primary" }), "relative w-full"),
  added: cn(buttonVariants({ variant: "secondary" }), "relative w-full"),
};

/**
 * Add to cart, then "Ajouté" when already in the cart; disabled and "Indisponible" when out of
 * stock. The product's name follows the visible words, visually hidden and with no aria-label:
 * each button of a listing is told apart, and its accessible name holds what it shows (WCAG
 * 2.5.3): "Ajouter au panier : {name}", "Ajouté au panier : {name}", "Indisponible : {name}".
 */
export function AddToCartButton({
  product,
  quantity = 1,
  className,
}: {
  product: ProductView;
  quantity?: number;
  className?: string;
}) {
  const cart = useCart();
  const inCart = cart.items.some((line) => line.product.id === product.id);
  const outOfStock = product.stock <= 0;

  function add() {
    const result = addProductToCart(
      { id: product.id, name: product.name, priceCents: product.priceCents, stock: product.stock, image: product.image?.src ?? null },
      quantity,
    );
    if (result.ok && result.capped) {
      // Fewer than asked: the toast says how many went in.
      toast.success("Ajouté au panier", {
        description: `${product.name} : ${result.added} ${result.added > 1 ? "unités ajoutées" : "unité ajoutée"}, la quantité maximale disponible est atteinte.`,
      });
    } else if (result.ok) {
      toast.success("Ajouté au panier", { description: product.name });
    } else {
      toast.error(result.title, { description: result.description, icon: <AlertTriangle className="size-4" aria-hidden="true" /> });
    }
  }

  const earlyPress = useEarlyPress(add);
  const classes = inCart ? CLASSES.added : CLASSES.add;
  return (
    <button
      type="button"
      onClick={add}
      {...earlyPress}
      // A click here ends in a toast: fetch its code on the way.
      onPointerEnter={preloadToasts}
      onFocus={preloadToasts}
      onTouchStart={preloadToasts}
      disabled={outOfStock}
      className={className ? cn(classes, className) : classes}
    >
      {outOfStock ? "Indisponible" : inCart ? <CheckIcon /> : <CartIcon />}
      {outOfStock ? null : inCart ? "Ajouté" : "Ajouter au panier"}
      {/* "Ajouté au panier : …" once added: one name part ("au panier : …") for both states. */}
      <span className="sr-only">{inCart && !outOfStock ? ` au panier : ${product.name}` : ` : ${product.name}`}</span>
    </button>
  );
}
