import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { type LegalFacts, LegalFactsProvider } from "~/components/legal/identity";
import { TermsOfSale } from "~/components/legal/terms-of-sale";
import { cgvSnapshots } from "~/db/schema";
import type { Db } from "~/db/types";
import { type CgvBlock, canonicalCgv, cgvBlocksFromMarkup, CGV_HASH } from "~/domain/cgv-snapshot";
import type { LegalIdentity } from "~/domain/shop-identity";
import { storeCreditValidityMonths } from "./store-credit-grants.server";
import { getShopIdentity } from "./shop-identity.server";
import { getBusinessSalesSettings } from "./business-sales-settings.server";
import { renderStaticMarkup } from "./static-markup.server";

export type CgvSnapshot = typeof cgvSnapshots.$inferSelect;

/** What the CGV are rendered from, besides the stored identity: as the /legal page's loader has it. */
export type CgvSource = { shopName: string; siteUrl: string; legalDefaults: LegalIdentity; paymentProvider: string };

/**
 * The CGV's blocks as /legal shows them for these facts: the page's own component
 * (components/legal/terms-of-sale.tsx) rendered to static markup, in a router (its links need
 * one), then read as blocks (domain/cgv-snapshot.ts). No second copy of the text to drift.
 */
export function renderCgvBlocks(facts: LegalFacts): CgvBlock[] {
  const markup = renderStaticMarkup(createElement(LegalFactsProvider, { facts, children: createElement(TermsOfSale) }));
  return cgvBlocksFromMarkup(markup);
}

export function cgvHash(blocks: readonly CgvBlock[]): string {
  return createHash("sha256").update(canonicalCgv(blocks)).digest("hex");
}

/**
 * Stores a version once: an instance that inserts it at the same moment as another waits on
 * the unique hash, does nothing, and reads the row the other wrote.
 */
export async function recordCgvSnapshot(db: Db, blocks: CgvBlock[], now = new Date()): Promise<{ id: string; hash: string }> {
  const hash = cgvHash(blocks);
  await db.insert(cgvSnapshots).values({ hash, blocks, createdAt: now }).onConflictDoNothing({ target: cgvSnapshots.hash });
  const [row] = await db.select({ id: cgvSnapshots.id, hash: cgvSnapshots.hash }).from(cgvSnapshots).where(eq(cgvSnapshots.hash, hash));
  return row!;
}

// Per database handle: the facts' last version (rendering costs a few milliseconds; a drop's
// checkouts come by the hundred). The facts are the key, so a saved identity is a new entry.
const recorded = new WeakMap<Db, Map<string, { id: string; hash: string }>>();
const MAX_KEPT = 16;

/**
 * The version of the CGV in force now, stored (once) and returned: the checkout sets it on the
 * order it writes. Call it outside the order's transaction: a rolled-back checkout must not
 * take the row it remembers with it.
 */
export async function currentCgvSnapshot(db: Db, source: CgvSource): Promise<{ id: string; hash: string }> {
  const [{ identity }, { sellToBusinesses }, storeCreditValidity] = await Promise.all([getShopIdentity(db, source.legalDefaults), getBusinessSalesSettings(db), storeCreditValidityMonths(db)]);
  const facts: LegalFacts = { identity, shopName: source.shopName, siteUrl: source.siteUrl, paymentProvider: source.paymentProvider, sellToBusinesses, storeCreditValidityMonths: storeCreditValidity };
  const key = JSON.stringify(facts);
  let known = recorded.get(db);
  if (!known) recorded.set(db, (known = new Map()));
  const hit = known.get(key);
  if (hit) return hit;
  const snapshot = await recordCgvSnapshot(db, renderCgvBlocks(facts));
  if (known.size >= MAX_KEPT) known.clear();
  known.set(key, snapshot);
  return snapshot;
}

export async function getCgvSnapshot(db: Db, hash: string): Promise<CgvSnapshot | null> {
  if (!CGV_HASH.test(hash)) return null;
  const [row] = await db.select().from(cgvSnapshots).where(eq(cgvSnapshots.hash, hash));
  return row ?? null;
}

export async function getCgvSnapshotById(db: Db, id: string): Promise<CgvSnapshot | null> {
  const [row] = await db.select().from(cgvSnapshots).where(eq(cgvSnapshots.id, id));
  return row ?? null;
}
