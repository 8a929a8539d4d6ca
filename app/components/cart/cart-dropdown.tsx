import { ShoppingBag, X } from "lucide-react";
import { type RefObject, useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Popover, PopoverAnchor, PopoverClose, PopoverContent, PopoverTitle } from "~/components/ui/popover";
import { preloadToasts } from "~/components/ui/toaster";
import { cartSubtotalCents } from "~/domain/cart";
import { signatureDeliveryChargeCents } from "~/domain/signature-delivery";
import { formatEuros } from "~/domain/money";
import { productPath } from "~/domain/product-url";
import { removeLine, useCart, useDiscountCode } from "~/lib/cart-store";
import { refreshCartAndAnnounce } from "./cart-notices";
import { CartImage, RemoveLineButton } from "./cart-lines";
import { CheckoutProgress } from "./checkout-progress";
import { type PaymentProviderName, useCheckout } from "./use-checkout";

/**
 * The header's cart panel (SPEC.md "Cart dropdown"), loaded on the visitor's first intent by
 * cart-button.tsx, which keeps the trigger (its link to /cart) and the open state: the panel
 * anchors itself to that link, takes the focus when it opens, and gives it back on Escape or
 * "Fermer". Opening it checks the cart against the server.
 */
export function CartDropdown({
  open,
  onOpenChange,
  anchor,
  id,
  paymentProvider,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  anchor: RefObject<HTMLAnchorElement | null>;
  id: string;
  paymentProvider: PaymentProviderName;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const clickedOutside = useRef(false);
  const cart = useCart();
  const discountCode = useDiscountCode().code;
  const checkout = useCheckout(paymentProvider);
  const navigate = useNavigate();
  const subtotal = cartSubtotalCents(cart);
  // The same total as /cart: the "Remise contre signature" counts when chosen there.
  const signature = signatureDeliveryChargeCents(subtotal, cart.insuranceSelected);
  const close = () => onOpenChange(false);

  useEffect(() => {
    if (open) void refreshCartAndAnnounce();
  }, [open]);

  function remove(productId: number, index: number) {
    removeLine(productId);
    // The pressed button is gone: the focus goes to the next line's, or to the panel.
    requestAnimationFrame(() => {
      const buttons = list.current?.querySelectorAll<HTMLButtonElement>("[data-remove-line]");
      const next = buttons?.[Math.min(index, buttons.length - 1)];
      (next ?? panel.current)?.focus();
    });
  }

  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverAnchor virtualRef={anchor} />
      <PopoverContent
        ref={panel}
        id={id}
        aria-label="Votre panier"
        // The panel itself takes the focus (announced by its name); Tab then walks through it.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          clickedOutside.current = false;
          panel.current?.focus({ preventScroll: true });
        }}
        onInteractOutside={(event) => {
          // The trigger toggles the panel itself: a press on it is not a press outside.
          if (event.target instanceof Node && anchor.current?.contains(event.target)) event.preventDefault();
          else clickedOutside.current = true;
        }}
        onCloseAutoFocus={(event) => {
          // Escape, "Fermer" or the trigger: the focus goes back to the trigger. A click
          // elsewhere leaves it where the visitor put it.
          event.preventDefault();
          if (!clickedOutside.current) anchor.current?.focus({ preventScroll: true });
        }}
        className="flex max-h-[calc(100dvh-5rem)] flex-col focus-visible:outline-none"
      >
        <div className="flex items-center justify-between gap-2">
          <PopoverTitle className="text-lg font-bold">Votre panier</PopoverTitle>
          <PopoverClose
            className="-mr-2 inline-flex size-11 items-center justify-center rounded-lg hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
            aria-label="Fermer le panier"
          >
            <X className="size-5" aria-hidden="true" />
          </PopoverClose>
        </div>
        {cart.items.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-6 text-center">
            <ShoppingBag className="size-10 text-muted-foreground" aria-hidden="true" />
            <p className="font-semibold">Votre panier est vide</p>
            <Button
              type="button"
              onClick={() => {
                close();
                void navigate("/catalog");
              }}
            >
              Continuer vos achats
            </Button>
          </div>
        ) : (
          <>
            <ul
              ref={list}
              className="-mx-1 mt-2 max-h-60 min-h-0 divide-y divide-border overflow-y-auto px-1 focus-visible:outline-2 focus-visible:outline-ring"
              aria-label="Articles du panier"
              // Scrollable: reachable by keyboard (WCAG 2.1.1).
              tabIndex={0}
            >
              {cart.items.map(({ product, quantity }, index) => (
                <li key={product.id} className="flex items-center gap-3 py-2">
                  <CartImage src={product.image} className="size-14 shrink-0" />
                  <div className="min-w-0 flex-1">
                    <Link to={productPath(product)} onClick={() => close()} className="line-clamp-2 text-sm font-medium hover:text-accent hover:underline">
                      {product.name}
                    </Link>
                    <p className="tabular text-xs text-muted-foreground">
                      {quantity} × {formatEuros(product.priceCents)}
                    </p>
                  </div>
                  <RemoveLineButton name={product.name} onClick={() => remove(product.id, index)} disabled={checkout.busy} className="shrink-0" />
                </li>
              ))}
            </ul>
            <div className="mt-2 border-t border-border pt-3" aria-live="polite" aria-atomic="true">
              <div className="flex items-baseline justify-between">
                <span className="font-semibold">Total</span>
                <span className="tabular text-lg font-extrabold">{formatEuros(subtotal + signature)}</span>
              </div>
              {signature > 0 ? <p className="text-right text-xs text-muted-foreground">dont remise contre signature {formatEuros(signature)}</p> : null}
              <p className="text-right text-xs text-muted-foreground">TTC, hors livraison (choisie dans le panier)</p>
              {/* The server prices the code: its discount shows on the cart page and the payment page. */}
              {discountCode ? <p className="text-right text-xs text-muted-foreground">Code promo {discountCode} déduit au paiement</p> : null}
            </div>
            {checkout.progress !== null && checkout.message ? (
              <div className="mt-3">
                <CheckoutProgress progress={checkout.progress} message={checkout.message} />
              </div>
            ) : null}
            <div className="mt-3 grid grid-cols-2 gap-2">
              <Link to="/cart" onClick={() => close()} className={buttonVariants({ variant: "secondary" })}>
                Voir le panier
              </Link>
              <Button type="button" onClick={() => void checkout.start()} onPointerEnter={preloadToasts} onFocus={preloadToasts} disabled={checkout.busy}>
                Commander
              </Button>
            </div>
          </>
        )}
      </PopoverContent>
    </Popover>
  );
}
