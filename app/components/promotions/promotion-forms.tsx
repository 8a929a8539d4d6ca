import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SwitchField } from "~/components/ui/switch-field";
import { CATALOG_CATEGORY_IDS } from "~/domain/categories";
import { CATALOG_CATEGORY_LABELS } from "~/domain/catalog-query";
import {
  CODE_MAX_LENGTH,
  COUNTDOWN_LOCATIONS,
  COUNTDOWN_LOCATION_LABELS,
  type HeroBanner,
  HERO_PROMO_VERSIONS,
  HERO_PROMO_VERSION_LABELS,
  MESSAGE_MAX_LENGTH,
  PROMOTION_POSITIONS,
  PROMOTION_POSITION_LABELS,
  type SettingStatus,
  countdownFormSchema,
  type countdownFormValues,
  heroBannerFormSchema,
  promotionFormSchema,
  type promotionFormValues,
} from "~/domain/site-content";
import { cn } from "~/lib/utils";
import { SettingsCard } from "./settings-card";

const select = cn(controlClass, "h-11");
const textarea = cn(controlClass, "min-h-20 py-2");

function MessageField({ error, defaultValue, hint }: { error?: string; defaultValue: string; hint?: string }) {
  return (
    <Field label="Message" required error={error} hint={hint}>
      {(props) => <textarea {...props} name="message" defaultValue={defaultValue} rows={2} maxLength={MESSAGE_MAX_LENGTH} className={textarea} />}
    </Field>
  );
}

export function PromotionForm({ values, status }: { values: ReturnType<typeof promotionFormValues>; status: SettingStatus }) {
  return (
    <SettingsCard
      intent="promotion"
      title="Promotion"
      description="Un message et son code de réduction, affichés à tous les visiteurs ; le code s'applique au panier."
      status={status}
      schema={promotionFormSchema}
      submitLabel="Enregistrer la promotion"
    >
      {(errors) => (
        <>
          <SwitchField name="isVisible" label="Afficher la promotion" defaultChecked={values.isVisible} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Code promo" error={errors.code} hint="Lettres, chiffres, - et _. Vide : un message sans code.">
              {(props) => <Input {...props} name="code" defaultValue={values.code} maxLength={CODE_MAX_LENGTH} autoComplete="off" className="font-mono uppercase" />}
            </Field>
            <Field label="Remise (%)" required error={errors.percentOff} hint="Sur tout le site, de 1 à 100.">
              {(props) => <Input {...props} name="percentOff" type="number" min={1} max={100} step={1} defaultValue={values.percentOff} inputMode="numeric" />}
            </Field>
          </div>
          <MessageField error={errors.message} defaultValue={values.message} />
          <Field label="Emplacement" required error={errors.position}>
            {(props) => (
              <select {...props} name="position" defaultValue={values.position} className={select}>
                {PROMOTION_POSITIONS.map((position) => (
                  <option key={position} value={position}>
                    {PROMOTION_POSITION_LABELS[position]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Date d'expiration" error={errors.expiryDate} hint="Vide : sans fin. Heure de Paris.">
              {(props) => <Input {...props} name="expiryDate" type="date" defaultValue={values.expiryDate} />}
            </Field>
            <Field label="Heure d'expiration" error={errors.expiryTime} hint="Vide : fin de la journée.">
              {(props) => <Input {...props} name="expiryTime" type="time" step={1} defaultValue={values.expiryTime} />}
            </Field>
          </div>
        </>
      )}
    </SettingsCard>
  );
}

export function CountdownForm({ values, status }: { values: ReturnType<typeof countdownFormValues>; status: SettingStatus }) {
  return (
    <SettingsCard
      intent="countdown"
      title="Compte à rebours"
      description="Jusqu'à une sortie : jours, heures, minutes et secondes, à l'heure de Paris."
      status={status}
      schema={countdownFormSchema}
      submitLabel="Enregistrer le compte à rebours"
    >
      {(errors) => (
        <>
          <SwitchField name="isActive" label="Activer le compte à rebours" defaultChecked={values.isActive} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Date de fin" error={errors.date}>
              {(props) => <Input {...props} name="date" type="date" defaultValue={values.date} />}
            </Field>
            <Field label="Heure de fin" error={errors.time} hint="Heure de Paris, à la seconde près si besoin.">
              {(props) => <Input {...props} name="time" type="time" step={1} defaultValue={values.time} />}
            </Field>
          </div>
          <MessageField error={errors.message} defaultValue={values.message} hint="Affiché devant le temps restant." />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Catégorie" required error={errors.category}>
              {(props) => (
                <select {...props} name="category" defaultValue={values.category} className={select}>
                  {CATALOG_CATEGORY_IDS.map((id) => (
                    <option key={id} value={id}>
                      {CATALOG_CATEGORY_LABELS[id]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Emplacement" required error={errors.location}>
              {(props) => (
                <select {...props} name="location" defaultValue={values.location} className={select}>
                  {COUNTDOWN_LOCATIONS.map((location) => (
                    <option key={location} value={location}>
                      {COUNTDOWN_LOCATION_LABELS[location]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <SwitchField name="hideProducts" label="Masquer les produits de cette catégorie jusqu'à la fin" defaultChecked={values.hideProducts} />
        </>
      )}
    </SettingsCard>
  );
}

export function HeroBannerForm({ values, status }: { values: HeroBanner; status: SettingStatus }) {
  return (
    <SettingsCard
      intent="hero"
      title="Bannière d'accueil"
      description="L'offre mise en avant en haut de la page d'accueil (par exemple celle de vos lives)."
      status={status}
      schema={heroBannerFormSchema}
      submitLabel="Enregistrer la bannière"
    >
      {(errors) => (
        <>
          <SwitchField name="isActive" label="Afficher la bannière" defaultChecked={values.isActive} />
          <MessageField error={errors.message} defaultValue={values.message} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Code promo" error={errors.promoCode} hint="Le code de l'offre, affiché tel quel.">
              {(props) => <Input {...props} name="promoCode" defaultValue={values.promoCode} maxLength={CODE_MAX_LENGTH} autoComplete="off" className="font-mono" />}
            </Field>
            <Field label="Présentation" required error={errors.showPromoVersion}>
              {(props) => (
                <select {...props} name="showPromoVersion" defaultValue={String(values.showPromoVersion)} className={select}>
                  {HERO_PROMO_VERSIONS.map((version) => (
                    <option key={version} value={version}>
                      {HERO_PROMO_VERSION_LABELS[version]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        </>
      )}
    </SettingsCard>
  );
}
