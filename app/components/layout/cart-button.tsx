import { ShoppingBag } from "lucide-react";
import { type ComponentPropsWithoutRef, forwardRef, type KeyboardEvent, type MouseEvent, useRef, useState } from "react";
import type { PaymentProviderName } from "~/components/cart/use-checkout";
import { buttonVariants } from "~/components/ui/button";
import { useOnDemand } from "~/components/ui/on-demand";
import { cartCount } from "~/domain/cart";
import { useCart } from "~/lib/cart-store";
import { cn } from "~/lib/utils";
import { Link } from "react-router";

const loadCartDropdown = () => import("~/components/cart/cart-dropdown");

/** The page has one cart button (the header's). */
const CART_PANEL_ID = "cart-panel";

/**
 * The header's cart icon with its count: a link to /cart (which works without JavaScript)
 * that, with JavaScript, opens the cart panel. The panel's code (Radix, the checkout) loads on
 * the visitor's first intent (pointer over, touch, focus, press); a press made before it
 * arrives opens it on arrival. The link stays the same element throughout, so a press or the
 * focus is never lost while the code arrives: the panel anchors itself to it.
 */
export function CartButton({ paymentProvider }: { paymentProvider: PaymentProviderName }) {
  const count = cartCount(useCart());
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLAnchorElement>(null);
  const { module, trigger } = useOnDemand(loadCartDropdown, "click");
  const { onPointerEnter: requestCode, onTouchStart, onFocus, onBlur } = trigger;

  function toggle() {
    requestCode();
    setOpen((was) => !was);
  }

  return (
    <>
      <CartIcon
        ref={anchor}
        count={count}
        onPointerEnter={requestCode}
        onTouchStart={onTouchStart}
        onFocus={onFocus}
        onBlur={onBlur}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open && module ? CART_PANEL_ID : undefined}
        data-state={open ? "open" : "closed"}
        onClick={(event: MouseEvent) => {
          // A ctrl/cmd/shift click opens /cart elsewhere, as a link does.
          if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          toggle();
        }}
        onKeyDown={(event: KeyboardEvent) => {
          // Enter arrives as a click; Space opens it too, as on a button.
          if (event.key !== " ") return;
          event.preventDefault();
          toggle();
        }}
      />
      {module ? <module.CartDropdown open={open} onOpenChange={setOpen} anchor={anchor} id={CART_PANEL_ID} paymentProvider={paymentProvider} /> : null}
    </>
  );
}

type CartIconProps = { count: number } & Omit<ComponentPropsWithoutRef<"a">, "href">;

/** The icon and its badge; the accessible name says the count. */
const CartIcon = forwardRef<HTMLAnchorElement, CartIconProps>(function CartIcon({ count, className, ...props }, ref) {
  const label = count === 0 ? "Panier vide" : `Panier : ${count} article${count > 1 ? "s" : ""}`;
  return (
    <Link
      ref={ref}
      to="/cart"
      className={buttonVariants({ variant: "ghost", size: "icon", className: cn("relative data-[state=open]:bg-muted", className) })}
      aria-label={label}
      {...props}
    >
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
