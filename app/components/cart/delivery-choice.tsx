import { MapPin, Truck, Mail } from "lucide-react";
import { CountryOptions } from "~/components/forms/country-options";
import { lazy, Suspense, useId } from "react";
import type { SavedRelayPoint } from "~/domain/customer-addresses";
import { formatEuros } from "~/domain/money";
import { formatWeight } from "~/domain/shipping";
import type { ShippingKind } from "~/domain/shipping-method";
import { chooseDelivery } from "~/lib/delivery-store";
import { cn } from "~/lib/utils";
import type { DeliveryState } from "./use-delivery";

const ICONS: Record<ShippingKind, typeof Truck> = { home: Truck, relay: MapPin, letter: Mail };

/** "Livraison offerte" or the price: how the cart and the summary name a delivery's cost. */
export function deliveryPriceText(priceCents: number): string {
  return priceCents === 0 ? "Livraison offerte" : formatEuros(priceCents);
}

// Asked only once a relay point is chosen: its fields load then (the cart's JS budget).
const RelayPointFields = lazy(() => import("./relay-point-fields"));

/**
 * The cart's delivery block: the country, then the methods that fit the cart with their price
 * and delay, and for a relay point its name, identifier and full address (SPEC.md).
 */
export function DeliveryChoice({ delivery, disabled, savedRelayPoints }: { delivery: DeliveryState; disabled: boolean; savedRelayPoints: SavedRelayPoint[] }) {
  const countryId = useId();
  const { stored, quotes, selected, weightGrams } = delivery;

  return (
    <section id="livraison" aria-labelledby="delivery-title" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5" tabIndex={-1}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="delivery-title" className="text-lg font-bold">
          Livraison
        </h2>
        {weightGrams !== null ? <p className="text-xs text-muted-foreground">Poids du colis : {formatWeight(weightGrams)}</p> : null}
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={countryId} className="text-sm font-medium">
          Pays de livraison
        </label>
        <select
          id={countryId}
          value={stored.country}
          disabled={disabled}
          onChange={(event) => chooseDelivery({ country: event.target.value })}
          className="h-11 rounded-xl border border-input bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <CountryOptions />
        </select>
      </div>
      {weightGrams === null ? (
        <p role="status" className="text-sm text-muted-foreground">
          Calcul des frais de livraison...
        </p>
      ) : quotes.length === 0 ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          Aucun mode de livraison ne peut transporter ce panier vers ce pays. Choisissez un autre pays ou retirez des articles.
        </p>
      ) : (
        <fieldset className="flex flex-col gap-2" disabled={disabled}>
          <legend className="sr-only">Mode de livraison</legend>
          {quotes.map((quote) => {
            const Icon = ICONS[quote.kind];
            const checked = selected?.methodId === quote.methodId;
            return (
              <label
                key={quote.methodId}
                className={cn(
                  "flex cursor-pointer items-center gap-3 rounded-xl border p-3 text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring",
                  checked ? "border-primary bg-primary/5" : "border-border hover:bg-muted",
                )}
              >
                <input
                  type="radio"
                  name="delivery-method"
                  value={quote.methodId}
                  checked={checked}
                  onChange={() => chooseDelivery({ methodId: quote.methodId })}
                  className="size-4 shrink-0 accent-[var(--color-primary)]"
                />
                <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="font-medium">{quote.name}</span>
                  {quote.deliveryTime ? <span className="text-xs text-muted-foreground">{quote.deliveryTime}</span> : null}
                </span>
                <span className={cn("tabular shrink-0 font-semibold", quote.priceCents === 0 && "text-success")}>{deliveryPriceText(quote.priceCents)}</span>
              </label>
            );
          })}
        </fieldset>
      )}
      {selected?.kind === "relay" ? (
        <Suspense fallback={null}>
          <RelayPointFields stored={stored} disabled={disabled} saved={savedRelayPoints} />
        </Suspense>
      ) : null}
    </section>
  );
}
