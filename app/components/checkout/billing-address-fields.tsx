import { ReceiptText } from "lucide-react";
import { CountryOptions } from "~/components/forms/country-options";
import { Fragment, useId, useState } from "react";
import { Field, controlClass } from "~/components/ui/field";
import { FormField } from "~/components/ui/form-field";
import { type AddressProposal, SAVE_ADDRESS_FIELDS } from "~/domain/address-proposals";
import { BILLING_FIELDS, BILLING_SAME_FIELD } from "~/domain/billing-address";
import type { FieldErrors } from "~/domain/field-errors";
import { countryName } from "~/domain/shipping-countries";
import { cn } from "~/lib/utils";
import { SaveAddressBox, SavedAddressSelect } from "./saved-addresses";

type BillingField = (typeof BILLING_FIELDS)[keyof typeof BILLING_FIELDS];

/**
 * The billing address of the payment form (« Facturé à » on the invoice). For a home delivery the
 * box « Adresse de facturation identique », ticked by default, stands for the delivery address;
 * unticked, the fields appear right after it (focus stays on the box, Tab goes on into them). For
 * a relay point, never a billing address, the fields are always there. The values live in this
 * component's state: ticking the box again removes the fields from the form (one « Adresse », one
 * « Code postal » on the page), unticking it brings them back as they were typed. `proposals`,
 * for a signed-in buyer: their saved billing addresses; the default one is then filled in (the
 * box unticked), and a new one typed may be saved.
 */
export function BillingAddressFields({
  relay,
  country,
  businessCountry = null,
  errors,
  proposals,
}: {
  relay: boolean;
  country: string;
  businessCountry?: string | null;
  errors: FieldErrors;
  proposals?: AddressProposal[] | undefined;
}) {
  // An "Achat professionnel": the company's address is always typed, in the country given in the cart.
  const business = businessCountry !== null;
  const [chosen, setChosen] = useState<AddressProposal | null>(proposals?.[0] ?? null);
  const [same, setSame] = useState(!relay && !business && !chosen);
  const [values, setValues] = useState<Partial<Record<BillingField, string>>>(chosen?.values ?? {});
  function choose(proposal: AddressProposal | null) {
    setChosen(proposal);
    setValues(proposal?.values ?? {});
  }
  const fieldsId = useId();
  const hintId = useId();
  const asked = relay || business || !same;
  // Uncontrolled, the state only remembering what was typed: what is typed before hydration stays
  // (a controlled field would be emptied by it), and fields brought back show it again.
  const bind = (name: BillingField) => ({
    name,
    defaultValue: values[name] ?? "",
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
    error: errors[name],
  });
  return (
    <fieldset className="flex flex-col gap-4" data-testid="billing-address">
      <legend className="mb-3 flex items-center gap-2 text-lg font-bold">
        <ReceiptText className="size-5" aria-hidden="true" /> Adresse de facturation
      </legend>
      {business ? (
        <p className="text-xs text-muted-foreground">Achat professionnel&nbsp;: indiquez l'adresse de facturation de l'entreprise, elle figurera sur la facture.</p>
      ) : relay ? (
        <p className="text-xs text-muted-foreground">Un point relais ne peut pas servir d'adresse de facturation&nbsp;: indiquez la vôtre, elle figurera sur la facture.</p>
      ) : (
        <div className="flex flex-col gap-1">
          <label className="flex min-h-11 cursor-pointer items-center gap-3 self-start rounded-lg pr-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring">
            <input
              type="checkbox"
              name={BILLING_SAME_FIELD}
              checked={same}
              onChange={(event) => setSame(event.target.checked)}
              aria-controls={fieldsId}
              aria-describedby={hintId}
              className="size-5 shrink-0 accent-[var(--color-primary)]"
            />
            Adresse de facturation identique
          </label>
          <p id={hintId} className="text-xs text-muted-foreground">
            {same ? "La facture sera établie à l'adresse de livraison. Décochez pour en indiquer une autre." : "La facture sera établie à l'adresse ci-dessous."}
          </p>
        </div>
      )}
      <div id={fieldsId} className={cn("flex flex-col gap-4", !asked && "hidden")} data-testid="billing-fields">
        {asked ? (
          <>
            {proposals?.length ? <SavedAddressSelect label="Adresse de facturation enregistrée" proposals={proposals} choice={chosen?.id ?? null} onChoose={choose} /> : null}
            {/* Another proposal chosen: the fields start again from its values. */}
            <Fragment key={chosen?.id ?? "new"}>
              <FormField label="Nom complet" required autoComplete="billing name" {...bind(BILLING_FIELDS.fullName)} />
              <FormField label="Adresse" required autoComplete="billing address-line1" {...bind(BILLING_FIELDS.line1)} />
              <FormField label="Complément d'adresse (facultatif)" autoComplete="billing address-line2" {...bind(BILLING_FIELDS.line2)} />
              <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
                <FormField label="Code postal" required autoComplete="billing postal-code" {...bind(BILLING_FIELDS.postalCode)} />
                <FormField label="Ville" required autoComplete="billing address-level2" {...bind(BILLING_FIELDS.city)} />
              </div>
              {business ? (
                <>
                  {/* The company's country, given in the cart, decided what its identifiers must be: another means going back there. */}
                  <FormField label="Pays" name="billingCountryName" value={countryName(businessCountry)} readOnly hint="Pays de l'entreprise indiqué dans le panier." error={errors[BILLING_FIELDS.country]} />
                  <input type="hidden" name={BILLING_FIELDS.country} value={businessCountry} />
                </>
              ) : (
                <Field label="Pays" error={errors[BILLING_FIELDS.country]}>
                  {(props) => (
                    <select
                      {...props}
                      name={BILLING_FIELDS.country}
                      defaultValue={values[BILLING_FIELDS.country] ?? country}
                      onChange={(event) => setValues((current) => ({ ...current, [BILLING_FIELDS.country]: event.target.value }))}
                      autoComplete="billing country"
                      className={cn(controlClass, "h-11")}
                    >
                      <CountryOptions />
                    </select>
                  )}
                </Field>
              )}
            </Fragment>
            {proposals && !chosen ? <SaveAddressBox name={SAVE_ADDRESS_FIELDS.billing} /> : null}
          </>
        ) : null}
      </div>
    </fieldset>
  );
}
