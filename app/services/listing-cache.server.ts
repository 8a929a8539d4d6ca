import { LRUCache } from "lru-cache";
import type { Db } from "~/db/types";
import type { CatalogChange } from "~/domain/catalog-change";
import { processShared } from "~/lib/process-shared";

/** What a listing read keeps: its rows (each with its product's id and stock) and their count. */
export type ListingRead<Row extends { id: number; stock: number }> = { rows: Row[]; total: number; page: number };

/** A read under way (`value` not yet there), or done. */
type Entry = { read: Promise<ListingRead<{ id: number; stock: number }>>; value?: ListingRead<{ id: number; stock: number }>; expiresAt: number };

/**
 * The public listings' reads (one page of products and their count, by filter, sort and page),
 * kept in memory between catalogue changes, for a database whose changes this process hears
 * (decision 030). The server's change feed (server/main.ts) calls `listingsChanged` for every
 * change, before it purges the page cache:
 * - a product's stock changed alone (a sale): the reads holding it take the new stock; no
 *   listing gains, loses or reorders a product that way;
 * - anything else: every read is dropped.
 * A read also ends at the next drop time (`expiresAt`): a product then joins the listings
 * without a write. Reads under way when a change arrives are dropped too (they may predate it).
 * Without `keepListingsInStep(db)` (services' tests, scripts), nothing is kept.
 */
const MAX_LISTINGS = 500;

/** By database handle: one per process (decision 019), the server's and its tests' own. */
const kept = processShared("listingReads", () => new Map<Db, LRUCache<string, Entry>>());

/** This database's changes reach `listingsChanged` (the server's change feed): its listings may be kept. */
export function keepListingsInStep(db: Db): void {
  if (!kept.has(db)) kept.set(db, new LRUCache({ max: MAX_LISTINGS }));
}

export function listingsChanged(change: CatalogChange): void {
  const stockOnly = change.op === "update" && change.stock !== undefined;
  for (const listings of kept.values()) {
    // A copy of the entries: deleting from an LRUCache while iterating it is not promised to work.
    for (const [key, entry] of [...listings.entries()]) {
      // A read under way may predate the change: the next request reads again.
      if (!stockOnly || !entry.value) listings.delete(key);
      else for (const row of entry.value.rows) if (row.id === change.id) row.stock = change.stock!;
    }
  }
}

/**
 * The listing `key` names (filter, sort, page, size, the category a countdown hides), read once
 * and kept until a change or `expiresAt` (the next drop time, null: none), or read each time
 * when this database's changes are not heard.
 */
export async function keptListing<Row extends { id: number; stock: number }>(
  db: Db,
  key: string,
  now: Date,
  read: () => Promise<{ listing: ListingRead<Row>; expiresAt: Date | null }>,
): Promise<ListingRead<Row>> {
  const listings = kept.get(db);
  if (!listings) return (await read()).listing;
  const entry = listings.get(key);
  if (entry && entry.expiresAt > now.getTime()) return copy((entry.value ?? (await entry.read)) as ListingRead<Row>);
  const reading = read();
  // Kept at once, so concurrent requests share the read (a change meanwhile drops it).
  const fresh: Entry = { read: reading.then((result) => result.listing), expiresAt: Number.POSITIVE_INFINITY };
  fresh.read.catch(() => {}); // its failure reaches this request below, not an unhandled rejection
  listings.set(key, fresh);
  try {
    const { listing, expiresAt } = await reading;
    fresh.value = listing;
    fresh.expiresAt = expiresAt ? expiresAt.getTime() : Number.POSITIVE_INFINITY;
    return copy(listing);
  } catch (error) {
    if (listings.peek(key) === fresh) listings.delete(key);
    throw error;
  }
}

/** The caller's own rows: a later stock change updates the kept ones, never a page being rendered. */
function copy<Row extends { id: number; stock: number }>(listing: ListingRead<Row>): ListingRead<Row> {
  return { ...listing, rows: listing.rows.map((row) => ({ ...row })) };
}
