/** Search normalisation: lower case, accents folded, spaces collapsed ("Écarlate" → "ecarlate"). */
export function normalizeSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/\s+/g, " ")
    .trim();
}

type Searchable = { title: string; series?: string | null; description?: string | null };

/** The stored search column of a product: name, series and description, normalised. */
export function productSearchText(p: Searchable): string {
  return normalizeSearch([p.title, p.series ?? "", p.description ?? ""].join(" "));
}

/**
 * Every derived search column of a product, written together on each insert or update:
 * full text (catalogue search), name (header suggestions, name sort) and series (card search).
 */
export function productSearchColumns(p: Searchable): { searchText: string; nameSearch: string; seriesSearch: string } {
  return {
    searchText: productSearchText(p),
    nameSearch: normalizeSearch(p.title),
    seriesSearch: normalizeSearch(p.series ?? ""),
  };
}

/** Escapes LIKE wildcards so a customer's "%" or "_" matches itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A search uses at most this many words: more would only cost (each is a condition). */
export const SEARCH_MAX_WORDS = 8;

/** The words of a typed search, normalised; none for blank text. */
export function searchWords(text: string): string[] {
  return normalizeSearch(text).split(" ").filter(Boolean).slice(0, SEARCH_MAX_WORDS);
}

/**
 * Typo tolerance: a typed word also stands for the catalogue's words this close to it, by
 * pg_trgm similarity (shared trigrams). Measured on the catalogue's names: the typos to catch
 * score 0.46 ("dracofeu"/"dracaufeu"), 0.55 ("pikatchu"/"pikachu"), 0.5 to 0.75 for one wrong,
 * missing or extra letter; other real names score lower ("pikachu"/"pichu" 0.40,
 * "dracaufeu"/"dracolosse" 0.24). Swapped letters ("dispaly" 0.33) are not caught: a lower
 * threshold would bring those other names in.
 */
export const FUZZY_WORD_SIMILARITY = 0.45;

/** At most this many close words per typed word, the closest (the search ORs them). */
export const FUZZY_WORDS_PER_WORD = 5;

/**
 * Words shorter than this match only as typed: one wrong letter changes most of a short word's
 * trigrams, so what is "close" to it is mostly other words. The catalogue's word list
 * (search_words, migration 0009) keeps words of this length or more.
 */
export const FUZZY_MIN_LETTERS = 4;

/** Whether a search word may also stand for close words (enough letters or digits, one letter). */
export function isFuzzyWord(word: string): boolean {
  return (word.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= FUZZY_MIN_LETTERS && /\p{L}/u.test(word);
}
