import { Field, controlClass } from "~/components/ui/field";
import { CountryOptions } from "~/components/forms/country-options";
import { FormField } from "~/components/ui/form-field";
import type { BusinessPurchaseInput } from "~/domain/business-purchase";
import { businessFieldId, setBusinessValue, useBusinessPurchase } from "~/lib/business-purchase-store";
import { cn } from "~/lib/utils";

/**
 * The company's fields of an "Achat professionnel": raison sociale, SIREN, VAT number and billing
 * country. The checkout checks them with the server's schema (domain/business-purchase.ts). While
 * the seller applies the intra-EU exemption (`exemption`), they say when the order is invoiced
 * without VAT; the server decides it (domain/intra-eu-exemption.ts) and the payment page shows the
 * total charged.
 */
export default function BusinessPurchaseFields({ disabled, exemption }: { disabled: boolean; exemption: { deliveryCountry: string } | null }) {
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
            <CountryOptions />
          </select>
        )}
      </Field>
      <p className="text-xs text-muted-foreground">L'adresse de facturation de l'entreprise vous sera demandée à l'étape du paiement, dans ce pays.</p>
      {exemption ? (
        <div className="flex flex-col gap-1 text-xs" data-testid="intra-eu-exemption">
          <p className="text-muted-foreground">
            Entreprise d'un autre État membre de l'Union européenne&nbsp;: avec un numéro de TVA intracommunautaire valide de cet État, une facturation et une livraison dans ce même État, la commande est facturée hors TVA (exonération, article 262 ter I du CGI). Le total hors TVA s'affiche à l'étape du paiement.
          </p>
          <p aria-live="polite" className="font-medium">
            {exemptionLooksMet(values, exemption.deliveryCountry) ? "Pays de facturation et de livraison conformes : si ce numéro de TVA est valide, votre commande sera facturée hors TVA." : null}
          </p>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Whether the typed company looks like an exempt intra-EU buyer: its VAT number's prefix (EL:
 * Greece) is the billing and the delivery country, not France. Only a hint while typing: the
 * server checks the number and decides.
 */
function exemptionLooksMet(values: BusinessPurchaseInput, deliveryCountry: string): boolean {
  const prefix = values.vatNumber.trim().slice(0, 2).toUpperCase();
  const state = prefix === "EL" ? "GR" : prefix;
  return state !== "FR" && state === values.country && state === deliveryCountry && values.vatNumber.replace(/[\s.-]/g, "").length > 4;
}
