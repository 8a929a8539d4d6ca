import { Field, controlClass } from "~/components/ui/field";
import { FormField } from "~/components/ui/form-field";
import type { BusinessPurchaseInput } from "~/domain/business-purchase";
import { SHIPPING_COUNTRIES } from "~/domain/shipping-countries";
import { businessFieldId, setBusinessValue, useBusinessPurchase } from "~/lib/business-purchase-store";
import { cn } from "~/lib/utils";

/**
 * The company's fields of an "Achat professionnel": raison sociale, SIREN, VAT number and billing
 * country. The checkout checks them with the server's schema (domain/business-purchase.ts).
 */
export default function BusinessPurchaseFields({ disabled }: { disabled: boolean }) {
  const { values, errors } = useBusinessPurchase();
  const bind = (key: keyof BusinessPurchaseInput) => ({
    id: businessFieldId(key),
    name: `business.${key}`,
    value: values[key],
    disabled,
    error: errors[`business.${key}`],
    onChange: (event: { target: { value: string } }) => setBusinessValue(key, event.target.value),
  });
  return (
    <div className="flex flex-col gap-4" data-testid="business-fields">
      <FormField label="Raison sociale" required autoComplete="organization" {...bind("companyName")} />
      <FormField label="SIREN" inputMode="numeric" hint="9 chiffres, sur votre extrait Kbis ou avis de situation INSEE (facultatif pour une entreprise établie hors de France)." {...bind("siren")} />
      <FormField label="N° de TVA intracommunautaire (facultatif)" autoCapitalize="characters" hint="Par exemple FR40303265045." {...bind("vatNumber")} />
      <Field label="Pays de facturation" error={errors["business.country"]} id={businessFieldId("country")}>
        {(props) => (
          <select {...props} name="business.country" value={values.country} disabled={disabled} onChange={(event) => setBusinessValue("country", event.target.value)} autoComplete="billing country" className={cn(controlClass, "h-11")}>
            {SHIPPING_COUNTRIES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="text-xs text-muted-foreground">L'adresse de facturation de l'entreprise vous sera demandée à l'étape du paiement, dans ce pays.</p>
    </div>
  );
}
