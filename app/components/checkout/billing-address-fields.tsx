import { ReceiptText } from "lucide-react";
import { Field, controlClass } from "~/components/ui/field";
import { FormField } from "~/components/ui/form-field";
import { BILLING_FIELDS, BILLING_SAME_FIELD } from "~/domain/billing-address";
import type { FieldErrors } from "~/domain/field-errors";
import { SHIPPING_COUNTRIES } from "~/domain/shipping-countries";
import { cn } from "~/lib/utils";

/**
 * The billing address of the payment form (« Facturé à » on the invoice): for a home delivery, the
 * box « Adresse de facturation identique », ticked, hides the fields; unticked, they show. For a
 * relay point, which is never a billing address, the fields always show. Shown and hidden by CSS
 * alone (`:has(input:checked)`): the fields stay in the page, so what was typed is kept when the
 * box is ticked again, and it works before the page's JavaScript has loaded.
 */
export function BillingAddressFields({ relay, country, errors }: { relay: boolean; country: string; errors: FieldErrors }) {
  return (
    <fieldset className="group flex flex-col gap-4" data-testid="billing-address">
      <legend className="mb-3 flex items-center gap-2 text-lg font-bold">
        <ReceiptText className="size-5" aria-hidden="true" /> Adresse de facturation
      </legend>
      {relay ? (
        <p className="text-xs text-muted-foreground">Un point relais ne peut pas servir d'adresse de facturation&nbsp;: indiquez la vôtre, elle figurera sur la facture.</p>
      ) : (
        <label className="flex min-h-11 cursor-pointer items-center gap-3 self-start rounded-lg pr-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring">
          <input type="checkbox" name={BILLING_SAME_FIELD} defaultChecked className="size-5 shrink-0 accent-[var(--color-primary)]" aria-describedby="billing-same-hint" />
          Adresse de facturation identique à l'adresse de livraison
        </label>
      )}
      {relay ? null : (
        <p id="billing-same-hint" className="-mt-3 text-xs text-muted-foreground">
          Décochez pour indiquer une autre adresse sur la facture.
        </p>
      )}
      <div className={cn("flex flex-col gap-4", !relay && "group-has-[input:checked]:hidden")} data-testid="billing-fields">
        <FormField label="Nom complet" name={BILLING_FIELDS.fullName} required autoComplete="billing name" error={errors[BILLING_FIELDS.fullName]} />
        <FormField label="Adresse" name={BILLING_FIELDS.line1} required autoComplete="billing address-line1" error={errors[BILLING_FIELDS.line1]} />
        <FormField label="Complément d'adresse (facultatif)" name={BILLING_FIELDS.line2} autoComplete="billing address-line2" error={errors[BILLING_FIELDS.line2]} />
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <FormField label="Code postal" name={BILLING_FIELDS.postalCode} required autoComplete="billing postal-code" error={errors[BILLING_FIELDS.postalCode]} />
          <FormField label="Ville" name={BILLING_FIELDS.city} required autoComplete="billing address-level2" error={errors[BILLING_FIELDS.city]} />
        </div>
        <Field label="Pays" error={errors[BILLING_FIELDS.country]}>
          {(props) => (
            <select {...props} name={BILLING_FIELDS.country} defaultValue={country} autoComplete="billing country" className={cn(controlClass, "h-11")}>
              {SHIPPING_COUNTRIES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </fieldset>
  );
}
