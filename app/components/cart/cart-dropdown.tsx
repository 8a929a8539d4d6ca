import { ShoppingBag, Trash2, X } from "lucide-react";
import { type ReactElement, type Ref, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { type Arrival, useArrivalFocus } from "~/components/ui/on-demand";
import { Popover, PopoverClose, PopoverContent, PopoverTitle, PopoverTrigger } from "~/components/ui/popover";
import { toast } from "~/components/ui/toaster";
import { cartSubtotalCents, describeCartChanges } from "~/domain/cart";
import { formatEuros } from "~/domain/money";
import { productPath } from "~/domain/product-url";
import { refreshCartFromServer, removeLine, useCart } from "~/lib/cart-store";
import { CartImage } from "./cart-lines";
import { CheckoutProgress } from "./checkout-progress";
import { type PaymentProviderName, useCheckout } from "./use-checkout";

/**
 * The header's cart panel (SPEC.md "Cart dropdown"), loaded on the visitor's first intent by
 * cart-button.tsx. Opening it checks the cart against the server.
 */
export function CartDropdown({ arrival, children, paymentProvider }: { arrival: Arrival; children: ReactElement; paymentProvider: PaymentProviderName }) {
  const [open, setOpen] = useState(arrival.defaultOpen);
  const triggerRef = useArrivalFocus<HTMLAnchorElement>(arrival);
  const cart = useCart();
  const checkout = useCheckout(paymentProvider);
  const navigate = useNavigate();

  useEffect(() => {
    if (!open) return;
    void refreshCartFromServer().then((changes) => {
      const message = describeCartChanges(changes ?? [], formatEuros);
      if (message) toast.error(message.title, { description: message.description });
    });
  }, [open]);

  return (
    <Popover open={open} onOpenChange={setOpen}>
      {/* The trigger is the header's cart link (an <a>): Radix types its ref as a button's. */}
      <PopoverTrigger asChild ref={triggerRef as unknown as Ref<HTMLButtonElement>}>
        {children}
      </PopoverTrigger>
      <PopoverContent aria-label="Votre panier" onOpenAutoFocus={(event) => event.preventDefault()}>
        <div className="flex items-center justify-between gap-2">
          <PopoverTitle className="text-lg font-bold">Votre panier</PopoverTitle>
          <PopoverClose className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring" aria-label="Fermer le panier">
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
                setOpen(false);
                void navigate("/catalog");
              }}
            >
              Continuer vos achats
            </Button>
          </div>
        ) : (
          <>
            <ul className="mt-3 max-h-60 overflow-y-auto divide-y divide-border pr-1" aria-label="Articles du panier" tabIndex={0}>
              {cart.items.map(({ product, quantity }) => (
                <li key={product.id} className="flex items-center gap-3 py-2">
                  <CartImage src={product.image} className="size-14 shrink-0 rounded-lg" />
                  <div className="min-w-0 flex-1">
                    <Link to={productPath(product)} onClick={() => setOpen(false)} className="line-clamp-2 text-sm font-medium hover:underline">
                      {product.name}
                    </Link>
                    <p className="tabular text-xs text-muted-foreground">
                      {quantity} × {formatEuros(product.priceCents)}
                    </p>
                  </div>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    onClick={() => removeLine(product.id)}
                    disabled={checkout.busy}
                    aria-label={`Retirer ${product.name} du panier`}
                    className="shrink-0 text-muted-foreground hover:text-destructive"
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
            <div className="mt-3 flex items-baseline justify-between border-t border-border pt-3">
              <span className="font-semibold">Total</span>
              <span className="tabular text-lg font-extrabold">{formatEuros(cartSubtotalCents(cart))}</span>
            </div>
            {checkout.progress !== null && checkout.message ? (
              <div className="mt-3">
                <CheckoutProgress progress={checkout.progress} message={checkout.message} />
              </div>
            ) : null}
            <div className="mt-3 grid grid-cols-2 gap-2">
              <Link to="/cart" onClick={() => setOpen(false)} className={buttonVariants({ variant: "secondary" })}>
                Voir le panier
              </Link>
              <Button type="button" onClick={() => void checkout.start()} disabled={checkout.busy}>
                Commander
              </Button>
            </div>
          </>
        )}
      </PopoverContent>
    </Popover>
  );
}
