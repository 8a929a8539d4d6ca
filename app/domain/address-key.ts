import type { ShippingAddress } from "./order-view";

/**
 * A drop's limit per delivery address (issue 39) counts the paid orders sent to one place,
 * whatever e-mail they used: one place must give one key however it is spelled. What a
 * determined buyer can still vary is in docs/security.md ("Drops").
 */

/**
 * First in every key: a key of another version was made by earlier rules, and is made again
 * from its order's stored address before it is compared (services/drop-limits.server.ts).
 */
export const ADDRESS_KEY_VERSION = "v2";

/** Common French abbreviations of a street's kind (and of Saint), as their full word. */
const WORDS: Record<string, string> = {
  r: "rue",
  av: "avenue",
  ave: "avenue",
  bd: "boulevard",
  bld: "boulevard",
  blvd: "boulevard",
  boul: "boulevard",
  pl: "place",
  chem: "chemin",
  ch: "chemin",
  imp: "impasse",
  rte: "route",
  fbg: "faubourg",
  st: "saint",
  ste: "sainte",
};

/** Articles, left out or kept at will ("12 r. Paix", "12 rue de la Paix"). */
const ARTICLES = new Set(["de", "du", "des", "d", "la", "le", "les", "l"]);

/**
 * The suffixes of a house number: 12bis, 12 ter, 12b are folded into 12. A bis is another door,
 * sometimes another building, of the same number; its households then share one count, as the
 * flats of one building do.
 */
const NUMBER_SUFFIX = "(?:bis|ter|quater|b|t|q)";
const GLUED_SUFFIX = new RegExp(`^(\\d+)${NUMBER_SUFFIX}$`);
const LONE_SUFFIX = new RegExp(`^${NUMBER_SUFFIX}$`);

/** Lower case, no accents, punctuation and runs of spaces as one space. */
export function folded(text: string | undefined): string {
  return (text ?? "")
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The street line's words, folded: abbreviations spelled out, articles and number suffixes left out. */
function streetKey(line: string): string {
  const words = folded(line)
    .split(" ")
    .map((word) => GLUED_SUFFIX.exec(word)?.[1] ?? word);
  return words
    .filter((word, i) => !ARTICLES.has(word) && !(LONE_SUFFIX.test(word) && /^\d+$/.test(words[i - 1] ?? "")))
    .map((word) => WORDS[word] ?? word)
    .join(" ");
}

/**
 * One delivery place, one key: the country, the postal code and the street line, folded. The
 * second line (a flat, a building, "chez …") and the recipient's name are left out: they change
 * nothing about where the parcel goes. A relay point is the carrier's identifier of the point,
 * whoever collects there (only a point given without one, on an older order, is keyed by its
 * name and postal code).
 */
export function addressKey(address: ShippingAddress): string {
  const country = address.country.trim().toUpperCase();
  const postalCode = folded(address.postalCode).replaceAll(" ", "");
  if (address.method === "relay") {
    const id = folded(address.relayPointId).replaceAll(" ", "");
    return [ADDRESS_KEY_VERSION, country, "relais", ...(id ? [id] : [postalCode, folded(address.relayPointName)])].join("|");
  }
  return [ADDRESS_KEY_VERSION, country, postalCode, streetKey(address.line1)].join("|");
}
