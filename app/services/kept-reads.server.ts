import type { Db } from "~/db/types";
import type { CatalogChange } from "~/domain/catalog-change";
import { processShared } from "~/lib/process-shared";

/**
 * Reads of the seller's pages kept for a while, for a database whose changes this process hears
 * (as the listings are, decision 030): the dashboard's figures (decision 037) and the admin
 * sidebar's counts, the product list's count of launches. The server's change feed forgets them
 * all on an order or product change (`keptReadsHear`); each is otherwise kept `keepMs`. Without
 * `keepReadsInStep(db)` (services' tests, scripts), every read is fresh.
 */
const kept = processShared("keptReads", () => new Map<Db, Map<string, { at: number; read: Promise<unknown> }>>());

export function keepReadsInStep(db: Db): void {
  if (!kept.has(db)) kept.set(db, new Map());
}

/** A change heard on the feed (any instance): an order's or a product's forgets every kept read. */
export function keptReadsHear(change: CatalogChange): void {
  if (change.op === "site") return; // banners and messages: none of these reads
  forgetKeptReads();
}

/** Forgets what is kept: `keys` of `db` (a change this process made), or everything (a change heard on the feed). */
export function forgetKeptReads(db?: Db, keys?: string[]): void {
  for (const [of, reads] of kept) {
    if (db && of !== db) continue;
    if (keys) for (const key of keys) reads.delete(key);
    else reads.clear();
  }
}

/** `read()`, or what the same `key` read less than `keepMs` ago (one read shared by requests arriving together). */
export function keptRead<T>(db: Db, key: string, now: number, read: () => Promise<T>, keepMs: number): Promise<T> {
  const reads = kept.get(db);
  if (!reads) return read();
  const last = reads.get(key);
  if (last && now - last.at < keepMs && now >= last.at) return last.read as Promise<T>;
  const fresh = read();
  reads.set(key, { at: now, read: fresh });
  fresh.catch(() => {
    if (reads.get(key)?.read === fresh) reads.delete(key);
  });
  return fresh;
}
