import { useEditorForm } from "./use-editor-form";
import { Plus, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SwitchField } from "~/components/ui/switch-field";
import type { FieldErrors } from "~/domain/field-errors";
import { SHIPPING_COUNTRIES, type ShippingCountry } from "~/domain/shipping-countries";
import { SHIPPING_KINDS, SHIPPING_KIND_LABELS } from "~/domain/shipping-method";
import {
  type BandRowInput,
  DELIVERY_TIME_MAX,
  MAX_BANDS,
  NAME_MAX,
  SAMPLE_CART,
  type ShippingMethodFormDefaults,
  bandField,
  countryField,
  shippingExampleOf,
  shippingMethodFormSchema,
} from "~/domain/shipping-method-form";
import { useFormValidation } from "~/lib/use-form-validation";

export type ShippingFormAnswer = {
  ok: boolean;
  toast: { title: string; description?: string };
  errors?: FieldErrors;
  /** The method saved, for the page to close the form and put the focus on its row. */
  saved?: { id: number; how: "created" | "updated" };
};

const EU = SHIPPING_COUNTRIES.filter(([code]) => code !== "FR");
const KIND_HINTS = { home: "Colissimo, Chronopost…", relay: "Mondial Relay, Relais Colis…", letter: "Petits envois, cartes à l'unité" } as const;

type BandRow = BandRowInput & { key: number };

/**
 * The add/edit form of /admin/shipping, checked in the browser with the schema its action uses.
 * Countries are one checkbox each (France, then the EU with "Tout cocher"); price bands are rows
 * the seller adds and removes; a line prices a sample cart with the bands as typed.
 */
export function ShippingMethodForm({
  methodId,
  initial,
  onSaved,
  onCancel,
}: {
  methodId: number | null;
  initial: ShippingMethodFormDefaults;
  onSaved: (saved: NonNullable<ShippingFormAnswer["saved"]>) => void;
  onCancel: () => void;
}) {
  // The form opens from "Ajouter" or a row's "Modifier": it comes into view with the focus.
  const { fetcher, heading } = useEditorForm<ShippingFormAnswer>(onSaved, true);

  const { errors, onSubmit, onChange } = useFormValidation(shippingMethodFormSchema, fetcher.data?.errors);
  const [kind, setKind] = useState(initial.kind);
  const [countries, setCountries] = useState<ReadonlySet<ShippingCountry>>(() => new Set(initial.countries));
  const nextKey = useRef(initial.bands.length);
  const [rows, setRows] = useState<BandRow[]>(() => initial.bands.map((band, key) => ({ ...band, key })));
  const form = useRef<HTMLFormElement>(null);
  const [sample, setSample] = useState({ weight: String(SAMPLE_CART.weightGrams), goods: String(SAMPLE_CART.goodsCents / 100) });
  const [example, setExample] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  const title = methodId === null ? "Nouveau mode de livraison" : `Modifier «\u00a0${initial.name}\u00a0»`;
  const ids = useId();

  // The example line, from the form as it stands and the sample cart: again after each change
  // of the form (counted by `edits`), of its rows and of the sample.
  const [edits, setEdits] = useState(0);
  useEffect(() => {
    if (!form.current) return;
    const weightGrams = Number(sample.weight.replace(/\s/g, ""));
    const goodsCents = Math.round(Number(sample.goods.replace(/\s/g, "").replace(",", ".")) * 100);
    const cart = Number.isInteger(weightGrams) && weightGrams > 0 && Number.isFinite(goodsCents) && goodsCents >= 0 ? { weightGrams, goodsCents } : null;
    setExample(cart ? shippingExampleOf(Object.fromEntries(new FormData(form.current)), cart) : null);
  }, [edits, rows, sample]);

  // A row added takes the focus on its first field; a row removed hands it to the next row (or "Ajouter").
  const focusAfter = useRef<{ key: number } | "add" | null>(null);
  useLayoutEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (target === "add") document.getElementById(`${ids}-add`)?.focus();
    else if (target) document.getElementById(`${ids}-band-${target.key}-upTo`)?.focus();
  }, [rows, ids]);

  function addRow() {
    if (rows.length >= MAX_BANDS) return;
    const key = nextKey.current++;
    focusAfter.current = { key };
    setRows([...rows, { key, upTo: "", from: "", price: "" }]);
  }

  function removeRow(key: number) {
    const index = rows.findIndex((row) => row.key === key);
    const rest = rows.filter((row) => row.key !== key);
    const next = rest[index] ?? rest[index - 1];
    focusAfter.current = next ? { key: next.key } : "add";
    setRows(rest);
  }

  function setCountry(code: ShippingCountry, on: boolean) {
    const next = new Set(countries);
    if (on) next.add(code);
    else next.delete(code);
    setCountries(next);
  }

  const euChecked = EU.filter(([code]) => countries.has(code)).length;
  const allEu = euChecked === EU.length;
  function setAllEu(on: boolean) {
    const next = new Set(countries);
    for (const [code] of EU) {
      if (on) next.add(code);
      else next.delete(code);
    }
    setCountries(next);
  }

  /** The hook clears a field's error when it is edited; a country's box also clears the countries' one, a band's input its row's. */
  function onFormChange(event: FormEvent<HTMLFormElement>) {
    const name = (event.target as HTMLInputElement).name ?? "";
    if (name.startsWith("country.") && errors.countries) onChange({ ...event, target: { name: "countries" } } as unknown as FormEvent<HTMLFormElement>);
    else if (name.startsWith("bands.") && errors.bands && !errors[name]) onChange({ ...event, target: { name: "bands" } } as unknown as FormEvent<HTMLFormElement>);
    else onChange(event);
    setEdits((n) => n + 1);
  }

  const bandError = (key: number) => {
    const messages = (["upTo", "from", "price"] as const).map((part) => errors[bandField(key, part)]).filter(Boolean);
    return messages.length ? messages.join(" ") : undefined;
  };

  return (
    <section aria-labelledby={`${ids}-title`} className="rounded-2xl border border-border bg-card p-4 sm:p-5">
      <h2 id={`${ids}-title`} ref={heading} tabIndex={-1} className="scroll-mt-24 text-lg font-bold outline-none">
        {title}
      </h2>
      <fetcher.Form ref={form} method="post" noValidate onSubmit={onSubmit} onChange={onFormChange} className="mt-4 flex flex-col gap-6">
        <input type="hidden" name="intent" value="save" />
        {methodId !== null ? <input type="hidden" name="id" value={methodId} /> : null}

        <div className="grid gap-5 lg:grid-cols-2">
          <Field label="Nom" required error={errors.name} hint="Tel que les clients le voient dans le panier et sur leur commande.">
            {(props) => <Input {...props} name="name" defaultValue={initial.name} maxLength={NAME_MAX} autoComplete="off" />}
          </Field>
          <fieldset className="flex flex-col gap-1.5" aria-describedby={errors.kind ? `${ids}-kind-error` : undefined}>
            <legend className="text-sm font-medium">Type de livraison</legend>
            <div className="mt-1.5 flex flex-wrap gap-2">
              {SHIPPING_KINDS.map((value) => (
                <label
                  key={value}
                  title={KIND_HINTS[value]}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-border px-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
                >
                  <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} className="size-4 accent-[var(--color-primary)]" />
                  {SHIPPING_KIND_LABELS[value]}
                </label>
              ))}
            </div>
            {errors.kind ? (
              <p id={`${ids}-kind-error`} className="text-sm font-medium text-destructive">
                {errors.kind}
              </p>
            ) : null}
          </fieldset>
          <Field label="Délai de livraison" error={errors.deliveryTime} hint={"Par exemple «\u00a02 à 3 jours ouvrés\u00a0»\u00a0: affiché dans le panier, sur la commande et dans les e-mails."}>
            {(props) => <Input {...props} name="deliveryTime" defaultValue={initial.deliveryTime} maxLength={DELIVERY_TIME_MAX} autoComplete="off" />}
          </Field>
          <Field label="Offerte dès (€)" error={errors.freeFrom} hint={"Montant des articles, après réduction. Vide\u00a0: jamais offerte."}>
            {(props) => <Input {...props} name="freeFrom" defaultValue={initial.freeFrom} inputMode="decimal" autoComplete="off" className="sm:max-w-48" />}
          </Field>
        </div>

        <fieldset
          name="bands"
          tabIndex={-1}
          aria-describedby={[`${ids}-bands-hint`, errors.bands ? `${ids}-bands-error` : null].filter(Boolean).join(" ")}
          className="flex min-w-0 flex-col gap-3 rounded-xl border border-border p-3 outline-none focus-visible:outline-2 focus-visible:outline-ring sm:p-4"
        >
          <legend className="px-1 text-sm font-semibold">Tranches de prix</legend>
          <p id={`${ids}-bands-hint`} className="text-xs text-muted-foreground">
            Un panier prend la tranche la plus légère qui le porte&nbsp;; à poids égal, celle au minimum d'achat le plus haut qu'il atteint. Poids vide&nbsp;: sans limite.
          </p>
          <div aria-hidden="true" className="hidden grid-cols-[repeat(3,minmax(0,1fr))_2.75rem] gap-3 text-xs font-medium text-muted-foreground sm:grid">
            <span>Jusqu'à (g)</span>
            <span>À partir de (€ d'achats)</span>
            <span>Prix (€)</span>
          </div>
          <ol className="flex flex-col gap-3">
            {rows.map((row, index) => {
              const error = bandError(row.key);
              const errorId = `${ids}-band-${row.key}-error`;
              const input = (part: keyof BandRowInput, label: string, props: { inputMode: "numeric" | "decimal"; placeholder?: string }) => {
                const id = `${ids}-band-${row.key}-${part}`;
                return (
                  <div className="flex flex-col gap-1">
                    <label htmlFor={id} className="text-xs font-medium text-muted-foreground sm:sr-only">
                      <span className="sr-only">Tranche {index + 1}, </span>
                      {label}
                    </label>
                    <Input
                      id={id}
                      name={bandField(row.key, part)}
                      defaultValue={row[part]}
                      autoComplete="off"
                      aria-invalid={errors[bandField(row.key, part)] ? true : undefined}
                      aria-describedby={errors[bandField(row.key, part)] ? errorId : undefined}
                      {...props}
                    />
                  </div>
                );
              };
              return (
                <li key={row.key} className="flex flex-col gap-1">
                  <div className="grid grid-cols-[repeat(3,minmax(0,1fr))_2.75rem] items-end gap-3">
                    {input("upTo", "Jusqu'à (g)", { inputMode: "numeric", placeholder: "Sans limite" })}
                    {input("from", "À partir de (€)", { inputMode: "decimal", placeholder: "0" })}
                    {input("price", "Prix (€)", { inputMode: "decimal" })}
                    {rows.length > 1 ? (
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon"
                        className="text-destructive hover:text-destructive"
                        aria-label={`Supprimer la tranche ${index + 1}`}
                        title="Supprimer la tranche"
                        onClick={() => removeRow(row.key)}
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    ) : (
                      <span />
                    )}
                  </div>
                  {error ? (
                    <p id={errorId} className="text-sm font-medium text-destructive">
                      {error}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <div className="flex flex-wrap items-center gap-3">
            <Button
              id={`${ids}-add`}
              type="button"
              variant="outline"
              aria-disabled={rows.length >= MAX_BANDS || undefined}
              className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
              onClick={addRow}
            >
              <Plus aria-hidden="true" /> Ajouter une tranche
            </Button>
            {rows.length >= MAX_BANDS ? <p className="text-xs text-muted-foreground">{MAX_BANDS} tranches au plus.</p> : null}
          </div>
          {errors.bands ? (
            <p id={`${ids}-bands-error`} className="text-sm font-medium text-destructive">
              {errors.bands}
            </p>
          ) : null}
          <fieldset className="flex flex-col gap-2 rounded-lg bg-muted/50 p-3 text-sm">
            <legend className="float-left text-xs font-medium text-muted-foreground">Essayer avec un panier (non enregistré)</legend>
            <div className="clear-left flex flex-wrap items-end gap-3">
              <label className="flex flex-col gap-1 text-xs font-medium text-muted-foreground">
                Poids (g)
                <Input value={sample.weight} onChange={(event) => setSample({ ...sample, weight: event.target.value })} inputMode="numeric" autoComplete="off" className="w-28" />
              </label>
              <label className="flex flex-col gap-1 text-xs font-medium text-muted-foreground">
                Montant (€)
                <Input value={sample.goods} onChange={(event) => setSample({ ...sample, goods: event.target.value })} inputMode="decimal" autoComplete="off" className="w-28" />
              </label>
            </div>
            <output className="font-medium">{example ?? "Exemple\u00a0: complétez les tranches pour voir le prix d'un panier."}</output>
          </fieldset>
        </fieldset>

        <fieldset
          name="countries"
          tabIndex={-1}
          aria-describedby={errors.countries ? `${ids}-countries-error` : undefined}
          className="flex min-w-0 flex-col gap-3 rounded-xl border border-border p-3 outline-none focus-visible:outline-2 focus-visible:outline-ring sm:p-4"
        >
          <legend className="px-1 text-sm font-semibold">Pays de livraison</legend>
          <CountryBox code="FR" name="France" checked={countries.has("FR")} onChange={setCountry} />
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-medium">
              Union européenne{" "}
              <span className="text-xs font-normal text-muted-foreground">
                ({euChecked} pays sur {EU.length})
              </span>
            </legend>
            <Button type="button" variant="outline" className="self-start" onClick={() => setAllEu(!allEu)}>
              {allEu ? "Tout décocher" : "Tout cocher"}
            </Button>
            <div className="grid grid-cols-2 gap-x-3 sm:grid-cols-3 xl:grid-cols-4">
              {EU.map(([code, name]) => (
                <CountryBox key={code} code={code} name={name} checked={countries.has(code)} onChange={setCountry} />
              ))}
            </div>
          </fieldset>
          {errors.countries ? (
            <p id={`${ids}-countries-error`} className="text-sm font-medium text-destructive">
              {errors.countries}
            </p>
          ) : null}
        </fieldset>

        <SwitchField name="active" label="Proposé aux clients (actif)" defaultChecked={initial.active} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? "Enregistrement..." : methodId === null ? "Ajouter le mode de livraison" : "Enregistrer les modifications"}
          </Button>
          <Button type="button" variant="outline" onClick={onCancel}>
            Annuler
          </Button>
        </div>
      </fetcher.Form>
    </section>
  );
}

function CountryBox({ code, name, checked, onChange }: { code: ShippingCountry; name: string; checked: boolean; onChange: (code: ShippingCountry, on: boolean) => void }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 self-start rounded-lg px-2 text-sm hover:bg-muted has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
      <input type="checkbox" name={countryField(code)} checked={checked} onChange={(event) => onChange(code, event.target.checked)} className="size-4 accent-[var(--color-primary)]" />
      {name}
    </label>
  );
}
