import { FileText } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import {
  type ActionToast,
  useActionToast,
} from "~/components/admin/use-action-toast";
import { MissingFieldsWarning } from "~/components/legal/missing-fields-warning";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { type FieldErrors, fieldErrors } from "~/domain/auth-forms";
import {
  IDENTITY_GROUPS,
  IDENTITY_KEYS,
  type IdentityKey,
  type LegalIdentityInput,
  OFFERED_LEGAL_FORMS,
  formHasCapital,
  identityField,
  identityFieldFor,
  legalFormCode,
  missingIdentityFields,
  requiredIdentityFields,
} from "~/domain/shop-identity";
import { Field, controlClass } from "~/components/ui/field";
import { useState } from "react";
import { legalIdentitySchema } from "~/domain/shop-identity-schema";
import { useFormValidation } from "~/lib/use-form-validation";
import {
  getShopIdentity,
  saveShopIdentity,
} from "~/services/shop-identity.server";
import {
  getBillingSettings,
  saveBillingSettings,
} from "~/services/billing-settings.server";
import { billingSettingsSchema, businessSalesSettingsSchema } from "~/domain/billing-settings";
import {
  getBusinessSalesSettings,
  saveBusinessSalesSettings,
} from "~/services/business-sales-settings.server";
import { FRANCHISE_MENTION, INTRA_EU_EXEMPTION_MENTION } from "~/domain/invoice";
import { SwitchField } from "~/components/ui/switch-field";
import { buybackSettingsSchema } from "~/domain/buyback-offer-forms";
import { getBuybackSettings, saveBuybackSettings } from "~/services/buyback.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/shop-settings";
import { readForm } from "~/lib/request-input.server";
import { MarginVatModeForm } from "~/components/admin/margin-vat-mode-form";
import { PreorderShippingForm } from "~/components/admin/preorder-shipping-form";
import { PREORDER_SHIPPING_LABELS, preorderShippingSchema } from "~/domain/preorder-shipping";
import { getPreorderShipping, savePreorderShipping } from "~/services/preorder-shipping-setting.server";
import { marginVatModeSchema } from "~/domain/margin-vat";
import { getMarginVatMode, saveMarginVatMode } from "~/services/margin-vat.server";
import { formatParisDateTime } from "~/domain/paris-time";
import { storeCreditValiditySchema } from "~/domain/store-credit-forms";
import { setStoreCreditValidityMonths, storeCreditValidityMonths } from "~/services/store-credit-grants.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const [{ identity, updatedAt }, billing, businessSales, creditValidityMonths, marginVatMode, buyback, preorderShipping] = await Promise.all([
    getShopIdentity(context.db, context.shop.legal),
    getBillingSettings(context.db),
    getBusinessSalesSettings(context.db),
    storeCreditValidityMonths(context.db),
    getMarginVatMode(context.db),
    getBuybackSettings(context.db),
    getPreorderShipping(context.db),
  ]);
  return {
    identity,
    billing,
    businessSales,
    creditValidityMonths,
    marginVatMode,
    buyback,
    preorderShipping,
    missing: missingIdentityFields(identity),
    updatedAt: updatedAt?.toISOString() ?? null,
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Identité de la boutique" },
];

type SettingsAnswer = ActionToast & {
  fieldErrors?: FieldErrors;
  values?: LegalIdentityInput;
  /** « Durée de validité des avoirs » refused: why, and what was typed. */
  creditError?: { message: string; typed: string };
};

/** What was sent, as text, to refill the form the server refused (nothing sent is lost). */
function submitted(form: FormData): LegalIdentityInput {
  return Object.fromEntries(
    IDENTITY_KEYS.map((key) => [
      key,
      String(form.get(key) ?? "").slice(0, 400),
    ]),
  );
}

/** A settings form the schema cannot read (edited by hand, or an old page): nothing saved. */
function unreadableForm() {
  return data<SettingsAnswer>({ ok: false, toast: { title: "Formulaire illisible", description: "Actualisez la page et réessayez." } }, { status: 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const form = await readForm(request);
  if (form.get("intent") === "billing") {
    const billing = billingSettingsSchema.safeParse({
      vatFranchise: form.get("vatFranchise") ?? undefined,
      ossOptIn: form.get("ossOptIn") ?? undefined,
    });
    if (!billing.success) return unreadableForm();
    await saveBillingSettings(context.db, billing.data);
    context.logger.info(
      { adminId: admin.id, ...billing.data },
      "admin: billing settings saved",
    );
    return data<SettingsAnswer>({
      ok: true,
      toast: {
        title: "Facturation enregistrée",
        description: billing.data.vatFranchise
          ? `Les prochaines commandes et factures porteront la mention « ${FRANCHISE_MENTION} ».`
          : "Les prochaines commandes et factures détaillent la TVA par taux.",
      },
    });
  }
  if (form.get("intent") === "buyback") {
    const buyback = buybackSettingsSchema.safeParse({ creditBonusPercent: form.get("creditBonusPercent") ?? undefined });
    if (!buyback.success) {
      const message = buyback.error.issues[0]!.message;
      return data<SettingsAnswer>({ ok: false, toast: { title: "Bonus refusé", description: message }, fieldErrors: { creditBonusPercent: message } }, { status: 400 });
    }
    await saveBuybackSettings(context.db, buyback.data);
    context.logger.info({ adminId: admin.id, ...buyback.data }, "admin: buy-back settings saved");
    return data<SettingsAnswer>({
      ok: true,
      toast: { title: "Rachats enregistrés", description: `Les prochaines offres proposent un bonus de ${buyback.data.creditBonusPercent} % en avoir.` },
    });
  }
  if (form.get("intent") === "business") {
    const business = businessSalesSettingsSchema.safeParse({
      sellToBusinesses: form.get("sellToBusinesses") ?? undefined,
      intraEuExemption: form.get("intraEuExemption") ?? undefined,
    });
    if (!business.success) return unreadableForm();
    await saveBusinessSalesSettings(context.db, business.data);
    context.logger.info(
      { adminId: admin.id, ...business.data },
      "admin: business sales settings saved",
    );
    return data<SettingsAnswer>({
      ok: true,
      toast: {
        title: "Ventes aux professionnels enregistrées",
        description: `${business.data.sellToBusinesses
          ? "Le panier propose l'achat professionnel et les CGV ont leur section pour les professionnels."
          : "Le panier ne propose plus l'achat professionnel."}${business.data.sellToBusinesses && business.data.intraEuExemption ? ` Les achats des entreprises d'un autre État membre livrées dans cet État sont facturés hors TVA (${INTRA_EU_EXEMPTION_MENTION}).` : ""}`,
      },
    });
  }
  if (form.get("intent") === "store-credit") {
    const typed = String(form.get("validityMonths") ?? "");
    const validity = storeCreditValiditySchema.safeParse({ validityMonths: typed });
    if (!validity.success) {
      const message = validity.error.issues[0]?.message ?? "Durée illisible.";
      return data<SettingsAnswer>({ ok: false, toast: { title: "Durée non enregistrée", description: message }, creditError: { message, typed: typed.slice(0, 20) } }, { status: 400 });
    }
    await setStoreCreditValidityMonths(context.db, validity.data.validityMonths);
    context.logger.info({ adminId: admin.id, months: validity.data.validityMonths }, "admin: store credit validity saved");
    return data<SettingsAnswer>({
      ok: true,
      toast: {
        title: "Validité des avoirs enregistrée",
        description: validity.data.validityMonths
          ? `Les prochains avoirs seront valables ${validity.data.validityMonths} mois ; les CGV le disent.`
          : "Les prochains avoirs n'auront pas de fin de validité.",
      },
    });
  }
  if (form.get("intent") === "preorder-shipping") {
    const shipping = preorderShippingSchema.safeParse({ mode: form.get("preorderShipping") ?? undefined });
    if (!shipping.success) {
      return data<SettingsAnswer>({ ok: false, toast: { title: "Choix invalide", description: shipping.error.issues[0]!.message } }, { status: 400 });
    }
    await savePreorderShipping(context.db, shipping.data.mode);
    context.logger.info({ adminId: admin.id, ...shipping.data }, "admin: mixed pre-order cart shipping saved");
    return data<SettingsAnswer>({ ok: true, toast: { title: "Expédition des paniers mixtes enregistrée", description: `${PREORDER_SHIPPING_LABELS[shipping.data.mode]} : le panier et la page de paiement l'annoncent.` } });
  }
  if (form.get("intent") === "margin-vat") {
    const margin = marginVatModeSchema.safeParse({ mode: form.get("mode") ?? undefined });
    if (!margin.success) {
      return data<SettingsAnswer>({ ok: false, toast: { title: "Choix invalide", description: margin.error.issues[0]!.message } }, { status: 400 });
    }
    await saveMarginVatMode(context.db, margin.data.mode);
    context.logger.info({ adminId: admin.id, ...margin.data }, "admin: margin VAT mode saved");
    return data<SettingsAnswer>({ ok: true, toast: { title: "TVA sur la marge enregistrée", description: "Les exports comptables et le tableau de bord la calculent ainsi." } });
  }
  const parsed = legalIdentitySchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return data<SettingsAnswer>(
      {
        ok: false,
        toast: {
          title: "Formulaire incomplet",
          description: "Veuillez corriger les erreurs dans le formulaire.",
        },
        fieldErrors: fieldErrors(parsed.error),
        values: submitted(form),
      },
      { status: 400 },
    );
  }
  try {
    await saveShopIdentity(context.db, parsed.data);
  } catch (error) {
    context.logger.error({ err: error }, "admin: shop identity save failed");
    return data<SettingsAnswer>(
      {
        ok: false,
        toast: {
          title: "Erreur",
          description:
            "L'identité n'a pas pu être enregistrée. Réessayez dans un instant.",
        },
        values: submitted(form),
      },
      { status: 500 },
    );
  }
  const missing = missingIdentityFields(parsed.data).length;
  context.logger.info(
    { adminId: admin.id, missing },
    "admin: shop identity saved",
  );
  return data<SettingsAnswer>({
    ok: true,
    toast: {
      title: "Identité enregistrée",
      description:
        missing === 0
          ? "Les informations légales sont complètes."
          : `Il reste ${missing} champ${missing > 1 ? "s" : ""} à compléter.`,
    },
  });
}

/** The company's legal identity, which /legal publishes: grouped fields, two columns on wide screens. */
export default function ShopSettings({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { identity, billing, businessSales, creditValidityMonths, marginVatMode, buyback, preorderShipping, missing, updatedAt } = loaderData;
  const navigation = useNavigation();
  const saving =
    navigation.state !== "idle" && navigation.formMethod === "POST";
  const form = useFormValidation(legalIdentitySchema, actionData?.fieldErrors);
  useActionToast(actionData);
  const values = actionData?.values ?? identity;
  // The chosen form decides the fields asked (no capital for an EI) and their labels.
  const [legalForm, setLegalForm] = useState(
    () => legalFormCode(values.legalForm ?? "") ?? values.legalForm ?? "",
  );
  const required = requiredIdentityFields(legalForm);
  const individual = legalFormCode(legalForm) === "EI";

  return (
    <section className="max-w-4xl">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">
            Identité de la boutique
          </h1>
          <p className="mt-1 max-w-prose text-sm text-muted-foreground">
            La société qui vend, son hébergeur et son médiateur de la
            consommation&nbsp;: la page Informations légales (mentions légales,
            conditions générales de vente, confidentialité) est construite avec
            ces informations.
          </p>
        </div>
        <Link
          to="/legal"
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-accent hover:underline"
        >
          <FileText className="size-4" aria-hidden="true" /> Voir la page
          Informations légales
        </Link>
      </div>

      <p className="mt-3 text-xs text-muted-foreground">
        {updatedAt
          ? `Dernier enregistrement le ${formatParisDateTime(updatedAt)}.`
          : "Valeurs de départ issues de la configuration du serveur (variables LEGAL_*)\u00a0: enregistrez le formulaire pour les tenir à jour ici."}
      </p>

      <MissingFieldsWarning missing={missing} className="mt-6" />

      {/* Remounted after each save, so the inputs show the numbers as they were written. */}
      <Form
        key={updatedAt ?? "configuration"}
        method="post"
        noValidate
        onSubmit={form.onSubmit}
        onChange={form.onChange}
        className="mt-6 flex flex-col gap-6"
      >
        {IDENTITY_GROUPS.map((group) => (
          <fieldset
            key={group.id}
            className="min-w-0 rounded-2xl border border-border bg-card p-5"
          >
            <legend className="float-left mb-4 w-full text-lg font-bold">
              {/* An entrepreneur individuel is no company. */}
              {group.id === "company" && individual ? "Entreprise" : group.title}
            </legend>
            <div className="clear-left grid gap-4 sm:grid-cols-2">
              {IDENTITY_KEYS.filter(
                (key) =>
                  identityField(key).group === group.id &&
                  (key !== "shareCapital" || formHasCapital(legalForm)),
              ).map((key) =>
                key === "legalForm" ? (
                  <LegalFormSelect
                    key={key}
                    value={legalForm}
                    onChange={setLegalForm}
                    error={form.errors[key]}
                  />
                ) : (
                  <IdentityInput
                    key={key}
                    name={key}
                    legalForm={legalForm}
                    optional={!required.includes(key)}
                    value={values[key] ?? ""}
                    error={form.errors[key]}
                  />
                ),
              )}
            </div>
            {group.id === "company" && individual && !billing.vatFranchise ? (
              <p className="mt-4 rounded-lg bg-muted/60 p-3 text-sm" data-testid="franchise-proposal">
                Micro-entrepreneur sous les seuils de la franchise en base&nbsp;?
                Activez «&nbsp;Franchise en base de TVA&nbsp;» dans{" "}
                <a href="#billing-title" className="font-semibold text-accent underline-offset-4 hover:underline">
                  Facturation
                </a>
                &nbsp;: vos factures porteront «&nbsp;{FRANCHISE_MENTION}&nbsp;».
              </p>
            ) : null}
          </fieldset>
        ))}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" size="lg" disabled={saving}>
            {saving ? "Enregistrement..." : "Enregistrer"}
          </Button>
          <p className="text-xs text-muted-foreground">
            Un champ laissé vide est signalé sur la page publique par «&nbsp;À
            compléter par le vendeur&nbsp;».
          </p>
        </div>
      </Form>

      <Form
        method="post"
        className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-card p-5"
        aria-labelledby="billing-title"
      >
        <h2 id="billing-title" className="text-lg font-bold">
          Facturation
        </h2>
        <p className="max-w-prose text-sm text-muted-foreground">
          Sous le seuil de la franchise en base, vous ne facturez pas la
          TVA&nbsp;: vos factures portent alors la mention «&nbsp;
          {FRANCHISE_MENTION}&nbsp;». Le changement vaut pour les commandes
          passées ensuite&nbsp;; une facture déjà émise ne change jamais.
        </p>
        <SwitchField
          key={String(billing.vatFranchise)}
          name="vatFranchise"
          label="Franchise en base de TVA (art. 293 B du CGI)"
          defaultChecked={billing.vatFranchise}
        />
        <p className="max-w-prose text-sm text-muted-foreground">
          Ventes à distance vers les autres pays de l&apos;UE&nbsp;: au-delà de
          10&nbsp;000&nbsp;€ HT par année civile, la TVA du pays de
          l&apos;acheteur s&apos;applique d&apos;office (guichet unique OSS).
          En dessous, vous pouvez l&apos;appliquer dès maintenant&nbsp;;
          l&apos;option vaut au moins deux années civiles.
        </p>
        <SwitchField
          key={`oss-${String(billing.ossOptIn)}`}
          name="ossOptIn"
          label="Appliquer la TVA du pays de l'acheteur (option OSS, art. 59 quater de la directive TVA)"
          defaultChecked={billing.ossOptIn}
        />
        <div>
          <Button
            type="submit"
            name="intent"
            value="billing"
            variant="outline"
            disabled={saving}
          >
            Enregistrer la facturation
          </Button>
        </div>
      </Form>

      <Form
        method="post"
        className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-card p-5"
        aria-labelledby="business-title"
      >
        <h2 id="business-title" className="text-lg font-bold">
          Ventes aux professionnels
        </h2>
        <p className="max-w-prose text-sm text-muted-foreground">
          Le panier propose «&nbsp;Achat professionnel&nbsp;»&nbsp;: raison
          sociale, SIREN et numéro de TVA intracommunautaire de
          l&apos;acheteur, imprimés sur sa facture avec les mentions dues
          entre professionnels (conditions de paiement, pénalités de retard,
          indemnité forfaitaire de 40&nbsp;€). Les CGV gagnent une section
          pour les acheteurs professionnels.
        </p>
        <SwitchField
          key={`business-${String(businessSales.sellToBusinesses)}`}
          name="sellToBusinesses"
          label="Vendre aux professionnels"
          defaultChecked={businessSales.sellToBusinesses}
        />
        <SwitchField
          key={`intra-eu-${String(businessSales.intraEuExemption)}`}
          name="intraEuExemption"
          label="Appliquer l'exonération des livraisons intracommunautaires (art. 262 ter I du CGI)"
          defaultChecked={businessSales.intraEuExemption}
          description={
            <>
              Une entreprise d&apos;un autre État membre de l&apos;Union, avec
              un numéro de TVA de cet État, facturée et livrée dans cet État,
              paie sa commande hors TVA (mention «&nbsp;
              {INTRA_EU_EXEMPTION_MENTION}&nbsp;» et les deux numéros de TVA
              sur la facture). C&apos;est à vous de vérifier, avant chaque
              expédition, que le numéro de TVA de l&apos;acheteur est valide
              dans VIES (ec.europa.eu/taxation_customs/vies)&nbsp;: la
              boutique n&apos;en contrôle que le format. Gardez la preuve de
              l&apos;expédition vers l&apos;autre État membre et déclarez ces
              livraisons dans l&apos;état récapitulatif (DEB / EMEBI).
            </>
          }
        />
        <div>
          <Button
            type="submit"
            name="intent"
            value="business"
            variant="outline"
            disabled={saving}
          >
            Enregistrer les ventes aux professionnels
          </Button>
        </div>
      </Form>

      <Form method="post" className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-card p-5" aria-labelledby="store-credit-title">
        <h2 id="store-credit-title" className="text-lg font-bold">
          Avoirs
        </h2>
        <p className="max-w-prose text-sm text-muted-foreground">
          Un avoir (rachat, geste commercial, remboursement en avoir) peut avoir une durée de validité&nbsp;: passé ce délai, la partie non utilisée est perdue. Les CGV et chaque e-mail qui annonce un avoir le disent. Le changement vaut pour les avoirs crédités ensuite.
        </p>
        <div className="max-w-xs">
          <FormField
            key={`credit-${String(creditValidityMonths)}`}
            label="Durée de validité des avoirs (mois)"
            name="validityMonths"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={actionData?.creditError?.typed ?? (creditValidityMonths === null ? "" : String(creditValidityMonths))}
            error={actionData?.creditError?.message}
            hint="Laissez vide pour des avoirs sans fin de validité."
          />
        </div>
        <div>
          <Button type="submit" name="intent" value="store-credit" variant="outline" disabled={saving}>
            Enregistrer la validité des avoirs
          </Button>
        </div>
      </Form>

      <MarginVatModeForm mode={marginVatMode} saving={saving} />
      <PreorderShippingForm mode={preorderShipping} saving={saving} />
      <Form
        method="post"
        noValidate
        className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-card p-5"
        aria-labelledby="buyback-title"
      >
        <h2 id="buyback-title" className="text-lg font-bold">
          Rachats
        </h2>
        <p className="max-w-prose text-sm text-muted-foreground">
          Le client qui accepte une offre de rachat en avoir reçoit ce bonus en plus du total de l&apos;offre. Il vaut pour les offres envoyées après l&apos;enregistrement.
        </p>
        <FormField
          id="buyback-creditBonusPercent"
          name="creditBonusPercent"
          label="Bonus en avoir (%)"
          inputMode="numeric"
          defaultValue={String(buyback.creditBonusPercent)}
          error={actionData?.fieldErrors?.creditBonusPercent}
          hint="Entre 0 et 100 ; 10 par défaut."
          autoComplete="off"
          className="max-w-48"
        />
        <div>
          <Button type="submit" name="intent" value="buyback" variant="outline" disabled={saving}>
            Enregistrer les rachats
          </Button>
        </div>
      </Form>
    </section>
  );
}

/** The legal form, from the list: it decides the other fields (shop-identity.ts requiredIdentityFields). */
function LegalFormSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (form: string) => void;
  error: string | undefined;
}) {
  return (
    <Field id="identite-legalForm" label="Forme juridique" hint={"Micro-entrepreneur\u00a0: choisissez EI."} error={error}>
      {(props) => (
        <select
          {...props}
          name="legalForm"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={`${controlClass} h-11`}
        >
          <option value="">Choisir la forme juridique</option>
          {OFFERED_LEGAL_FORMS.map((form) => (
            <option key={form.code} value={form.code}>
              {form.label}
            </option>
          ))}
          {/* A form stored before the list (SA, SNC, free text) stays shown until changed. */}
          {value && !OFFERED_LEGAL_FORMS.some((form) => form.code === value) ? (
            <option value={value}>{value}</option>
          ) : null}
        </select>
      )}
    </Field>
  );
}

function IdentityInput({
  name,
  legalForm,
  optional,
  value,
  error,
}: {
  name: IdentityKey;
  legalForm: string;
  optional: boolean;
  value: string;
  error: string | undefined;
}) {
  const field = identityFieldFor(name, legalForm);
  return (
    <div className={field.wide ? "sm:col-span-2" : undefined}>
      <FormField
        id={`identite-${name}`}
        name={name}
        label={optional ? `${field.label} (facultatif)` : field.label}
        defaultValue={value}
        placeholder={`ex. ${field.example}`}
        hint={field.hint}
        error={error}
        type={field.type ?? "text"}
        // The seller types the company's details, not their own.
        autoComplete="off"
        spellCheck={field.type ? false : undefined}
      />
    </div>
  );
}
