import { type FormEvent, type ReactNode, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { CONDITIONS, CONDITION_LABELS, MAIN_CATEGORIES, RARITIES, RARITY_LABELS, TCG_SUB_CATEGORIES } from "~/domain/catalog-values";
import {
  type ProductFieldErrors,
  type ProductFormInput,
  parsePriceCents,
  productFieldErrors,
  productFormInput,
  productFormSchema,
  safetyOfInput,
  vatRateText,
} from "~/domain/product-form";
import { purchaseLotOfEdit } from "~/domain/purchase-price-form";
import { PEGI_AGES, PEGI_DESCRIPTOR_LABELS, PEGI_DESCRIPTORS, takesPegiRating } from "~/domain/pegi";
import { formatEuros } from "~/domain/money";
import { compareAtDecision, compareAtRefusal, REFERENCE_PERIOD_DAYS } from "~/domain/reference-price";
import { missingSafetyFields, missingSafetyInformation, type SafetyProfileSummary } from "~/domain/safety-profile";
import { defaultWeightGrams, formatWeight } from "~/domain/shipping";
import { defaultVatRateBp, VAT_RATES_BP } from "~/domain/vat";
import { formatVatRate } from "~/domain/vat-allocation";
import { cn } from "~/lib/utils";
import { AdditionalImages, MainImageUploader } from "./image-uploader";
import { LaunchPicker } from "./launch-picker";

export const PRODUCT_FORM_ID = "product-form";

/** SPEC.md's series, offered as suggestions (any other series can be typed). */
/** The labels of the other categories the form offers (a stored other label is kept as well). */
const GAMING_SUB_CATEGORIES = ["Jeux Vidéo", "Manga"];

const SERIES = ["Soleil et Lune", "Épée et Bouclier", "Fusion Strike", "One Piece", "Base Set", "Team Rocket", "Magic", "Écarlate et Violet", "Astres Radieux", "Jungle", "Fossil", "Neo Genesis"];

/**
 * The product form (SPEC.md "Product form"): checked in the browser with the schema the server
 * action uses, errors beside their fields (each cleared when its field is edited) and the
 * "Formulaire incomplet" toast; the server's answer can only add its own errors.
 */
export function ProductForm({
  mode,
  initial,
  serverErrors,
  imageBase,
  today,
  currentDropTime,
  safetyProfiles,
  priceHistory,
  onTouched,
}: {
  mode: "add" | "edit";
  initial: Required<ProductFormInput>;
  serverErrors?: ProductFieldErrors;
  imageBase: string;
  today: string;
  currentDropTime: string | null;
  /** The brands' safety profiles (/admin/product-safety). */
  safetyProfiles: SafetyProfileSummary[];
  /** The saved product's price history as far as the reference price needs it (ISO dates). */
  priceHistory: { priceCents: number; effectiveFrom: string }[];
  onTouched: () => void;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [errors, setErrors] = useState<ProductFieldErrors>(serverErrors ?? {});
  // A new answer from the server replaces the errors shown (React's "adjust state on a prop change").
  const [answered, setAnswered] = useState(serverErrors);
  if (serverErrors !== answered) {
    setAnswered(serverErrors);
    setErrors(serverErrors ?? {});
  }
  const [category, setCategory] = useState(initial.category || "TCG");
  const [subCategory, setSubCategory] = useState(initial.subCategory);
  const [launch, setLaunch] = useState({ date: initial.launchDate, time: initial.launchTime });
  const [status, setStatus] = useState(initial.status === "a_venir" ? "hors_ligne" : initial.status || "en_ligne");
  const [image, setImage] = useState(initial.image);
  const [additional, setAdditional] = useState<string[]>(Array.isArray(initial.additionalImages) ? initial.additionalImages : []);
  // The stock as the form first showed it, kept when the loader runs again (after an answer, or
  // a live reload after a sale): the server counts the change typed from it (updateProduct).
  const [stockSeen] = useState(initial.stock);
  const [price, setPrice] = useState(initial.price);
  const [marginScheme, setMarginScheme] = useState(initial.marginScheme === "on");
  const [compareAt, setCompareAt] = useState(initial.compareAt);
  const [profileId, setProfileId] = useState(initial.safetyProfile);
  const profile = safetyProfiles.find((candidate) => String(candidate.id) === profileId) ?? null;
  const [labelImage, setLabelImage] = useState(initial.labelImage);
  const [outsideEuChoice, setOutsideEuChoice] = useState(initial.manufacturerOutsideEu);
  // What a publication would lack, as the server's rule says it, updated as the seller types.
  const [safetyMissing, setSafetyMissing] = useState(() => missingSafetyInformation(safetyOfInput(initial, safetyProfiles)));

  const clear = (...fields: (keyof ProductFieldErrors)[]) =>
    setErrors((current) => (fields.some((field) => current[field]) ? Object.fromEntries(Object.entries(current).filter(([key]) => !fields.includes(key as keyof ProductFieldErrors))) : current));
  const touch = (...fields: (keyof ProductFieldErrors)[]) => {
    onTouched();
    clear(...fields);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = productFormSchema({
      now: new Date(),
      currentDropTime: currentDropTime ? new Date(currentDropTime) : null,
      safetyProfiles,
    }).safeParse(
      productFormInput(data),
    );
    // The purchase price the server asks for the margin-scheme stock added, by the same rule.
    const lot = purchaseLotOfEdit(
      mode === "edit" ? { stock: Number(stockSeen) || 0, vatScheme: initial.marginScheme === "on" ? "margin" : "normal" } : null,
      { stock: Number(data.get("stock")) || 0, vatScheme: marginScheme ? "margin" : "normal" },
      data.get("purchasePrice"),
    );
    if (parsed.success && lot.ok) return;
    event.preventDefault();
    const found: ProductFieldErrors = { ...(parsed.success ? {} : productFieldErrors(parsed.error)), ...(lot.ok ? {} : { purchasePrice: lot.message }) };
    setErrors(found);
    toast.error("Formulaire incomplet", { description: "Veuillez corriger les erreurs dans le formulaire." });
    // The first field in error takes the focus, so keyboard and screen-reader users land on it.
    requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
  };

  const isTcg = category === "TCG";
  const isCards = isTcg && subCategory === "Cartes";
  const select = cn(controlClass, "h-11");
  const missing = profile ? missingSafetyFields(profile) : [];
  const outsideEu = outsideEuChoice === "" ? (profile?.manufacturerOutsideEu ?? false) : outsideEuChoice === "oui";
  const pegi = takesPegiRating(category, subCategory);
  const gamingLabels = [...GAMING_SUB_CATEGORIES, ...(initial.subCategory && !GAMING_SUB_CATEGORIES.includes(initial.subCategory) ? [initial.subCategory] : [])];
  const fromBrand = (value: string | undefined) => (value ? `Marque : ${value}` : undefined);
  return (
    <Form
      id={PRODUCT_FORM_ID}
      method="post"
      noValidate
      onSubmit={submit}
      onChange={(event) => {
        const name = (event.target as EventTarget & { name?: string }).name;
        if (name) touch(name as keyof ProductFieldErrors);
        setSafetyMissing(missingSafetyInformation(safetyOfInput(productFormInput(new FormData(event.currentTarget)), safetyProfiles)));
      }}
      className="mt-6 grid gap-6 lg:grid-cols-2"
    >
      <input type="hidden" name="intent" value="save" />
      {mode === "edit" ? <input type="hidden" name="stockSeen" value={stockSeen} /> : null}
      <div className="flex flex-col gap-6">
        <section className="flex flex-col gap-5 rounded-2xl border border-border bg-card p-5" aria-labelledby="product-info">
          <h2 id="product-info" className="text-lg font-bold">
            Informations
          </h2>
          <Field label="Nom du produit" required error={errors.name}>
            {(props) => <Input {...props} name="name" defaultValue={initial.name} autoComplete="off" maxLength={200} />}
          </Field>
          <Field label="Description" required error={errors.description}>
            {(props) => <textarea {...props} name="description" defaultValue={initial.description} rows={6} className={cn(controlClass, "py-2")} />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Prix (€)" required error={errors.price} hint="Par exemple 12,50">
              {(props) => <Input {...props} name="price" defaultValue={initial.price} inputMode="decimal" autoComplete="off" onChange={(event) => setPrice(event.target.value)} />}
            </Field>
            <Field label="Stock" required error={errors.stock} hint={mode === "edit" ? stockHint(initial.stock, stockSeen) : undefined}>
              {/* The stock seen at opening, not the live one: a live reload would otherwise move an
                  untouched field, and the server would count that change a second time. */}
              {(props) => <Input {...props} name="stock" type="number" min={0} step={1} defaultValue={stockSeen} inputMode="numeric" />}
            </Field>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Catégorie principale" required error={errors.category}>
              {(props) => (
                <select
                  {...props}
                  name="category"
                  value={category}
                  onChange={(event) => {
                    const next = event.target.value;
                    setCategory(next);
                    // Leaving TCG drops its sub-category; coming back to the stored category restores it.
                    setSubCategory(next === initial.category ? initial.subCategory : "");
                  }}
                  className={select}
                >
                  {MAIN_CATEGORIES.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {isTcg ? (
              <Field label="Sous-catégorie" required error={errors.subCategory}>
                {(props) => (
                  <select {...props} name="subCategory" value={subCategory} onChange={(event) => setSubCategory(event.target.value)} className={select}>
                    <option value="">Choisir…</option>
                    {TCG_SUB_CATEGORIES.map((value) => (
                      <option key={value} value={value}>
                        {value}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ) : category === "Gaming & Mangas" ? (
              // "Jeux Vidéo" takes a PEGI rating; "Manga" decides the badge on /entertainment.
              <Field label="Type" error={errors.subCategory}>
                {(props) => (
                  <select {...props} name="subCategory" value={subCategory} onChange={(event) => setSubCategory(event.target.value)} className={select}>
                    <option value="">Non précisé</option>
                    {gamingLabels.map((value) => (
                      <option key={value} value={value}>
                        {value}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ) : (
              // Accessories: the sub-category is a free label of the stored product: kept as is.
              <input type="hidden" name="subCategory" value={subCategory} />
            )}
          </div>
          {isCards ? (
            <Field label="Type de carte" error={errors.cardType}>
              {(props) => (
                <select {...props} name="cardType" defaultValue={initial.cardType || "recent"} className={select}>
                  <option value="recent">Récente</option>
                  <option value="vintage">Vintage</option>
                </select>
              )}
            </Field>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Série" error={errors.series}>
              {(props) => (
                <>
                  <Input {...props} name="series" defaultValue={initial.series} list="series-list" autoComplete="off" />
                  <datalist id="series-list">
                    {SERIES.map((value) => (
                      <option key={value} value={value} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
            <Field label="Rareté" error={errors.rarity}>
              {(props) => (
                <select {...props} name="rarity" defaultValue={initial.rarity} className={select}>
                  <option value="">Non précisée</option>
                  {RARITIES.map((value) => (
                    <option key={value} value={value}>
                      {RARITY_LABELS[value]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="État" error={errors.condition}>
              {(props) => (
                <select {...props} name="condition" defaultValue={initial.condition} className={select}>
                  <option value="">Non précisé</option>
                  {CONDITIONS.map((value) => (
                    <option key={value} value={value}>
                      {CONDITION_LABELS[value]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          {pegi ? (
            <fieldset className="flex flex-col gap-3">
              <legend className="mb-2 text-sm font-medium">Classification PEGI</legend>
              <Field label="Âge PEGI" error={errors.pegiRating} hint="Celui imprimé sur la boîte du jeu. Vide : non classé.">
                {(props) => (
                  <select {...props} name="pegiRating" defaultValue={initial.pegiRating} className={select}>
                    <option value="">Non renseigné</option>
                    {PEGI_AGES.map((age) => (
                      <option key={age} value={String(age)}>
                        PEGI {age}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <div role="group" aria-labelledby="pegi-descriptors-label" aria-describedby={errors.pegiDescriptors ? "pegi-descriptors-error" : undefined}>
                <p id="pegi-descriptors-label" className="text-sm font-medium">
                  Descripteurs de contenu
                </p>
                <div className="mt-2 grid grid-cols-2 gap-x-4 sm:grid-cols-4">
                  {PEGI_DESCRIPTORS.map((descriptor) => (
                    <label key={descriptor} className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        name="pegiDescriptors"
                        value={descriptor}
                        defaultChecked={[initial.pegiDescriptors].flat().includes(descriptor)}
                        className="size-5 accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                      />
                      {PEGI_DESCRIPTOR_LABELS[descriptor]}
                    </label>
                  ))}
                </div>
                {errors.pegiDescriptors ? (
                  <p id="pegi-descriptors-error" className="mt-1 text-sm font-medium text-destructive">
                    {errors.pegiDescriptors}
                  </p>
                ) : null}
              </div>
            </fieldset>
          ) : null}
        </section>

        <FormGroup legend="Prix barré, TVA et poids">
          <Field label="Prix barré (ancien prix)" error={errors.compareAt} hint={<CompareAtHint price={price} compareAt={compareAt} history={priceHistory} />}>
            {(props) => (
              <Input {...props} name="compareAt" defaultValue={initial.compareAt} inputMode="decimal" autoComplete="off" placeholder="En euros, par exemple 14,90" onChange={(event) => setCompareAt(event.target.value)} />
            )}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Taux de TVA" error={errors.vatRate}>
              {(props) => (
                <select {...props} name="vatRate" defaultValue={initial.vatRate} className={select}>
                  <option value="">Par défaut ({formatVatRate(defaultVatRateBp(category, subCategory))})</option>
                  {VAT_RATES_BP.map((rate) => (
                    <option key={rate} value={vatRateText(rate)}>
                      {formatVatRate(rate)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Poids (g)" error={errors.weight} hint="Pour le prix de la livraison. Vide : le poids par défaut de la catégorie.">
              {(props) => (
                <Input
                  {...props}
                  name="weight"
                  defaultValue={initial.weight}
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={`Par défaut : ${formatWeight(defaultWeightGrams(category, subCategory))}`}
                />
              )}
            </Field>
          </div>
          <div className="flex flex-col gap-1">
            <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium">
              <input
                type="checkbox"
                name="marginScheme"
                checked={marginScheme}
                onChange={(event) => setMarginScheme(event.target.checked)}
                aria-describedby="margin-scheme-hint"
                className="size-5 shrink-0 accent-[var(--color-primary)]"
              />
              Bien d'occasion (régime de la marge)
            </label>
            <p id="margin-scheme-hint" className="text-xs text-muted-foreground">
              Acheté à un particulier et revendu en l'état : la TVA porte sur la marge et n'apparaît pas sur la facture (article 297 A du CGI).
            </p>
            {errors.marginScheme ? <p className="text-sm font-medium text-destructive">{errors.marginScheme}</p> : null}
          </div>
          {marginScheme ? (
            <Field
              label="Prix d'achat unitaire (€)"
              error={errors.purchasePrice}
              hint="Ce que vous avez payé par unité pour le stock ajouté (pour tout le stock quand le produit passe sous le régime de la marge). Jamais montré aux acheteurs."
            >
              {(props) => <Input {...props} name="purchasePrice" inputMode="decimal" autoComplete="off" placeholder="Par exemple 4,50" onChange={() => clear("purchasePrice")} />}
            </Field>
          ) : null}
        </FormGroup>
      </div>

      <div className="flex flex-col gap-6">
        <section className="flex flex-col gap-5 rounded-2xl border border-border bg-card p-5" aria-labelledby="product-publication">
          <h2 id="product-publication" className="text-lg font-bold">
            Publication
          </h2>
          {launch.date ? (
            <>
              <input type="hidden" name="status" value="a_venir" />
              <p className="text-sm">
                Statut : <strong>À venir</strong> jusqu'à la date de lancement.
              </p>
            </>
          ) : (
            <Field label="Statut" error={errors.status}>
              {(props) => (
                <select {...props} name="status" value={status} onChange={(event) => setStatus(event.target.value)} className={select}>
                  <option value="en_ligne">En ligne</option>
                  <option value="hors_ligne">Hors ligne</option>
                </select>
              )}
            </Field>
          )}
          <LaunchPicker
            date={launch.date}
            time={launch.time}
            today={today}
            error={errors.launchDate ?? errors.launchTime}
            onChange={(value) => {
              setLaunch(value);
              touch("launchDate", "launchTime", "status");
            }}
          />
          <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium">
            <input type="checkbox" name="featured" defaultChecked={initial.featured === "on"} className="peer sr-only" role="switch" />
            <span
              aria-hidden="true"
              className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border border-border bg-muted transition-colors peer-checked:border-primary peer-checked:bg-primary peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring after:absolute after:left-1 after:size-4 after:rounded-full after:bg-background after:shadow after:transition-transform peer-checked:after:translate-x-5"
            />
            Mettre en avant sur la page d'accueil
          </label>
        </section>

        <section className="flex flex-col gap-5 rounded-2xl border border-border bg-card p-5" aria-labelledby="product-images">
          <h2 id="product-images" className="text-lg font-bold">
            Images
          </h2>
          <MainImageUploader
            imageKey={image}
            imageBase={imageBase}
            errorId="image-error"
            error={errors.image}
            onChange={(key) => {
              setImage(key);
              touch("image");
            }}
          />
          <AdditionalImages
            keys={additional}
            imageBase={imageBase}
            onChange={(keys) => {
              setAdditional(keys);
              touch("additionalImages");
            }}
            onAdd={(key) => {
              setAdditional((current) => (current.includes(key) ? current : [...current, key]));
              touch("additionalImages");
            }}
          />
          {errors.additionalImages ? <p className="text-sm font-medium text-destructive">{errors.additionalImages}</p> : null}
        </section>
      </div>

      <FormGroup legend="Sécurité du produit" className="lg:col-span-2">
        <p className="text-sm text-muted-foreground">
          Fabricant, personne responsable dans l'UE, identifiant et avertissements affichés sur la fiche produit (règlement (UE) 2023/988, article 19). Les
          valeurs de la marque s'appliquent&nbsp;; un champ rempli ci-dessous les remplace pour ce produit.
        </p>
        <div role="status" className={cn("rounded-xl border p-3 text-sm", safetyMissing.length > 0 ? "border-warning bg-warning/10" : "border-border")}>
          {safetyMissing.length > 0 ? (
            <>
              <strong className="font-semibold">Publication impossible sans&nbsp;:</strong> {safetyMissing.join(", ")}. Le produit peut être enregistré hors ligne.
            </>
          ) : (
            "Informations de sécurité complètes : le produit peut être mis en ligne."
          )}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Marque"
            error={errors.safetyProfile}
            hint={
              <>
                {profile && missing.length > 0 ? (
                  <span className="block font-medium text-foreground">Fiche de la marque incomplète&nbsp;: {missing.join(", ")}.</span>
                ) : null}
                <Link to="/admin/product-safety" className="font-medium text-accent underline-offset-4 hover:underline">
                  Gérer les fiches des marques
                </Link>
              </>
            }
          >
            {(props) => (
              <select {...props} name="safetyProfile" value={profileId} onChange={(event) => setProfileId(event.target.value)} className={select}>
                <option value="">Aucune marque</option>
                {safetyProfiles.map((candidate) => (
                  <option key={candidate.id} value={String(candidate.id)}>
                    {candidate.brand}
                    {missingSafetyFields(candidate).length > 0 ? " (fiche incomplète)" : ""}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Fabricant" error={errors.manufacturerName}>
            {(props) => <Input {...props} name="manufacturerName" defaultValue={initial.manufacturerName} autoComplete="off" maxLength={200} placeholder={fromBrand(profile?.manufacturerName)} />}
          </Field>
          <Field label="E-mail du fabricant" error={errors.manufacturerEmail}>
            {(props) => <Input {...props} name="manufacturerEmail" type="email" defaultValue={initial.manufacturerEmail} autoComplete="off" maxLength={254} placeholder={fromBrand(profile?.email)} />}
          </Field>
          <Field label="Adresse postale du fabricant" error={errors.manufacturerAddress}>
            {(props) => (
              <textarea {...props} name="manufacturerAddress" defaultValue={initial.manufacturerAddress} rows={3} maxLength={500} placeholder={fromBrand(profile?.postalAddress)} className={cn(controlClass, "py-2")} />
            )}
          </Field>
          <Field label="Fabricant établi hors de l'Union européenne" error={errors.manufacturerOutsideEu} hint="Hors UE : la personne responsable dans l'UE est obligatoire.">
            {(props) => (
              <select {...props} name="manufacturerOutsideEu" value={outsideEuChoice} onChange={(event) => setOutsideEuChoice(event.target.value)} className={select}>
                <option value="">Comme la marque{profile ? ` (${profile.manufacturerOutsideEu ? "oui" : "non"})` : ""}</option>
                <option value="oui">Oui</option>
                <option value="non">Non</option>
              </select>
            )}
          </Field>
          {outsideEu ? (
            <>
              <Field label="Personne responsable dans l'UE" error={errors.euRepName}>
                {(props) => <Input {...props} name="euRepName" defaultValue={initial.euRepName} autoComplete="off" maxLength={200} placeholder={fromBrand(profile?.euRepName)} />}
              </Field>
              <Field label="E-mail de la personne responsable" error={errors.euRepEmail}>
                {(props) => <Input {...props} name="euRepEmail" type="email" defaultValue={initial.euRepEmail} autoComplete="off" maxLength={254} placeholder={fromBrand(profile?.euRepEmail)} />}
              </Field>
              <Field label="Adresse postale de la personne responsable" error={errors.euRepAddress}>
                {(props) => (
                  <textarea {...props} name="euRepAddress" defaultValue={initial.euRepAddress} rows={3} maxLength={500} placeholder={fromBrand(profile?.euRepAddress)} className={cn(controlClass, "py-2")} />
                )}
              </Field>
            </>
          ) : (
            // Kept as they are while hidden: choosing "hors UE" again shows them unchanged.
            <>
              <input type="hidden" name="euRepName" value={initial.euRepName} />
              <input type="hidden" name="euRepEmail" value={initial.euRepEmail} />
              <input type="hidden" name="euRepAddress" value={initial.euRepAddress} />
            </>
          )}
          <Field label="EAN (GTIN)" error={errors.ean} hint="8 ou 13 chiffres, clé de contrôle comprise.">
            {(props) => <Input {...props} name="ean" defaultValue={initial.ean} inputMode="numeric" autoComplete="off" spellCheck={false} maxLength={20} />}
          </Field>
          <Field label="Référence du fabricant" error={errors.manufacturerReference} hint="L'identifiant quand le produit n'a pas d'EAN (la référence de la boutique ne suffit pas).">
            {(props) => <Input {...props} name="manufacturerReference" defaultValue={initial.manufacturerReference} autoComplete="off" spellCheck={false} maxLength={100} />}
          </Field>
          <Field label="Avertissements et informations de sécurité" error={errors.safetyWarnings} className="sm:col-span-2">
            {(props) => (
              <textarea {...props} name="safetyWarnings" defaultValue={initial.safetyWarnings} rows={3} maxLength={2000} placeholder={fromBrand(profile?.warnings)} className={cn(controlClass, "py-2")} />
            )}
          </Field>
          <div className="sm:col-span-2">
            <MainImageUploader
              imageKey={labelImage}
              imageBase={imageBase}
              errorId="label-image-error"
              error={errors.labelImage}
              name="labelImage"
              legend="Photo de l'étiquette (facultative)"
              required={false}
              inputId="label-image-file"
              chooseLabel="Choisir la photo de l'étiquette"
              previewAlt="Aperçu de la photo de l'étiquette"
              onChange={(key) => {
                setLabelImage(key);
                touch("labelImage");
              }}
            />
          </div>
        </div>
      </FormGroup>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end lg:col-span-2">
        <Button type="submit" size="lg" disabled={saving}>
          {saving ? "Enregistrement…" : mode === "add" ? "Ajouter le produit" : "Enregistrer les modifications"}
        </Button>
      </div>
    </Form>
  );
}

/** A group of fields with its legend, drawn as the form's other cards. */
function FormGroup({ legend, className, children }: { legend: string; className?: string; children: ReactNode }) {
  return (
    <div className={cn("rounded-2xl border border-border bg-card p-5", className)}>
      <fieldset className="flex min-w-0 flex-col gap-5">
        <legend className="mb-5 text-lg font-bold">{legend}</legend>
        {children}
      </fieldset>
    </div>
  );
}

/**
 * Whether the former price will show on the product page, for the price and former price typed:
 * a price other than the saved one would take effect on saving, starting its 30 days anew.
 */
function CompareAtHint({ price, compareAt, history }: { price: string; compareAt: string; history: { priceCents: number; effectiveFrom: string }[] }) {
  const rule = `Affiché barré seulement s'il ne dépasse pas le prix le plus bas des ${REFERENCE_PERIOD_DAYS} jours précédant le prix actuel. Vide : aucun.`;
  const typedPrice = parsePriceCents(price);
  const typedCompareAt = compareAt.trim() === "" ? null : parsePriceCents(compareAt, "Le prix barré");
  if (!typedPrice.ok || !typedCompareAt?.ok) return rule;
  const points = history.map((point) => ({ priceCents: point.priceCents, effectiveFrom: new Date(point.effectiveFrom) }));
  if (points.at(-1)?.priceCents !== typedPrice.value) points.push({ priceCents: typedPrice.value, effectiveFrom: new Date() });
  const decision = compareAtDecision({ priceCents: typedPrice.value, compareAtCents: typedCompareAt.value, history: points });
  if (decision.shown) return `Affiché barré sur la fiche produit (prix de référence : ${formatEuros(decision.referenceCents)}, le plus bas des ${REFERENCE_PERIOD_DAYS} jours précédant le prix actuel).`;
  return (
    <>
      <strong className="font-semibold text-foreground">Prix barré non affiché&nbsp;:</strong> {compareAtRefusal(decision)}
    </>
  );
}

/** The edit form's stock hint: once the stock has moved since the form opened (a sale, another save), both figures. */
function stockHint(stockNow: string | number, stockSeen: string | number): string {
  const rule = "Les ventes faites pendant cette modification en sont déduites.";
  return String(stockNow) === String(stockSeen) ? rule : `Stock actuel : ${stockNow} (${stockSeen} à l'ouverture du formulaire). ${rule}`;
}
