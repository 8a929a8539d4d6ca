import { AlertTriangle, Check, ShoppingCart } from "lucide-react";
import { Button } from "~/components/ui/button";
import { preloadToasts, toast } from "~/components/ui/toaster";
import type { ProductView } from "~/domain/product-view";
import { addProductToCart, useCart } from "~/lib/cart-store";
import { cn } from "~/lib/utils";

/** Add to cart, then "Ajouté" when already in the cart; disabled and "Indisponible" when out of stock. */
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
    if (result.ok) {
      toast.success("Ajouté au panier", { description: product.name });
    } else {
      toast.error(result.title, { description: result.description, icon: <AlertTriangle className="size-4" aria-hidden="true" /> });
    }
  }

  return (
    <Button
      type="button"
      onClick={add}
      // A click here ends in a toast: fetch its code on the way.
      onPointerEnter={preloadToasts}
      onFocus={preloadToasts}
      onTouchStart={preloadToasts}
      disabled={outOfStock}
      variant={inCart ? "secondary" : "primary"}
      className={cn("w-full", className)}
      aria-label={outOfStock ? `${product.name} indisponible` : `Ajouter ${product.name} au panier`}
    >
      {outOfStock ? (
        "Indisponible"
      ) : inCart ? (
        <>
          <Check aria-hidden="true" /> Ajouté
        </>
      ) : (
        <>
          <ShoppingCart aria-hidden="true" /> Ajouter au panier
        </>
      )}
    </Button>
  );
}
