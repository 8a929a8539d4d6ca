import { ShoppingBag } from "lucide-react";
import { type ComponentPropsWithoutRef, forwardRef, type MouseEvent } from "react";
import { Link } from "react-router";
import type { PaymentProviderName } from "~/components/cart/use-checkout";
import { buttonVariants } from "~/components/ui/button";
import { useOnDemand } from "~/components/ui/on-demand";
import { cartCount } from "~/domain/cart";
import { useCart } from "~/lib/cart-store";

const loadCartDropdown = () => import("~/components/cart/cart-dropdown");

/**
 * The header's cart icon with its count. It is a link to /cart (which works without
 * JavaScript) until the cart panel's code arrives on the visitor's first intent; a press made
 * before that opens the panel on arrival.
 */
export function CartButton({ paymentProvider }: { paymentProvider: PaymentProviderName }) {
  const count = cartCount(useCart());
  const { module, trigger, arrival } = useOnDemand(loadCartDropdown, "click");
  if (module) {
    return (
      <module.CartDropdown arrival={arrival} paymentProvider={paymentProvider}>
        <CartIcon count={count} />
      </module.CartDropdown>
    );
  }
  return (
    <CartIcon
      count={count}
      {...trigger}
      onClick={(event: MouseEvent) => {
        // With JavaScript the icon opens the panel; the link is for browsers without it.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        if ("onClick" in trigger) trigger.onClick();
      }}
    />
  );
}

type CartIconProps = { count: number } & Omit<ComponentPropsWithoutRef<"a">, "href">;

/** The icon and its badge; forwards the ref and the handlers the panel's trigger gives it. */
const CartIcon = forwardRef<HTMLAnchorElement, CartIconProps>(function CartIcon({ count, ...props }, ref) {
  const label = count === 0 ? "Panier vide" : `Panier : ${count} article${count > 1 ? "s" : ""}`;
  return (
    <Link ref={ref} to="/cart" className={buttonVariants({ variant: "ghost", size: "icon", className: "relative" })} aria-label={label} {...props}>
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
});
