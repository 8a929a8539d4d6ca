import { Building2 } from "lucide-react";
import { CountryOptions } from "~/components/forms/country-options";
import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { FormField } from "~/components/ui/form-field";
import type { BusinessPurchaseInput } from "~/domain/business-purchase";
import type { FieldErrors } from "~/domain/field-errors";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";

export const BUSINESS_PROFILE_INTENT = "business-profile";
export const BUSINESS_PROFILE_DELETE_INTENT = "business-profile-delete";

/** What the account's action answers to this form. */
export type BusinessProfileAnswer = { form: "business"; saved?: "saved" | "deleted"; errors?: FieldErrors; values?: BusinessPurchaseInput };

// The schema (with jsvat's rules) loads with the first keystroke or submit, not with the page.
const loadSchema = () => import("~/domain/business-purchase").then((module) => module.businessPurchaseSchema);

/**
 * « Profil professionnel » (issue 53): the company the cart's « Achat professionnel » starts
 * from, checked with the same schema as the checkout.
 */
export function BusinessProfileForm({ profile, answer }: { profile: BusinessPurchaseInput | null; answer: BusinessProfileAnswer | undefined }) {
  const validation = useFormValidation(loadSchema, answer?.errors);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent")?.toString().startsWith(BUSINESS_PROFILE_INTENT) === true;
  const values = answer?.values ?? profile ?? { companyName: "", siren: "", vatNumber: "", country: "FR" };
  // A saved or deleted profile draws the form anew with what is stored now.
  const formKey = `${answer?.saved ?? "edit"}:${profile?.companyName ?? ""}:${profile?.siren ?? ""}:${profile?.vatNumber ?? ""}:${profile?.country ?? ""}`;
  return (
    <section aria-labelledby="business-profile-title" className="mt-6 rounded-2xl border border-border bg-card p-6">
      <h2 id="business-profile-title" className="flex items-center gap-2 text-lg font-bold">
        <Building2 className="size-5 text-primary" aria-hidden="true" /> Profil professionnel
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Vous achetez pour une entreprise, un club ou une association ? Ces informations remplissent « Achat professionnel » dans le panier : la facture est établie à son nom.
      </p>
      {answer?.saved ? (
        <Alert tone="success" title={answer.saved === "saved" ? "Profil professionnel enregistré" : "Profil professionnel supprimé"} className="mt-4" />
      ) : null}
      <Form key={formKey} method="post" noValidate onSubmit={validation.onSubmit} onChange={validation.onChange} className="mt-4 grid gap-4 sm:grid-cols-2" aria-label="Profil professionnel">
        <input type="hidden" name="intent" value={BUSINESS_PROFILE_INTENT} />
        <FormField label="Raison sociale" name="companyName" required autoComplete="organization" maxLength={200} defaultValue={values.companyName} error={validation.errors.companyName} />
        <FormField label="SIREN" name="siren" inputMode="numeric" defaultValue={values.siren} error={validation.errors.siren} hint="9 chiffres (facultatif pour une entreprise établie hors de France)." />
        <FormField
          label="N° de TVA intracommunautaire (facultatif)"
          name="vatNumber"
          autoCapitalize="characters"
          defaultValue={values.vatNumber}
          error={validation.errors.vatNumber}
          hint="Par exemple FR40303265045."
        />
        <Field label="Pays de facturation" error={validation.errors.country}>
          {(props) => (
            <select {...props} name="country" defaultValue={values.country} autoComplete="billing country" className={cn(controlClass, "h-11")}>
              <CountryOptions />
            </select>
          )}
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            Enregistrer
          </Button>
        </div>
      </Form>
      {profile ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value={BUSINESS_PROFILE_DELETE_INTENT} />
          <Button type="submit" variant="ghost" disabled={busy}>
            Supprimer le profil
          </Button>
        </Form>
      ) : null}
    </section>
  );
}
