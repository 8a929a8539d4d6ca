/**
 * PEGI (Pan European Game Information), the age rating printed on video games sold in France:
 * one of five ages and the content descriptors the publisher's rating gives. The seller copies
 * both from the game's box; the product page shows them (components/product/pegi-rating).
 * Pure: the product form, the CSV and the page read these rules.
 */

export const PEGI_AGES = [3, 7, 12, 16, 18] as const;
export type PegiAge = (typeof PEGI_AGES)[number];

/** The descriptors, in PEGI's French wording. */
export const PEGI_DESCRIPTORS = ["violence", "langage_grossier", "peur", "jeux_de_hasard", "sexe", "drogue", "discrimination", "achats_integres"] as const;
export type PegiDescriptor = (typeof PEGI_DESCRIPTORS)[number];

export const PEGI_DESCRIPTOR_LABELS: Record<PegiDescriptor, string> = {
  violence: "Violence",
  langage_grossier: "Langage grossier",
  peur: "Peur",
  jeux_de_hasard: "Jeux de hasard",
  sexe: "Sexe",
  drogue: "Drogue",
  discrimination: "Discrimination",
  achats_integres: "Achats intégrés",
};

export const isPegiAge = (value: number): value is PegiAge => (PEGI_AGES as readonly number[]).includes(value);

/** Only video games carry a PEGI rating (the form shows the field for them alone). */
export function takesPegiRating(category: string | null, subCategory: string | null): boolean {
  return category === "Gaming & Mangas" && subCategory === "Jeux Vidéo";
}

export type PegiParse = { ok: true; age: PegiAge | null; descriptors: PegiDescriptor[] } | { ok: false; field: "pegiRating" | "pegiDescriptors"; message: string };

/**
 * The rating as typed ("12", "PEGI 12", empty for none) and the descriptors, as the form's
 * checkboxes post them or a CSV cell lists them ("violence|peur", French labels accepted).
 * Descriptors without an age are refused: they describe a rating.
 */
export function parsePegi(ratingText: string, descriptorTexts: readonly string[]): PegiParse {
  const rating = ratingText.trim().replace(/^pegi\s*/i, "");
  let age: PegiAge | null = null;
  if (rating !== "") {
    const value = /^\d{1,2}$/.test(rating) ? Number(rating) : NaN;
    if (!isPegiAge(value)) return { ok: false, field: "pegiRating", message: "Classification PEGI inconnue (3, 7, 12, 16 ou 18)" };
    age = value;
  }
  const descriptors: PegiDescriptor[] = [];
  for (const text of descriptorTexts.map((value) => value.trim()).filter(Boolean)) {
    const key = text.toLowerCase();
    const descriptor = PEGI_DESCRIPTORS.find((candidate) => candidate === key || PEGI_DESCRIPTOR_LABELS[candidate].toLowerCase() === key);
    if (!descriptor) return { ok: false, field: "pegiDescriptors", message: `Descripteur PEGI inconnu « ${text} »` };
    if (!descriptors.includes(descriptor)) descriptors.push(descriptor);
  }
  if (descriptors.length > 0 && age === null) return { ok: false, field: "pegiDescriptors", message: "Choisissez d'abord l'âge PEGI des descripteurs" };
  // PEGI's order, whatever the order typed: the page and the CSV always read the same.
  return { ok: true, age, descriptors: PEGI_DESCRIPTORS.filter((descriptor) => descriptors.includes(descriptor)) };
}

/** PEGI's colour code: green for 3 and 7, amber for 12 and 16, red for 18. */
export function pegiTone(age: PegiAge): "green" | "amber" | "red" {
  return age <= 7 ? "green" : age <= 16 ? "amber" : "red";
}
