import { Field, controlClass } from "~/components/ui/field";
import { CountryOptions } from "~/components/forms/country-options";
import { FormField } from "~/components/ui/form-field";
import type { AddressBookKind } from "~/domain/customer-addresses";
import type { FieldErrors } from "~/domain/field-errors";
import { cn } from "~/lib/utils";

type FieldSpec = { name: string; label: string; required?: boolean; autoComplete?: string; hint?: string; type?: string; wide?: boolean };

// The labels of the checkout's own fields (checkout/delivery-address-fields.tsx, cart/delivery-choice.tsx).
const FIELDS: Record<AddressBookKind, FieldSpec[]> = {
  delivery: [
    { name: "fullName", label: "Nom complet du destinataire", required: true, autoComplete: "name", wide: true },
    { name: "line1", label: "Adresse", required: true, autoComplete: "address-line1", wide: true },
    { name: "line2", label: "Complément d'adresse (facultatif)", autoComplete: "address-line2", wide: true },
    { name: "postalCode", label: "Code postal", required: true, autoComplete: "postal-code" },
    { name: "city", label: "Ville", required: true, autoComplete: "address-level2" },
    { name: "phone", label: "Téléphone", required: true, autoComplete: "tel", type: "tel", hint: "Pour le transporteur, en cas de besoin." },
  ],
  billing: [
    { name: "fullName", label: "Nom complet", required: true, autoComplete: "billing name", wide: true },
    { name: "line1", label: "Adresse", required: true, autoComplete: "billing address-line1", wide: true },
    { name: "line2", label: "Complément d'adresse (facultatif)", autoComplete: "billing address-line2", wide: true },
    { name: "postalCode", label: "Code postal", required: true, autoComplete: "billing postal-code" },
    { name: "city", label: "Ville", required: true, autoComplete: "billing address-level2" },
  ],
  relay: [
    { name: "name", label: "Nom du point relais", required: true, wide: true },
    { name: "id", label: "Identifiant du point relais", required: true, hint: "Le numéro du point, indiqué par le transporteur (ex. 020145)." },
    { name: "line1", label: "Adresse du point relais", required: true, wide: true },
    { name: "postalCode", label: "Code postal", required: true },
    { name: "city", label: "Ville", required: true },
  ],
};

/** One address of the book's form, its fields named as the checkout's schema reads them (domain/customer-addresses.ts). */
export function AddressBookFields({ kind, values, errors }: { kind: AddressBookKind; values: Partial<Record<string, string>>; errors: FieldErrors }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {FIELDS[kind].map((field) => (
        <div key={field.name} className={field.wide ? "sm:col-span-2" : undefined}>
          <FormField
          label={field.label}
          name={field.name}
          type={field.type}
          required={field.required}
          autoComplete={field.autoComplete ?? "off"}
          hint={field.hint}
          defaultValue={values[field.name] ?? ""}
          error={errors[field.name]}
          />
        </div>
      ))}
      <Field label="Pays" error={errors.country} className="sm:col-span-2">
        {(props) => (
          <select {...props} name="country" defaultValue={values.country ?? "FR"} autoComplete={kind === "billing" ? "billing country" : kind === "delivery" ? "country" : "off"} className={cn(controlClass, "h-11")}>
            <CountryOptions />
          </select>
        )}
      </Field>
    </div>
  );
}
