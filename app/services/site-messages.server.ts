import type { Db } from "~/db/types";

export type PublicSiteMessage = { id: string; title: string; content: string; location: string };

/** Placeholder (issue 12): the site messages helper fills this in. */
export async function listActiveSiteMessages(_db: Db): Promise<PublicSiteMessage[]> {
  return [];
}
