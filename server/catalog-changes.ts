import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { CATALOG_CHANNEL, type CatalogChange, parseCatalogChange } from "~/domain/catalog-change";

export type ChangeListener = (change: CatalogChange) => void;

/** The catalogue's change events, heard from the database and fanned out in process. */
export type ChangeFeed = {
  subscribe(listener: ChangeListener): () => void;
  close(): Promise<void>;
};

export async function openChangeFeed(database: Database, logger: Logger): Promise<ChangeFeed> {
  const listeners = new Set<ChangeListener>();
  const dispatch = (change: CatalogChange) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (error) {
        logger.error({ err: error }, "catalog change listener failed");
      }
    }
  };
  const unlisten = await database.listen(
    CATALOG_CHANNEL,
    (payload) => {
      const change = parseCatalogChange(payload);
      if (change) dispatch(change);
      else logger.warn({ payload }, "ignored an unreadable catalog change");
    },
    () => {
      logger.warn("catalog change listener reconnected: clearing caches");
      dispatch({ op: "resync" });
    },
  );
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => unlisten(),
  };
}
