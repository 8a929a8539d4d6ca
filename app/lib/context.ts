import type { Logger } from "pino";
import type { Db } from "~/db/types";
import type { ShopIdentity } from "~/lib/shop";
import type { Storage } from "~/services/storage.server";

/** What the Express server hands to every loader and action (see server/app.ts). */
export type AppContext = {
  db: Db;
  shop: ShopIdentity;
  storage: Pick<Storage, "publicBaseUrl">;
  publicUrl: string;
  nonce: string;
  logger: Logger;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
