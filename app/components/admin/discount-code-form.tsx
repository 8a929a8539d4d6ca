import { useEditorForm } from "./use-editor-form";
import { EditorFormActions } from "./editor-form-actions";
import { Info } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SwitchField } from "~/components/ui/switch-field";
import type { FieldErrors } from "~/domain/auth-forms";
import { type DiscountRule, discountFormDefaults, discountFormSchemaAt, discountLimitsSchema, discountValueLabel, expiryLabel } from "~/domain/discounts";
import { useFormValidation } from "~/lib/use-form-validation";

export type EditedCode = DiscountRule & { id: string; isPromotion: boolean };
export type CodeFormAnswer = { ok: boolean; toast: { title: string; description?: string }; errors?: FieldErrors; saved?: "created" | "updated" };

/**
 * The create/edit form of /admin/codes, checked in the browser with the schema the action uses.
 * The promotion's code only takes its minimum and limits here: the rest follows the promotion.
 */
export function DiscountCodeForm({ code, onSaved }: { code: EditedCode | null; onSaved: (how: "created" | "updated") => void }) {
  // Editing starts from the table's "Modifier": the form comes into view with the focus.
  const { fetcher, heading } = useEditorForm<CodeFormAnswer>(onSaved, code !== null);
  const initial = discountFormDefaults(code);
  const promotion = code?.isPromotion ?? false;
  // Built once: the form is keyed by the code it edits.
  const [formSchema] = useState(() => discountFormSchemaAt({ now: () => new Date(), storedExpiry: code?.expiresAt }));
  const { errors, onSubmit, onChange } = useFormValidation(promotion ? discountLimitsSchema : formSchema, fetcher.data?.errors);
  const [kind, setKind] = useState(initial.kind);
  const busy = fetcher.state !== "idle";
  const title = code ? `Modifier le code ${code.code}` : "Nouveau code promo";

  return (
    <section aria-labelledby="code-form-title" className="rounded-2xl border border-border bg-card p-5">
      <h2 id="code-form-title" ref={heading} tabIndex={-1} className="scroll-mt-24 text-lg font-bold outline-none">
        {title}
      </h2>
      <fetcher.Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-5">
        <input type="hidden" name="intent" value="save" />
        {code ? <input type="hidden" name="id" value={code.id} /> : null}
        {promotion && code ? (
          <div className="flex gap-3 rounded-xl border border-accent/40 bg-accent/10 p-4 text-sm" role="note">
            <Info className="mt-0.5 size-5 shrink-0 text-accent" aria-hidden="true" />
            <p>
              <strong>{code.code}</strong> est le code de la promotion ({discountValueLabel(code)}, {expiryLabel(code.expiresAt).toLowerCase()}). Sa réduction, son
              expiration et son activation se règlent dans{" "}
              <Link to="/admin/promotions" className="font-semibold text-accent underline underline-offset-2">
                Promotions
              </Link>
              {"\u00a0"}; ici, son minimum d'achat et ses limites.
            </p>
          </div>
        ) : (
          <div className="grid gap-5 lg:grid-cols-2">
            <Field label="Code" required error={errors.code} hint="3 à 32 caractères : lettres, chiffres, - ou _. Les clients le tapent sans souci des majuscules.">
              {(props) => <Input {...props} name="code" defaultValue={initial.code} autoComplete="off" spellCheck={false} maxLength={32} className="uppercase" />}
            </Field>
            <fieldset className="flex flex-col gap-1.5">
              <legend className="text-sm font-medium">Type de réduction</legend>
              <div className="mt-1.5 flex flex-wrap gap-2">
                {(
                  [
                    ["percent", "Pourcentage"],
                    ["amount", "Montant fixe"],
                  ] as const
                ).map(([value, label]) => (
                  <label
                    key={value}
                    className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-border px-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
                  >
                    <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} className="size-4 accent-[var(--color-primary)]" />
                    {label}
                  </label>
                ))}
              </div>
              {errors.kind ? <p className="text-sm font-medium text-destructive">{errors.kind}</p> : null}
            </fieldset>
            <Field
              label={kind === "percent" ? "Réduction (%)" : "Montant de la réduction (€)"}
              required
              error={errors.value}
              hint={kind === "percent" ? "Un nombre entier de 1 à 100, sur les articles (jamais sur la remise contre signature)." : "Par exemple 10 ou 4,50 ; jamais plus que les articles."}
            >
              {(props) => <Input {...props} key={kind} name="value" defaultValue={kind === initial.kind ? initial.value : ""} inputMode={kind === "percent" ? "numeric" : "decimal"} autoComplete="off" />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Expire le" error={errors.expiresDate} hint="Vide : sans expiration.">
                {(props) => <Input {...props} type="date" name="expiresDate" defaultValue={initial.expiresDate} />}
              </Field>
              <Field label="à (heure de Paris)" error={errors.expiresTime} hint="Vide : 23:59.">
                {(props) => <Input {...props} type="time" name="expiresTime" defaultValue={initial.expiresTime} />}
              </Field>
            </div>
          </div>
        )}
        <div className="grid gap-5 sm:grid-cols-3">
          <Field label="Minimum d'achat (€)" error={errors.minSubtotal} hint="Sur les articles, hors remise contre signature. Vide : aucun.">
            {(props) => <Input {...props} name="minSubtotal" defaultValue={initial.minSubtotal} inputMode="decimal" autoComplete="off" />}
          </Field>
          <Field label="Utilisations au total" error={errors.maxUses} hint="Commandes payées ou en cours. Vide : illimité.">
            {(props) => <Input {...props} name="maxUses" defaultValue={initial.maxUses} inputMode="numeric" autoComplete="off" />}
          </Field>
          <Field label="Utilisations par client" error={errors.maxUsesPerCustomer} hint="Par compte ou e-mail ; un invité devra se connecter. Vide : illimité.">
            {(props) => <Input {...props} name="maxUsesPerCustomer" defaultValue={initial.maxUsesPerCustomer} inputMode="numeric" autoComplete="off" />}
          </Field>
        </div>
        {promotion ? null : <SwitchField name="isActive" label="Code actif (utilisable dès maintenant)" defaultChecked={initial.isActive === "on"} />}
        <EditorFormActions busy={busy} editing={code !== null} createLabel="Créer le code" cancelTo="/admin/codes" />
      </fetcher.Form>
    </section>
  );
}
