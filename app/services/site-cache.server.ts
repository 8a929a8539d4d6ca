import type { Db } from "~/db/types";
import { processShared } from "~/lib/process-shared";

/**
 * What every page reads and almost never changes (the banners' settings, the active site
 * messages), kept in memory per database handle until the next change. A change made here is
 * invalidated by the service that writes it; one made by another process arrives as the
 * change feed's `site` event (drizzle/0002), on which the server calls invalidateSiteCaches,
 * as it purges the page cache. Concurrent readers share one query.
 */
export type SiteCache<T> = { get(db: Db): Promise<T>; invalidate(): void };

// One registry per process: the Node entry calls invalidateSiteCaches on a change event, and
// the pages read the caches of the React Router build's copy of this module.
const caches = processShared("siteCaches", () => new Set<SiteCache<unknown>>());

export function siteCache<T>(read: (db: Db) => Promise<T>): SiteCache<T> {
  // Replaced, not cleared, on invalidation: a read under way keeps its old map and is not
  // stored over a newer write.
  let values = new WeakMap<Db, Promise<T>>();
  const cache: SiteCache<T> = {
    get(db) {
      let value = values.get(db);
      if (!value) {
        const map = values;
        value = read(db);
        map.set(db, value);
        // A failed read is not kept: the next request tries again.
        value.catch(() => map.get(db) === value && map.delete(db));
      }
      return value;
    },
    invalidate() {
      values = new WeakMap();
    },
  };
  caches.add(cache as SiteCache<unknown>);
  return cache;
}

/** Forgets every site cache: on each `site` (and `resync`) change event, and after a write here. */
export function invalidateSiteCaches(): void {
  for (const cache of caches) cache.invalidate();
}
