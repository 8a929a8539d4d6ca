import { z } from "zod";
import { hasForbiddenCharacters, visibleLength } from "./text-rules";
import {
  CARD_TYPES,
  type CardType,
  CONDITIONS,
  type Condition,
  MAIN_CATEGORIES,
  type MainCategory,
  PRODUCT_STATUSES,
  type ProductStatus,
  RARITIES,
  type Rarity,
  TCG_SUB_CATEGORIES,
} from "./catalog-values";
import { MAX_ADDITIONAL_IMAGES } from "./image-upload";
import { checkEan } from "./ean";
import { centsToFrenchDecimal } from "./money";
import { parisWallTime, parisWallTimeToUtc } from "./paris-time";
import { type PegiAge, type PegiDescriptor, parsePegi, takesPegiRating } from "./pegi";
import {
  checkEmail,
  checkLine,
  checkLines,
  EMAIL_MAX_LENGTH,
  MANUFACTURER_NAME_MAX_LENGTH,
  missingSafetyInformation,
  parseYesNo,
  POSTAL_ADDRESS_MAX_LENGTH,
  type ProductSafety,
  productSafety,
  type SafetyProfileSummary,
  safetyPublicationRefusal,
  WARNINGS_MAX_LENGTH,
} from "./safety-profile";
import { isVatRateBp, type FrenchVatRateBp, type VatScheme } from "./vat";

/**
 * The admin product form (SPEC.md sections 2 and 5): one schema for the browser and the server
 * action, also used row by row by the catalogue CSV import. Input is what a form posts (strings);
 * output is typed values ready for the products table. This file ships to the browser: zod and
 * Intl only.
 */

export const PRODUCT_FORM_FIELDS = [
  "name",
  "description",
  "price",
  "stock",
  "status",
  "category",
  "subCategory",
  "cardType",
  "featured",
  "launchDate",
  "launchTime",
  "image",
  "additionalImages",
  "series",
  "rarity",
  "condition",
  "compareAt",
  "weight",
  "vatRate",
  "marginScheme",
  "safetyProfile",
  "manufacturerName",
  "manufacturerAddress",
  "manufacturerEmail",
  "manufacturerOutsideEu",
  "euRepName",
  "euRepAddress",
  "euRepEmail",
  "ean",
  "manufacturerReference",
  "safetyWarnings",
  "labelImage",
  "pegiRating",
  "pegiDescriptors",
] as const;
export type ProductFormField = (typeof PRODUCT_FORM_FIELDS)[number];

/** What the form posts: every field a string (missing = empty); several additional image keys. */
export type ProductFormInput = Partial<Record<Exclude<ProductFormField, "additionalImages" | "pegiDescriptors">, string>> & {
  additionalImages?: string | string[];
  pegiDescriptors?: string | string[];
};

export type ProductFormValues = {
  title: string;
  description: string;
  priceCents: number;
  stock: number;
  status: ProductStatus;
  category: MainCategory;
  subCategory: string | null;
  cardType: CardType | null;
  featured: boolean;
  dropTime: Date | null;
  imagePath: string;
  additionalImages: string[];
  series: string | null;
  rarity: Rarity | null;
  condition: Condition | null;
  /** A struck-through former price; shown only when the price history allows it (domain/reference-price). */
  compareAtCents: number | null;
  /** Null: the category's default (domain/shipping defaultWeightGrams). */
  weightGrams: number | null;
  /** Null: the category's default (domain/vat defaultVatRateBp). */
  vatRateBp: FrenchVatRateBp | null;
  vatScheme: VatScheme;
  /** Product safety (GPSR): the brand's profile, and this product's own values (null: the brand's). */
  safetyProfileId: number | null;
  manufacturerName: string | null;
  manufacturerAddress: string | null;
  manufacturerEmail: string | null;
  manufacturerOutsideEu: boolean | null;
  euRepName: string | null;
  euRepAddress: string | null;
  euRepEmail: string | null;
  ean: string | null;
  manufacturerReference: string | null;
  safetyWarnings: string | null;
  labelImagePath: string | null;
  /** Video games only (domain/pegi); null and none elsewhere. */
  pegiRating: PegiAge | null;
  pegiDescriptors: PegiDescriptor[];
};

/** With the purchase price a margin-scheme product's new stock needs (domain/purchase-price-form.ts). */
export type ProductFieldErrors = Partial<Record<ProductFormField | "purchasePrice", string>>;

export const NAME_MAX_LENGTH = 200;
const DESCRIPTION_MAX_LENGTH = 5000;
const SHORT_TEXT_MAX_LENGTH = 100;
export const MANUFACTURER_REFERENCE_MAX_LENGTH = 100;
const MAX_PRICE_CENTS = 100_000_000; // 1 000 000 €
const MAX_STOCK = 1_000_000;
export const MAX_WEIGHT_GRAMS = 100_000;

// ---------------------------------------------------------------------------------------------
// Numbers

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** "12,50", "12.50", "12", "1 299,00 €" → cents; French messages for everything else. */
export function parsePriceCents(text: string, subject = "Le prix"): Parsed<number> {
  const normalised = text.replace(/[\s\u00a0\u202f]/g, "").replace(/€$/, "").replace(",", ".");
  if (normalised === "") return { ok: false, message: `${subject} est obligatoire` };
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(normalised);
  if (!match || (match[2] === "" && !match[3])) return { ok: false, message: `${subject} doit être un nombre` };
  const [, sign, whole = "", fraction = ""] = match;
  if (sign) return { ok: false, message: `${subject} ne peut pas être négatif` };
  if (fraction.length > 2) return { ok: false, message: `${subject} ne peut pas avoir plus de 2 décimales` };
  // String arithmetic: 0.1 + 0.2 never enters a price.
  const cents = Number(whole || "0") * 100 + Number(fraction.padEnd(2, "0"));
  if (cents > MAX_PRICE_CENTS) return { ok: false, message: `${subject} ne peut pas dépasser 1 000 000 €` };
  return { ok: true, value: cents };
}

/** The struck-through former price: empty for none, else euros above 0. */
function parseCompareAt(text: string): Parsed<number | null> {
  if (text === "") return { ok: true, value: null };
  const price = parsePriceCents(text, "Le prix barré");
  if (price.ok && price.value === 0) return { ok: false, message: "Le prix barré doit être supérieur à 0 € (laissez vide pour aucun)" };
  return price;
}

/** Grams, "150" or "150 g"; empty: the category's default. */
export function parseWeightGrams(text: string): Parsed<number | null> {
  const normalised = text.replace(/[\s\u00a0\u202f]/g, "").replace(/g$/i, "").replace(",", ".");
  if (normalised === "") return { ok: true, value: null };
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(normalised)) return { ok: false, message: "Le poids doit être un nombre de grammes" };
  const value = Number(normalised);
  if (value < 0) return { ok: false, message: "Le poids ne peut pas être négatif" };
  if (!Number.isInteger(value)) return { ok: false, message: "Le poids doit être un nombre entier de grammes" };
  if (value > MAX_WEIGHT_GRAMS) return { ok: false, message: "Le poids ne peut pas dépasser 100 000 g" };
  return { ok: true, value };
}

/** "20", "5,5", "5.5 %" → basis points; empty: the category's default. */
export function parseVatRate(text: string): Parsed<FrenchVatRateBp | null> {
  const normalised = text.replace(/[\s\u00a0\u202f]/g, "").replace(/%$/, "").replace(",", ".");
  if (normalised === "") return { ok: true, value: null };
  const bp = /^\d{1,2}(\.\d{1,2})?$/.test(normalised) ? Math.round(Number(normalised) * 100) : NaN;
  return isVatRateBp(bp) ? { ok: true, value: bp } : { ok: false, message: "Taux de TVA inconnu (20, 10, 5,5 ou 2,1 %)" };
}

/** A rate as the form's select and the CSV write it: 550 → "5,5". */
export function vatRateText(rateBp: number | null): string {
  return rateBp === null ? "" : String(rateBp / 100).replace(".", ",");
}

export function parseStock(text: string): Parsed<number> {
  const normalised = text.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
  if (normalised === "") return { ok: false, message: "Le stock est obligatoire" };
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(normalised)) return { ok: false, message: "Le stock doit être un nombre" };
  const value = Number(normalised);
  if (value < 0) return { ok: false, message: "Le stock ne peut pas être négatif" };
  if (!Number.isInteger(value)) return { ok: false, message: "Le stock doit être un nombre entier" };
  if (value > MAX_STOCK) return { ok: false, message: "Le stock ne peut pas dépasser 1 000 000" };
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------
// Launch date: typed as Paris wall time, stored as a UTC instant

/** "2026-12-01" (date input) or "01/12/2026" (French, as a spreadsheet writes it back). */
function parseLaunchDate(text: string): { year: number; month: number; day: number } | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const french = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : french
      ? [Number(french[3]), Number(french[2]), Number(french[1])]
      : [0, 0, 0];
  if (year < 2000 || year > 2100) return null;
  // Date.UTC rolls 31/02 over to March: a real date reads back the same.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** "18:00", "9:05" or "18:00:30" (a drop may open on the second). */
function parseLaunchTime(text: string): { hour: number; minute: number; second: number } | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3] ?? 0);
  return hour < 24 && minute < 60 && second < 60 ? { hour, minute, second } : null;
}

// ---------------------------------------------------------------------------------------------
// The schema

const text = z.string({ error: "Valeur invalide" }).optional().transform((value) => (value ?? "").trim());

const rawForm = z.object({
  name: text,
  description: text,
  price: text,
  stock: text,
  status: text,
  category: text,
  subCategory: text,
  cardType: text,
  featured: text,
  launchDate: text,
  launchTime: text,
  image: text,
  additionalImages: z
    .union([z.string(), z.array(z.string())], { error: "Valeur invalide" })
    .optional()
    .transform((value) => [value ?? []].flat().map((key) => key.trim()).filter(Boolean)),
  series: text,
  rarity: text,
  condition: text,
  compareAt: text,
  weight: text,
  vatRate: text,
  marginScheme: text,
  safetyProfile: text,
  manufacturerName: text,
  manufacturerAddress: text,
  manufacturerEmail: text,
  manufacturerOutsideEu: text,
  euRepName: text,
  euRepAddress: text,
  euRepEmail: text,
  ean: text,
  manufacturerReference: text,
  safetyWarnings: text,
  labelImage: text,
  pegiRating: text,
  pegiDescriptors: z
    .union([z.string(), z.array(z.string())], { error: "Valeur invalide" })
    .optional()
    .transform((value) => [value ?? []].flat()),
});

/** Storage keys ("pokemon_1764000000000_ab12", "seed/display-ev"): no dots, so never a path out. */
const IMAGE_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*$/;
const isImageKey = (key: string) => key.length <= 200 && IMAGE_KEY.test(key);

const TRUE_VALUES = new Set(["on", "true", "1", "oui"]);
const FALSE_VALUES = new Set(["", "off", "false", "0", "non"]);

function oneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** Whether a posted launch is the stored one as shown: to the second, or to the minute when no seconds were given (a CSV). */
const sameLaunch = (posted: Date, stored: Date, withSeconds: boolean) => {
  const unit = withSeconds ? 1_000 : 60_000;
  return Math.floor(posted.getTime() / unit) === Math.floor(stored.getTime() / unit);
};

/**
 * `now` is the server's clock in the action. `currentDropTime` is the edited product's launch:
 * a launch time must be to come, except that one (it has passed once the product dropped, and
 * the form shows it to the minute, so the stored instant is kept). `safetyProfiles`: the brand
 * profiles that exist (the form's select): a posted one must be among them, and its values fill
 * the product's own when the rule below checks a publication.
 *
 * A product goes online (en_ligne) or is scheduled (a_venir) only with complete safety
 * information (GPSR art. 19, domain/safety-profile missingSafetyInformation): else the status
 * (or the launch date) says what is missing.
 */
export function productFormSchema(options: { now: Date; currentDropTime?: Date | null; safetyProfiles: readonly SafetyProfileSummary[] }) {
  return rawForm.transform((raw, ctx): ProductFormValues => {
    let failed = false;
    const fail = (field: ProductFormField, message: string) => {
      failed = true;
      ctx.addIssue({ code: "custom", path: [field], message });
    };

    if (visibleLength(raw.name) === 0) fail("name", "Le nom est obligatoire");
    else if (raw.name.length > NAME_MAX_LENGTH) fail("name", `Le nom ne peut pas dépasser ${NAME_MAX_LENGTH} caractères`);
    else if (hasForbiddenCharacters(raw.name)) fail("name", "Le nom contient des caractères non autorisés");
    if (raw.description === "") fail("description", "La description est obligatoire");
    else if (raw.description.length > DESCRIPTION_MAX_LENGTH) {
      fail("description", `La description ne peut pas dépasser ${DESCRIPTION_MAX_LENGTH} caractères`);
    }

    const price = parsePriceCents(raw.price);
    if (!price.ok) fail("price", price.message);
    const stock = parseStock(raw.stock);
    if (!stock.ok) fail("stock", stock.message);

    let category: MainCategory | null = null;
    if (raw.category === "") fail("category", "La catégorie est obligatoire");
    else if (!oneOf(MAIN_CATEGORIES, raw.category)) fail("category", "Catégorie inconnue");
    else category = raw.category;

    let subCategory: string | null = null;
    if (category === "TCG") {
      if (raw.subCategory === "") fail("subCategory", "La sous-catégorie est obligatoire");
      else if (!oneOf(TCG_SUB_CATEGORIES, raw.subCategory)) fail("subCategory", "Sous-catégorie inconnue");
      else subCategory = raw.subCategory;
    } else if (category !== null && !oneOf(TCG_SUB_CATEGORIES, raw.subCategory) && raw.subCategory !== "") {
      // A TCG sub-category does not survive a move away from TCG; the free labels of the other
      // categories do ("Manga" decides the badge on /entertainment).
      if (raw.subCategory.length > SHORT_TEXT_MAX_LENGTH) fail("subCategory", "Sous-catégorie trop longue");
      else subCategory = raw.subCategory;
    }

    let cardType: CardType | null = null;
    if (category === "TCG" && subCategory === "Cartes" && raw.cardType !== "") {
      if (!oneOf(CARD_TYPES, raw.cardType)) fail("cardType", "Type de carte inconnu");
      else cardType = raw.cardType;
    }

    const featuredText = raw.featured.toLowerCase();
    if (!TRUE_VALUES.has(featuredText) && !FALSE_VALUES.has(featuredText)) fail("featured", "Valeur invalide (oui ou non)");

    let dropTime: Date | null = null;
    if (raw.launchDate === "") {
      if (raw.launchTime !== "") fail("launchTime", "Choisissez d'abord une date de lancement");
    } else {
      const date = parseLaunchDate(raw.launchDate);
      const time = raw.launchTime === "" ? { hour: 0, minute: 0, second: 0 } : parseLaunchTime(raw.launchTime);
      if (!date) fail("launchDate", "Date de lancement invalide");
      if (!time) fail("launchTime", "Heure de lancement invalide");
      if (date && time) {
        dropTime = parisWallTimeToUtc(date.year, date.month, date.day, time.hour, time.minute, time.second);
        const current = options.currentDropTime;
        if (!dropTime) fail("launchTime", "Cette heure n'existe pas ce jour-là (passage à l'heure d'été)");
        else if (current && sameLaunch(dropTime, current, raw.launchTime.split(":").length === 3)) dropTime = current;
        else if (dropTime.getTime() <= options.now.getTime()) fail("launchDate", "La date de lancement doit être dans le futur");
      }
    }

    // A launch still to come makes the product a_venir, whatever the select says; a_venir
    // itself is never chosen by hand (SPEC.md section 4).
    let status: ProductStatus = "en_ligne";
    if (dropTime && dropTime.getTime() > options.now.getTime()) status = "a_venir";
    else if (raw.status !== "" && !oneOf(PRODUCT_STATUSES, raw.status)) fail("status", "Statut inconnu");
    else if (raw.status === "a_venir" && !dropTime) fail("status", "Un produit à venir a besoin d'une date de lancement");
    else if (raw.status !== "") status = raw.status as ProductStatus;

    if (raw.image === "") fail("image", "L'image est obligatoire");
    else if (!isImageKey(raw.image)) fail("image", "Image invalide");
    if (raw.additionalImages.length > MAX_ADDITIONAL_IMAGES) {
      fail("additionalImages", `Nombre maximum d'images atteint (${MAX_ADDITIONAL_IMAGES} images supplémentaires)`);
    } else if (!raw.additionalImages.every(isImageKey)) fail("additionalImages", "Image invalide");

    if (raw.series.length > SHORT_TEXT_MAX_LENGTH) fail("series", "Série trop longue");
    if (raw.rarity !== "" && !oneOf(RARITIES, raw.rarity)) fail("rarity", "Rareté inconnue");
    if (raw.condition !== "" && !oneOf(CONDITIONS, raw.condition)) fail("condition", "État inconnu");

    const compareAt = parseCompareAt(raw.compareAt);
    if (!compareAt.ok) fail("compareAt", compareAt.message);
    const weight = parseWeightGrams(raw.weight);
    if (!weight.ok) fail("weight", weight.message);
    const vatRate = parseVatRate(raw.vatRate);
    if (!vatRate.ok) fail("vatRate", vatRate.message);
    const marginText = raw.marginScheme.toLowerCase();
    if (!TRUE_VALUES.has(marginText) && !FALSE_VALUES.has(marginText)) fail("marginScheme", "Valeur invalide (oui ou non)");

    // Product safety: a brand profile, and the values this product says otherwise.
    let safetyProfileId: number | null = null;
    if (raw.safetyProfile !== "") {
      const id = /^\d{1,9}$/.test(raw.safetyProfile) ? Number(raw.safetyProfile) : 0;
      if (id === 0 || !options.safetyProfiles.some((profile) => profile.id === id)) fail("safetyProfile", "Marque inconnue : choisissez-en une dans la liste");
      else safetyProfileId = id;
    }
    if (raw.manufacturerName.length > MANUFACTURER_NAME_MAX_LENGTH) fail("manufacturerName", `Le nom du fabricant ne peut pas dépasser ${MANUFACTURER_NAME_MAX_LENGTH} caractères`);
    else if (hasForbiddenCharacters(raw.manufacturerName)) fail("manufacturerName", "Le nom du fabricant contient des caractères non autorisés");
    const addressError = checkLines(raw.manufacturerAddress, "L'adresse postale", POSTAL_ADDRESS_MAX_LENGTH);
    if (addressError) fail("manufacturerAddress", addressError);
    const manufacturerEmail = raw.manufacturerEmail.toLowerCase();
    const emailError = manufacturerEmail.length > EMAIL_MAX_LENGTH ? "L'e-mail n'est pas une adresse valide" : checkEmail(manufacturerEmail);
    if (emailError) fail("manufacturerEmail", emailError);
    const outsideEu = raw.manufacturerOutsideEu === "" ? null : parseYesNo(raw.manufacturerOutsideEu);
    if (outsideEu === undefined) fail("manufacturerOutsideEu", "Valeur invalide (oui, non, ou vide pour la valeur de la marque)");
    const repNameError = checkLine(raw.euRepName, "Le nom de la personne responsable", MANUFACTURER_NAME_MAX_LENGTH, false);
    if (repNameError) fail("euRepName", repNameError);
    const repAddressError = checkLines(raw.euRepAddress, "L'adresse postale de la personne responsable", POSTAL_ADDRESS_MAX_LENGTH);
    if (repAddressError) fail("euRepAddress", repAddressError);
    const euRepEmail = raw.euRepEmail.toLowerCase();
    const repEmailError = checkEmail(euRepEmail, "L'e-mail de la personne responsable");
    if (repEmailError) fail("euRepEmail", repEmailError);
    const ean = raw.ean === "" ? null : checkEan(raw.ean);
    if (ean && !ean.ok) fail("ean", ean.message);
    const referenceError = checkLine(raw.manufacturerReference, "La référence du fabricant", MANUFACTURER_REFERENCE_MAX_LENGTH, false);
    if (referenceError) fail("manufacturerReference", referenceError);
    const warningsError = checkLines(raw.safetyWarnings, "Le texte des avertissements", WARNINGS_MAX_LENGTH);
    if (warningsError) fail("safetyWarnings", warningsError);
    if (raw.labelImage !== "" && !isImageKey(raw.labelImage)) fail("labelImage", "Image invalide");

    // PEGI: video games only; another category's values are dropped (as a TCG sub-category is).
    const pegi = takesPegiRating(category, subCategory) ? parsePegi(raw.pegiRating, raw.pegiDescriptors) : { ok: true as const, age: null, descriptors: [] };
    if (!pegi.ok) fail(pegi.field, pegi.message);

    if (failed || !price.ok || !stock.ok || !category || !compareAt.ok || !weight.ok || !vatRate.ok || !pegi.ok) return z.NEVER;
    const lines = (value: string) => value.replace(/\r\n?/g, "\n") || null;
    const values: ProductFormValues = {
      title: raw.name,
      description: raw.description,
      priceCents: price.value,
      stock: stock.value,
      status,
      category,
      subCategory,
      cardType,
      featured: TRUE_VALUES.has(featuredText),
      dropTime,
      imagePath: raw.image,
      additionalImages: raw.additionalImages,
      series: raw.series || null,
      rarity: (raw.rarity || null) as Rarity | null,
      condition: (raw.condition || null) as Condition | null,
      compareAtCents: compareAt.value,
      weightGrams: weight.value,
      vatRateBp: vatRate.value,
      vatScheme: TRUE_VALUES.has(marginText) ? "margin" : "normal",
      safetyProfileId,
      manufacturerName: raw.manufacturerName || null,
      manufacturerAddress: lines(raw.manufacturerAddress),
      manufacturerEmail: manufacturerEmail || null,
      manufacturerOutsideEu: outsideEu ?? null,
      euRepName: raw.euRepName || null,
      euRepAddress: lines(raw.euRepAddress),
      euRepEmail: euRepEmail || null,
      ean: ean?.ok ? ean.value : null,
      manufacturerReference: raw.manufacturerReference || null,
      safetyWarnings: lines(raw.safetyWarnings),
      labelImagePath: raw.labelImage || null,
      pegiRating: pegi.age,
      pegiDescriptors: pegi.descriptors,
    };
    if (status !== "hors_ligne") {
      const profile = options.safetyProfiles.find((candidate) => candidate.id === safetyProfileId) ?? null;
      const missing = missingSafetyInformation(productSafety(values, profile));
      if (missing.length > 0) {
        ctx.addIssue({ code: "custom", path: [dropTime ? "launchDate" : "status"], message: safetyPublicationRefusal(missing) });
        return z.NEVER;
      }
    }
    return values;
  });
}

/**
 * The safety information a form's input would publish (its own values, else its brand's), for
 * the form to list what is missing while the seller types: missingSafetyInformation of this is
 * what the schema refuses a publication for.
 */
export function safetyOfInput(input: ProductFormInput, profiles: readonly SafetyProfileSummary[]): ProductSafety {
  const profile = profiles.find((candidate) => String(candidate.id) === input.safetyProfile) ?? null;
  const outsideEu = parseYesNo(input.manufacturerOutsideEu ?? "");
  const ean = input.ean?.trim() ? checkEan(input.ean) : null;
  return productSafety(
    {
      manufacturerName: input.manufacturerName,
      manufacturerAddress: input.manufacturerAddress,
      manufacturerEmail: input.manufacturerEmail,
      manufacturerOutsideEu: input.manufacturerOutsideEu?.trim() ? (outsideEu ?? null) : null,
      euRepName: input.euRepName,
      euRepAddress: input.euRepAddress,
      euRepEmail: input.euRepEmail,
      ean: ean?.ok ? ean.value : null,
      manufacturerReference: input.manufacturerReference,
      safetyWarnings: input.safetyWarnings,
      labelImagePath: input.labelImage,
    },
    profile,
  );
}

/** The first message of each field, for the form to show beside it. */
export function productFieldErrors(error: z.ZodError): ProductFieldErrors {
  const errors: ProductFieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === "string" && oneOf(PRODUCT_FORM_FIELDS, field)) errors[field] ??= issue.message;
  }
  return errors;
}

/** The form's FormData as the schema reads it (the additional images come as several entries). */
export function productFormInput(form: FormData): ProductFormInput {
  const input: ProductFormInput = {};
  for (const field of PRODUCT_FORM_FIELDS) {
    if (field === "additionalImages" || field === "pegiDescriptors") continue;
    const value = form.get(field);
    if (typeof value === "string") input[field] = value;
  }
  input.additionalImages = form.getAll("additionalImages").filter((value): value is string => typeof value === "string");
  input.pegiDescriptors = form.getAll("pegiDescriptors").filter((value): value is string => typeof value === "string");
  return input;
}

/** A products row as far as the form goes (the table types rarity, condition and the VAT rate loosely). */
type StoredProduct = Omit<ProductFormValues, "imagePath" | "rarity" | "condition" | "vatRateBp" | "pegiRating" | "pegiDescriptors"> & {
  imagePath: string | null;
  rarity: string | null;
  condition: string | null;
  vatRateBp: number | null;
  pegiRating: number | null;
  pegiDescriptors: string[];
};

/** A stored product as form input: the edit form's initial values and the CSV export's cells. */
export function productFormInputOf(product: StoredProduct): Required<ProductFormInput> {
  const launch = product.dropTime ? parisWallTime(product.dropTime) : { date: "", time: "" };
  return {
    name: product.title,
    description: product.description,
    // As the seller types it (the form's hint: "Par exemple 12,50") and French Excel reads it.
    price: centsToFrenchDecimal(product.priceCents),
    stock: String(product.stock),
    status: product.status,
    category: product.category,
    subCategory: product.subCategory ?? "",
    cardType: product.cardType ?? "",
    featured: product.featured ? "on" : "",
    launchDate: launch.date,
    launchTime: launch.time,
    image: product.imagePath ?? "",
    additionalImages: [...product.additionalImages],
    series: product.series ?? "",
    rarity: product.rarity ?? "",
    condition: product.condition ?? "",
    compareAt: product.compareAtCents === null ? "" : centsToFrenchDecimal(product.compareAtCents),
    weight: product.weightGrams === null ? "" : String(product.weightGrams),
    vatRate: vatRateText(product.vatRateBp),
    marginScheme: product.vatScheme === "margin" ? "on" : "",
    safetyProfile: product.safetyProfileId === null ? "" : String(product.safetyProfileId),
    manufacturerName: product.manufacturerName ?? "",
    manufacturerAddress: product.manufacturerAddress ?? "",
    manufacturerEmail: product.manufacturerEmail ?? "",
    manufacturerOutsideEu: product.manufacturerOutsideEu === null ? "" : product.manufacturerOutsideEu ? "oui" : "non",
    euRepName: product.euRepName ?? "",
    euRepAddress: product.euRepAddress ?? "",
    euRepEmail: product.euRepEmail ?? "",
    ean: product.ean ?? "",
    manufacturerReference: product.manufacturerReference ?? "",
    safetyWarnings: product.safetyWarnings ?? "",
    labelImage: product.labelImagePath ?? "",
    pegiRating: product.pegiRating === null ? "" : String(product.pegiRating),
    pegiDescriptors: [...product.pegiDescriptors],
  };
}

/**
 * The stock now, moved by what the seller changed in the edit form (the value typed minus the one
 * it showed): units sold while it was open stay sold. Never below 0.
 */
export function stockFromForm(stockNow: number, typed: number, seen: number): number {
  return Math.max(0, stockNow + typed - seen);
}
