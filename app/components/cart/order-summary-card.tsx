import { Lock, PenLine } from "lucide-react";
import { useId } from "react";
import { Button } from "~/components/ui/button";
import { preloadToasts } from "~/components/ui/toaster";
import { type Cart, cartSubtotalCents } from "~/domain/cart";
import { formatEuros } from "~/domain/money";
import {
  SIGNATURE_DELIVERY_LABEL,
  SIGNATURE_MAX_SUBTOTAL_CENTS,
  TRANSPORT_RISK_SENTENCE,
  isSignatureDeliveryOffered,
  signatureDeliveryChargeCents,
  signatureDeliveryFeeCents,
} from "~/domain/signature-delivery";
import { chooseSignatureDelivery } from "~/lib/cart-store";
import { cn } from "~/lib/utils";
import { CgvAcceptance } from "~/components/legal/cgv-acceptance";
import { CheckoutProgress } from "./checkout-progress";
import { deliveryPriceText } from "./delivery-choice";
import type { DeliveryState } from "./use-delivery";
import { DiscountCodeField } from "./discount-code-field";
import type { PaymentProviderName, useCheckout } from "./use-checkout";
import type { useDiscountPreview } from "./use-discount-preview";

/**
 * The /cart order summary: subtotal, the optional "Remise contre signature" (when the seller
 * offers it) beside the transport risk the seller bears anyway, the discount code, total, the CGV
 * acceptance line and the pay button. With a code applied, the discount and the total are the
 * server's figures.
 */
export function OrderSummaryCard({
  cart,
  checkout,
  provider,
  discount,
  delivery,
  signatureEnabled,
}: {
  cart: Cart;
  checkout: ReturnType<typeof useCheckout>;
  provider: PaymentProviderName;
  discount: ReturnType<typeof useDiscountPreview>;
  delivery: DeliveryState;
  /** The seller's /admin/shipping switch; the server refuses the option when it is off. */
  signatureEnabled: boolean;
}) {
  const signatureId = useId();
  const subtotal = cartSubtotalCents(cart);
  const offered = isSignatureDeliveryOffered(subtotal, signatureEnabled);
  const signature = signatureDeliveryChargeCents(subtotal, cart.insuranceSelected, signatureEnabled);
  const line = discount.line;
  const shipping = delivery.selected;
  const total = (line?.figures ? line.figures.totalCents : subtotal + signature) + (shipping?.priceCents ?? 0);
  return (
    <section aria-labelledby="summary-title" className="h-fit rounded-2xl border border-border bg-card p-5 lg:sticky lg:top-24">
      <h2 id="summary-title" className="text-lg font-bold">
        Récapitulatif de la commande
      </h2>
      <div className="mt-4 flex flex-col gap-3 text-sm">
        <div className="flex justify-between gap-3">
          <span>Sous-total</span>
          <span className="tabular font-semibold">{formatEuros(subtotal)}</span>
        </div>
        {offered ? (
          <div className="flex items-start justify-between gap-3 rounded-xl border border-border p-3">
            <label htmlFor={signatureId} className="flex cursor-pointer items-start gap-3">
              <input
                id={signatureId}
                type="checkbox"
                checked={cart.insuranceSelected}
                onChange={(event) => chooseSignatureDelivery(event.target.checked)}
                disabled={checkout.busy}
                className="mt-0.5 size-5 shrink-0 accent-[var(--color-primary)]"
              />
              <span>
                <span className="flex items-center gap-1.5 font-medium">
                  <PenLine className="size-4" aria-hidden="true" /> {SIGNATURE_DELIVERY_LABEL}
                </span>
                <span className="mt-0.5 block text-xs text-muted-foreground">
                  Le colis n'est remis que contre la signature du destinataire. Proposée pour les commandes jusqu'à {formatEuros(SIGNATURE_MAX_SUBTOTAL_CENTS)}.
                </span>
              </span>
            </label>
            <span className="tabular shrink-0 font-semibold">{formatEuros(signatureDeliveryFeeCents(subtotal))}</span>
          </div>
        ) : signatureEnabled && subtotal > SIGNATURE_MAX_SUBTOTAL_CENTS ? (
          <p className="text-xs text-muted-foreground">
            La {SIGNATURE_DELIVERY_LABEL.toLowerCase()} n'est pas proposée au-delà de {formatEuros(SIGNATURE_MAX_SUBTOTAL_CENTS)}.
          </p>
        ) : null}
        {/* L216-4: a right, never a feature of the option (decision 044). */}
        <p className="text-xs text-muted-foreground" data-testid="transport-risk">
          {TRANSPORT_RISK_SENTENCE}
        </p>
        {signature > 0 ? (
          <div className="flex justify-between gap-3">
            <span>{SIGNATURE_DELIVERY_LABEL}</span>
            <span className="tabular">{formatEuros(signature)}</span>
          </div>
        ) : null}
        <DiscountCodeField discount={discount} disabled={checkout.busy} />
        {line ? (
          <div className="flex justify-between gap-3 text-success" data-testid="cart-discount">
            <span>Réduction ({line.code})</span>
            <span className="tabular font-semibold">{line.figures ? `−${formatEuros(line.figures.discountCents)}` : "Calcul..."}</span>
          </div>
        ) : null}
        <div className="flex justify-between gap-3" data-testid="cart-delivery">
          <span>{shipping ? `Livraison (${shipping.name})` : "Livraison"}</span>
          <span className={cn("tabular font-semibold", shipping?.priceCents === 0 && "text-success")}>
            {shipping ? deliveryPriceText(shipping.priceCents) : delivery.weightGrams === null ? "Calcul..." : "Indisponible"}
          </span>
        </div>
        <div className="flex items-baseline justify-between gap-3 border-t border-border pt-3" aria-live="polite" aria-atomic="true" aria-busy={line?.pending || undefined}>
          <span className="font-semibold">
            Total <span className="text-xs font-normal text-muted-foreground">TTC</span>
          </span>
          <span className={cn("tabular text-2xl font-extrabold transition-opacity", line?.pending && "opacity-60")} data-testid="cart-total">
            {formatEuros(total)}
          </span>
        </div>
      </div>
      <p className="mt-1 text-xs text-muted-foreground">
        Prix TTC, livraison comprise.{shipping?.kind === "relay" ? "" : " Adresse de livraison à indiquer sur la page de paiement."}
      </p>
      <div className="mt-5 flex flex-col gap-3">
        {checkout.progress !== null && checkout.message ? <CheckoutProgress progress={checkout.progress} message={checkout.message} /> : null}
        <CgvAcceptance />
        <Button
          type="button"
          size="lg"
          onClick={() => void checkout.start(delivery)}
          // The checkout ends in toasts: fetch their code on the way.
          onPointerEnter={preloadToasts}
          onFocus={preloadToasts}
          // Not before the delivery is priced (the cart's first check against the server gives the
          // weights): a press meanwhile was told to choose a method the cart was about to preselect.
          disabled={checkout.busy || cart.items.length === 0 || !shipping}
        >
          <Lock aria-hidden="true" /> {checkout.busy ? "Paiement en préparation..." : "Procéder au paiement"}
        </Button>
        <p className="flex items-center justify-center gap-1.5 text-center text-xs text-muted-foreground">
          <Lock className="size-3.5" aria-hidden="true" />
          {provider === "stripe" ? "Paiement sécurisé par Stripe" : "Paiement sécurisé – page de paiement de test"}
        </p>
      </div>
    </section>
  );
}

