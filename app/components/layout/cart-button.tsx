import { ShoppingBag } from "lucide-react";
import { Link } from "react-router";
import { cartCount } from "~/domain/cart";
import { useCart } from "~/lib/cart-store";
import { buttonVariants } from "~/components/ui/button";

export function CartButton() {
  const count = cartCount(useCart());
  const label = count === 0 ? "Panier vide" : `Panier : ${count} article${count > 1 ? "s" : ""}`;
  return (
    <Link to="/cart" className={buttonVariants({ variant: "ghost", size: "icon", className: "relative" })} aria-label={label}>
      <ShoppingBag className="!size-5" aria-hidden="true" />
      {count > 0 ? (
        <span
          data-testid="cart-count"
          className="tabular absolute right-0.5 top-0.5 flex min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] font-bold leading-5 text-primary-foreground"
        >
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}
