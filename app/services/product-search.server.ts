// The public searches' words (header suggestions and /catalog?q=, catalog.server.ts), typo-
// tolerant: a typed word matches where it appears, or where a catalogue word close to it does
// ("dracofeu" finds "Dracaufeu"). The close words come from the small search_words table by
// trigram similarity, so the products are only ever searched with LIKE, which their trigram
// indexes serve (migration 0009); comparing the typed word with every product's text instead
// costs about 10 µs a row (measured: 100 ms on PGlite for 10,000 products).
import { and, asc, type Column, desc, eq, gte, like, or, sql, type SQL } from "drizzle-orm";
import { products, searchWords as searchWordsTable } from "~/db/schema";
import type { Db } from "~/db/types";
import { escapeLike, FUZZY_WORD_SIMILARITY, FUZZY_WORDS_PER_WORD, isFuzzyWord, searchWords } from "~/domain/search";

/** A typed word, and the catalogue's words close to it that do not contain it, closest first. */
export type SearchTerm = { word: string; near: { word: string; similarity: number }[] };

/** The column holds the word, accents and case folded like the column (domain/search). */
export const contains = (column: Column, word: string): SQL => like(column, `%${escapeLike(word)}%`);

/**
 * The words of a search and the catalogue's words close to each (those of 4 letters or more).
 * `%` lets the word list's index narrow the rows at pg_trgm's default threshold (0.3), then
 * the similarity must reach FUZZY_WORD_SIMILARITY.
 */
export async function searchTerms(db: Db, text: string): Promise<SearchTerm[]> {
  const { word: candidate } = searchWordsTable;
  return Promise.all(
    searchWords(text).map(async (word) => {
      if (!isFuzzyWord(word)) return { word, near: [] };
      const similarity = sql<number>`similarity(${candidate}, ${word}::text)`.mapWith(Number);
      const near = await db
        .select({ word: candidate, similarity })
        .from(searchWordsTable)
        .where(and(sql`${candidate} % ${word}::text`, gte(similarity, FUZZY_WORD_SIMILARITY), sql`strpos(${candidate}, ${word}::text) = 0`))
        .orderBy(desc(similarity), asc(candidate))
        .limit(FUZZY_WORDS_PER_WORD);
      return { word, near };
    }),
  );
}

/** Every term is in the column, as typed or as a close word; undefined when there is none. */
export function allTermsIn(column: Column, terms: SearchTerm[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  return and(...terms.map((term) => or(contains(column, term.word), ...term.near.map((near) => contains(column, near.word)))));
}

/**
 * Search results, best first: the name is the text typed, then starts with it, then holds every
 * word typed, then the column (with the description) does; then the same with the closest
 * words in place of the typed ones (the name is "pikachu" for "pikatchu", then starts with it);
 * last the other matches through close words, the closest in the name first, then in the
 * column (summed similarity). Ties are left to the caller's order.
 */
export function relevanceOrder(column: Column, terms: SearchTerm[]): SQL[] {
  const name = products.nameSearch;
  const text = terms.map((term) => term.word).join(" ");
  const corrected = terms.map((term) => term.near[0]?.word ?? term.word).join(" ");
  const exactly = (col: Column) => and(...terms.map((term) => contains(col, term.word)))!;
  const tiers = [
    eq(name, text),
    like(name, `${escapeLike(text)}%`),
    exactly(name),
    ...(column === name ? [] : [exactly(column)]),
    ...(corrected === text ? [] : [eq(name, corrected), like(name, `${escapeLike(corrected)}%`)]),
  ];
  const tier = sql`case ${sql.join(
    tiers.map((condition, i) => sql`when ${condition} then ${sql.raw(String(i))}`),
    sql` `,
  )} else ${sql.raw(String(tiers.length))} end`;
  const closeness = (col: Column) =>
    sql.join(
      terms.map(
        (term) =>
          sql`case when ${contains(col, term.word)} then 1::real ${sql.join(
            term.near.map((near) => sql`when ${contains(col, near.word)} then ${near.similarity}::real`),
            sql` `,
          )} else 0::real end`,
      ),
      sql` + `,
    );
  const byName = desc(closeness(name));
  return column === name ? [asc(tier), byName] : [asc(tier), byName, desc(closeness(column))];
}
