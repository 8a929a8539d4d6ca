import { asc, desc, eq, sql } from "drizzle-orm";
import { siteMessages, siteSettings } from "~/db/schema";
import type { Db } from "~/db/types";
import type { SiteMessageLocation } from "~/domain/catalog-values";
import { EXAMPLE_MESSAGES, type SiteMessageInput, dismissKey } from "~/domain/site-messages";
import { invalidateSiteCaches, siteCache } from "./site-cache.server";

/**
 * The seller's site messages. Every write fires the site_messages trigger (drizzle/0002): the
 * server purges its page cache and open pages reload their data, so visitors see it at once.
 */

export type SiteMessage = typeof siteMessages.$inferSelect;

/** What the root loader sends every page: active messages only, with the key a dismissal is kept under. */
export type PublicSiteMessage = { id: string; title: string; content: string; location: SiteMessageLocation; key: string };

const SEED_MARKER = "seed.site_messages";

/** Newest first, as the admin list shows them. */
export function listSiteMessages(db: Db): Promise<SiteMessage[]> {
  return db.select().from(siteMessages).orderBy(desc(siteMessages.createdAt), desc(siteMessages.seq));
}

export async function getSiteMessage(db: Db, id: string): Promise<SiteMessage | null> {
  const [row] = await db.select().from(siteMessages).where(eq(siteMessages.id, id));
  return row ?? null;
}

/**
 * The active messages of every location, oldest first (pages pick theirs: domain/site-messages.ts).
 * Every page shows them: read once per change (site-cache.server).
 */
export function listActiveSiteMessages(db: Db): Promise<PublicSiteMessage[]> {
  return activeMessages.get(db);
}

const activeMessages = siteCache(async (db) => {
  const rows = await db
    .select({ id: siteMessages.id, title: siteMessages.title, content: siteMessages.content, location: siteMessages.location })
    .from(siteMessages)
    .where(eq(siteMessages.isActive, true))
    .orderBy(asc(siteMessages.createdAt), asc(siteMessages.seq));
  return rows.map((row): PublicSiteMessage => ({ ...row, key: dismissKey(row) }));
});

/** Runs a write, then forgets the cached messages (the trigger's change event does too, later). */
async function written<T>(write: PromiseLike<T>): Promise<T> {
  const result = await write;
  invalidateSiteCaches();
  return result;
}

/** A new message is active: it shows as soon as it is added. */
export async function createSiteMessage(db: Db, input: SiteMessageInput): Promise<SiteMessage> {
  const [row] = await written(db.insert(siteMessages).values({ ...input, isActive: true }).returning());
  return row!;
}

/** Null when the message no longer exists (deleted in another tab). */
export async function updateSiteMessage(db: Db, id: string, input: SiteMessageInput): Promise<SiteMessage | null> {
  const [row] = await written(
    db
      .update(siteMessages)
      .set({ ...input, updatedAt: sql`now()` })
      .where(eq(siteMessages.id, id))
      .returning(),
  );
  return row ?? null;
}

/** Sets the state asked for (not a flip): two clicks on "Désactiver" leave it inactive. */
export async function setSiteMessageActive(db: Db, id: string, isActive: boolean): Promise<SiteMessage | null> {
  const [row] = await written(db.update(siteMessages).set({ isActive, updatedAt: sql`now()` }).where(eq(siteMessages.id, id)).returning());
  return row ?? null;
}

export async function deleteSiteMessage(db: Db, id: string): Promise<SiteMessage | null> {
  const [row] = await written(db.delete(siteMessages).where(eq(siteMessages.id, id)).returning());
  return row ?? null;
}

/**
 * Writes the two example messages on the first start. The marker row is the guard, in the same
 * transaction: restarts and concurrent starts insert them once, and a seller who deletes them
 * does not get them back.
 */
export async function seedSiteMessages(db: Db, now = new Date()): Promise<{ inserted: number }> {
  return written(db.transaction(async (tx) => {
    const marker = await tx
      .insert(siteSettings)
      .values({ key: SEED_MARKER, value: { seededAt: now.toISOString(), count: EXAMPLE_MESSAGES.length } })
      .onConflictDoNothing()
      .returning({ key: siteSettings.key });
    if (marker.length === 0) return { inserted: 0 };
    // One second apart, the first the oldest: each shows its own moment in the list.
    await tx.insert(siteMessages).values(
      EXAMPLE_MESSAGES.map((example, i) => {
        const at = new Date(now.getTime() - (EXAMPLE_MESSAGES.length - i) * 1000);
        return { ...example, createdAt: at, updatedAt: at };
      }),
    );
    return { inserted: EXAMPLE_MESSAGES.length };
  }));
}
