import { z } from "zod";
import { formatEuros, parseEurosToCents } from "./money";
import { countOf, groupThousands } from "./numbers";
import { bandFor, formatWeight, type ShippingMethodRule } from "./shipping";
import { SHIPPING_COUNTRIES, SHIPPING_COUNTRY_CODES, type ShippingCountry, countryName } from "./shipping-countries";
import { SHIPPING_KINDS, type ShippingBand, type ShippingKind } from "./shipping-method";
import { hasForbiddenCharacters, visibleLength } from "./text-rules";

/**
 * The form of /admin/shipping: one schema for the browser and the action. What it reads is the
 * form as posted (Object.fromEntries of its FormData): one checkbox per country
 * (`country.FR`: "on") and one set of three inputs per price band (`bands.<n>.upTo`,
 * `bands.<n>.from`, `bands.<n>.price`, <n> any number, rows read in its order), so a row the
 * seller removed leaves no gap to fill. An error on a band names its input ("bands.3.price"),
 * for the form to show it beside it and focus it. Ships to the browser (zod).
 */

export const NAME_MIN = 2;
export const NAME_MAX = 80;
export const DELIVERY_TIME_MAX = 80;
export const MAX_BANDS = 20;
/** 100 kg: the heaviest product weight the catalogue takes (products_weight_range). */
export const MAX_WEIGHT_GRAMS = 100_000;
const MAX_PRICE_CENTS = 1_000_000; // 10 000 €
const MAX_SUBTOTAL_CENTS = 10_000_000; // 100 000 €

export type ShippingMethodFormValues = {
  name: string;
  kind: ShippingKind;
  /** In SHIPPING_COUNTRIES' order (France first). */
  countries: ShippingCountry[];
  /** Lightest first, then the lowest subtotal floor ("no limit" last). */
  bands: ShippingBand[];
  freeFromCents: number | null;
  deliveryTime: string;
  active: boolean;
};

/** A band row as the form holds it (text as typed). */
export type BandRowInput = { upTo: string; from: string; price: string };

export const countryField = (code: string) => `country.${code}`;
export const bandField = (row: number | string, part: keyof BandRowInput) => `bands.${row}.${part}`;

const BAND_FIELD = /^bands\.(\d{1,6})\.(upTo|from|price)$/;
const COUNTRY_FIELD = /^country\.(.+)$/;
const TRUE_VALUES = new Set(["on", "true", "1"]);
const SPACES = /[\s\u00a0\u202f]/g;

type Fail = (field: string, message: string) => void;

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** "1 000", "500 g", "1000g": whole grams, or null (not a weight). */
function parseGrams(input: string): number | null {
  const normalised = input.replace(SPACES, "").replace(/g$/i, "");
  if (!/^\d+$/.test(normalised)) return null;
  return Number(normalised);
}

/** The band rows in the order their numbers give, whatever order the fields came in. */
function bandRows(raw: Record<string, unknown>): { row: string; input: BandRowInput }[] {
  const rows = new Map<number, BandRowInput>();
  for (const [key, value] of Object.entries(raw)) {
    const match = BAND_FIELD.exec(key);
    if (!match) continue;
    const n = Number(match[1]);
    const row = rows.get(n) ?? { upTo: "", from: "", price: "" };
    row[match[2] as keyof BandRowInput] = text(value);
    rows.set(n, row);
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([n, input]) => ({ row: String(n), input }));
}

function parseBand(row: string, input: BandRowInput, fail: Fail): ShippingBand | null {
  let ok = true;
  let upToGrams: number | null = null;
  if (input.upTo !== "") {
    upToGrams = parseGrams(input.upTo);
    if (upToGrams === null || upToGrams < 1 || upToGrams > MAX_WEIGHT_GRAMS) {
      fail(bandField(row, "upTo"), `Indiquez un poids en grammes, de 1 à ${groupThousands(MAX_WEIGHT_GRAMS)}, ou laissez vide pour ne pas limiter.`);
      ok = false;
    }
  }
  let fromSubtotalCents = 0;
  if (input.from !== "") {
    const cents = parseEurosToCents(input.from);
    if (cents === null || cents > MAX_SUBTOTAL_CENTS) {
      fail(bandField(row, "from"), "Indiquez un montant en euros, par exemple 0 ou 49,90.");
      ok = false;
    } else fromSubtotalCents = cents;
  }
  let priceCents = 0;
  if (input.price === "") {
    fail(bandField(row, "price"), "Indiquez le prix de cette tranche (0 pour la rendre gratuite).");
    ok = false;
  } else {
    const cents = parseEurosToCents(input.price);
    if (cents === null) {
      fail(bandField(row, "price"), "Indiquez un prix en euros, par exemple 4,99.");
      ok = false;
    } else if (cents > MAX_PRICE_CENTS) {
      fail(bandField(row, "price"), `Le prix ne peut pas dépasser ${formatEuros(MAX_PRICE_CENTS)}.`);
      ok = false;
    } else priceCents = cents;
  }
  return ok ? { upToGrams, fromSubtotalCents, priceCents } : null;
}

function parseBands(raw: Record<string, unknown>, fail: Fail): ShippingBand[] {
  // A row left entirely empty (added, then not filled) is no band.
  const rows = bandRows(raw).filter(({ input }) => input.upTo !== "" || input.from !== "" || input.price !== "");
  if (rows.length === 0) {
    fail("bands", "Ajoutez au moins une tranche de prix.");
    return [];
  }
  if (rows.length > MAX_BANDS) {
    fail("bands", `${MAX_BANDS} tranches de prix au plus.`);
    return [];
  }
  const bands: ShippingBand[] = [];
  const seen = new Set<string>();
  for (const { row, input } of rows) {
    const band = parseBand(row, input, fail);
    if (!band) continue;
    const key = `${band.upToGrams ?? "∞"}/${band.fromSubtotalCents}`;
    if (seen.has(key)) {
      fail(
        bandField(row, "upTo"),
        `Une autre tranche a déjà ce poids maximal (${band.upToGrams === null ? "sans limite" : formatWeight(band.upToGrams)}) et ce minimum d'achat (${formatEuros(band.fromSubtotalCents)})\u00a0: changez l'un des deux ou supprimez cette ligne.`,
      );
      continue;
    }
    seen.add(key);
    bands.push(band);
  }
  return bands.sort(compareBands);
}

function compareBands(a: ShippingBand, b: ShippingBand): number {
  return (a.upToGrams ?? Infinity) - (b.upToGrams ?? Infinity) || a.fromSubtotalCents - b.fromSubtotalCents;
}

function parseCountries(raw: Record<string, unknown>, fail: Fail): ShippingCountry[] {
  const chosen = new Set<string>();
  for (const [key, value] of Object.entries(raw)) {
    const match = COUNTRY_FIELD.exec(key);
    if (match && TRUE_VALUES.has(text(value).toLowerCase())) chosen.add(match[1]!);
  }
  const unknown = [...chosen].filter((code) => !(SHIPPING_COUNTRY_CODES as readonly string[]).includes(code));
  if (unknown.length > 0) {
    fail("countries", `La boutique ne livre pas ce pays\u00a0: ${unknown.join(", ")}.`);
    return [];
  }
  if (chosen.size === 0) fail("countries", "Choisissez au moins un pays de livraison.");
  return SHIPPING_COUNTRY_CODES.filter((code) => chosen.has(code));
}

/** The whole form: strings in (as posted), values ready for shipping_methods out. */
export const shippingMethodFormSchema = z.record(z.string(), z.unknown()).transform((raw, ctx): ShippingMethodFormValues => {
  let failed = false;
  const fail: Fail = (field, message) => {
    failed = true;
    ctx.addIssue({ code: "custom", path: [field], message });
  };

  const name = text(raw.name);
  if (name === "") fail("name", "Le nom est obligatoire.");
  else if (hasForbiddenCharacters(name)) fail("name", "Le nom contient un caractère non autorisé.");
  else if (visibleLength(name) < NAME_MIN || name.length > NAME_MAX) fail("name", `Le nom doit faire de ${NAME_MIN} à ${NAME_MAX} caractères.`);

  const kindText = text(raw.kind);
  const kind = (SHIPPING_KINDS as readonly string[]).includes(kindText) ? (kindText as ShippingKind) : null;
  if (!kind) fail("kind", "Choisissez le type de livraison.");

  const countries = parseCountries(raw, fail);
  const bands = parseBands(raw, fail);

  let freeFromCents: number | null = null;
  const freeFrom = text(raw.freeFrom);
  if (freeFrom !== "") {
    const cents = parseEurosToCents(freeFrom);
    if (cents === null || cents > MAX_SUBTOTAL_CENTS) fail("freeFrom", "Indiquez un montant en euros, par exemple 60 ou 49,90, ou laissez vide.");
    else freeFromCents = cents;
  }

  const deliveryTime = text(raw.deliveryTime);
  if (hasForbiddenCharacters(deliveryTime)) fail("deliveryTime", "Le délai contient un caractère non autorisé.");
  else if (deliveryTime.length > DELIVERY_TIME_MAX) fail("deliveryTime", `Le délai fait ${DELIVERY_TIME_MAX} caractères au plus.`);

  if (failed || !kind) return z.NEVER;
  return { name, kind, countries, bands, freeFromCents, deliveryTime, active: TRUE_VALUES.has(text(raw.active).toLowerCase()) };
});

export type ShippingMethodFormInput = Record<string, string>;

// ---------------------------------------------------------------------------------------------
// The form's starting values (the inverse of the schema)

/** 1050 → "10,50", 1000 → "10" (as a person types it). */
export function euroInput(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`;
}

export type ShippingMethodFormDefaults = {
  name: string;
  kind: ShippingKind;
  countries: ShippingCountry[];
  bands: BandRowInput[];
  freeFrom: string;
  deliveryTime: string;
  active: boolean;
};

type StoredMethod = Omit<ShippingMethodRule, "id"> & { active: boolean };

/** A stored method as the form shows it again; a new one starts in France with one empty band. */
export function shippingMethodFormDefaults(method: StoredMethod | null): ShippingMethodFormDefaults {
  if (!method) {
    return { name: "", kind: "home", countries: ["FR"], bands: [{ upTo: "", from: "", price: "" }], freeFrom: "", deliveryTime: "", active: true };
  }
  return {
    name: method.name,
    kind: method.kind,
    countries: SHIPPING_COUNTRY_CODES.filter((code) => method.countries.includes(code)),
    bands: method.bands.map((band) => ({
      upTo: band.upToGrams === null ? "" : String(band.upToGrams),
      from: band.fromSubtotalCents > 0 ? euroInput(band.fromSubtotalCents) : "",
      price: euroInput(band.priceCents),
    })),
    freeFrom: method.freeFromCents === null ? "" : euroInput(method.freeFromCents),
    deliveryTime: method.deliveryTime,
    active: method.active,
  };
}

/** The defaults as the form posts them (for tests and scripts: what a browser would send). */
export function shippingMethodFormEntries(values: ShippingMethodFormDefaults): ShippingMethodFormInput {
  const entries: ShippingMethodFormInput = { name: values.name, kind: values.kind, freeFrom: values.freeFrom, deliveryTime: values.deliveryTime };
  if (values.active) entries.active = "on";
  for (const code of values.countries) entries[countryField(code)] = "on";
  values.bands.forEach((band, row) => {
    entries[bandField(row, "upTo")] = band.upTo;
    entries[bandField(row, "from")] = band.from;
    entries[bandField(row, "price")] = band.price;
  });
  return entries;
}

// ---------------------------------------------------------------------------------------------
// The list's words

/** The EU countries besides France (the shop's list after France). */
const EU_OUTSIDE_FRANCE = SHIPPING_COUNTRY_CODES.filter((code) => code !== "FR");

/**
 * Where a method goes, in a few words: "France", "26 pays de l'UE", "France et l'UE (27 pays)",
 * "France, Belgique" or "France et 4 autres pays"; `others`: the names the summary leaves out
 * when there are few enough to read (for a second line).
 */
export function countriesSummary(countries: readonly string[]): { label: string; others: string | null } {
  const set = new Set(countries);
  const hasFrance = set.has("FR");
  const abroad = EU_OUTSIDE_FRANCE.filter((code) => set.has(code));
  if (abroad.length === EU_OUTSIDE_FRANCE.length) {
    return { label: hasFrance ? `France et l'UE (${SHIPPING_COUNTRIES.length} pays)` : `${abroad.length} pays de l'UE`, others: null };
  }
  const names = [...(hasFrance ? ["France"] : []), ...abroad.map(countryName)];
  if (names.length <= 2) return { label: names.join(", ") || "Aucun pays", others: null };
  const others = abroad.length <= 8 ? abroad.map(countryName).join(", ") : null;
  if (hasFrance) return { label: `France et ${countOf(abroad.length, "autre pays", "autres pays")}`, others };
  return { label: `${abroad.length} pays de l'UE`, others };
}

/** "3,99 € à 8,99 €" (or one price), and what the bands cover: "4 tranches, jusqu'à 10 kg". */
export function bandsSummary(bands: readonly ShippingBand[]): { prices: string; detail: string } {
  if (bands.length === 0) return { prices: "—", detail: "Aucune tranche" };
  const prices = bands.map((band) => band.priceCents);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const heaviest = bands.some((band) => band.upToGrams === null) ? null : Math.max(...bands.map((band) => band.upToGrams ?? 0));
  return {
    prices: low === high ? formatEuros(low) : `${formatEuros(low)} à ${formatEuros(high)}`,
    detail: `${countOf(bands.length, "tranche")}, ${heaviest === null ? "sans limite de poids" : `jusqu'à ${formatWeight(heaviest)}`}`,
  };
}

/** "dès 60,00 €", or "Jamais". */
export function freeFromLabel(freeFromCents: number | null): string {
  return freeFromCents === null ? "Jamais" : `dès ${formatEuros(freeFromCents)}`;
}

// ---------------------------------------------------------------------------------------------
// The form's example

export type SampleCart = { weightGrams: number; goodsCents: number };
export const SAMPLE_CART: SampleCart = { weightGrams: 500, goodsCents: 3000 };

/** 3000 → "30 €", 2990 → "29,90 €": a sum as the seller says it. */
function shortEuros(cents: number): string {
  return cents % 100 === 0 ? `${groupThousands(cents / 100)}\u00a0€` : formatEuros(cents);
}

/**
 * What the method being edited costs for a sample cart, in the seller's words: "Exemple : un
 * panier de 500 g à 30 € → 3,99 €" (or "offert", or why it cannot carry it). Country aside.
 */
export function shippingExample(method: Pick<ShippingMethodFormValues, "bands" | "freeFromCents">, cart: SampleCart = SAMPLE_CART): string {
  const start = `Exemple\u00a0: un panier de ${formatWeight(cart.weightGrams)} à ${shortEuros(cart.goodsCents)} →`;
  if (method.freeFromCents !== null && cart.goodsCents >= method.freeFromCents && bandFor(method.bands, cart.weightGrams, cart.goodsCents)) {
    return `${start} offert (dès ${shortEuros(method.freeFromCents)})`;
  }
  const band = bandFor(method.bands, cart.weightGrams, cart.goodsCents);
  if (!band) return `${start} non proposé (aucune tranche pour ce poids et ce montant)`;
  return `${start} ${formatEuros(band.priceCents)}`;
}

/**
 * The example for the form as it stands (its FormData's entries), whatever the other fields
 * hold: null while a band or the threshold cannot be read, or there is no band yet.
 */
export function shippingExampleOf(raw: Record<string, unknown>, cart: SampleCart = SAMPLE_CART): string | null {
  let failed = false;
  const fail: Fail = () => {
    failed = true;
  };
  const bands = parseBands(raw, fail);
  const freeFrom = text(raw.freeFrom);
  const freeFromCents = freeFrom === "" ? null : parseEurosToCents(freeFrom);
  if (failed || (freeFrom !== "" && freeFromCents === null)) return null;
  return shippingExample({ bands, freeFromCents }, cart);
}
