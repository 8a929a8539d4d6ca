import { useId } from "react";
import type { BusinessPurchaseInput } from "~/domain/business-purchase";
import { selectBusinessPurchase, useBusinessPurchase } from "~/lib/business-purchase-store";
import BusinessPurchaseFields from "./business-purchase-fields";

/**
 * "Achat professionnel" (issue 53), offered while the seller sells to professionals: ticked, the
 * company's fields open, filled with the signed-in customer's last company (`saved`), the
 * billing country with the delivery's by default. The cart
 * loads this module lazily (it draws its lines in the browser anyway): its first load stays
 * within its JavaScript budget.
 */
export default function BusinessPurchaseChoice({
  saved,
  deliveryCountry,
  intraEuExemption,
  disabled,
}: {
  saved: BusinessPurchaseInput | null;
  deliveryCountry: string;
  /** The seller applies the intra-EU exemption (docs/decisions/054): the fields say when the order is invoiced without VAT. */
  intraEuExemption: boolean;
  disabled: boolean;
}) {
  const { selected } = useBusinessPurchase();
  const fieldsId = useId();
  return (
    <section aria-labelledby="business-title" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5">
      <h2 id="business-title" className="sr-only">
        Achat professionnel
      </h2>
      <label className="flex min-h-11 cursor-pointer items-center gap-3 self-start rounded-lg pr-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring">
        <input
          type="checkbox"
          checked={selected}
          disabled={disabled}
          onChange={(event) => selectBusinessPurchase(event.target.checked, { ...saved, country: saved?.country || deliveryCountry })}
          aria-controls={fieldsId}
          className="size-5 shrink-0 accent-[var(--color-primary)]"
        />
        Achat professionnel
      </label>
      <div id={fieldsId}>
        {selected ? (
          <BusinessPurchaseFields disabled={disabled} exemption={intraEuExemption ? { deliveryCountry } : null} />
        ) : (
          <p className="text-xs text-muted-foreground">Pour une facture au nom de votre entreprise (raison sociale, SIREN, n° de TVA).</p>
        )}
      </div>
    </section>
  );
}
