import { type SQL, and, asc, count, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { products } from "~/db/schema";
import type { Db } from "~/db/types";
import { ADMIN_PAGE_SIZE, type AdminProductQuery, type AdminSortField } from "~/domain/admin-product-list";
import { allWordsIn } from "./catalog.server";
import { keptRead } from "./kept-reads.server";
import { waitingCounts } from "./wishlist-alerts.server";

export type AdminProductRow = {
  id: number;
  name: string;
  priceCents: number;
  stock: number;
  status: (typeof products.$inferSelect)["status"];
  category: (typeof products.$inferSelect)["category"];
  subCategory: string | null;
  featured: boolean;
  imagePath: string | null;
  dropTime: Date | null;
  /** Customers waiting for it (wish lists, confirmed « Prévenez-moi » alerts): the demand before restocking. */
  waiting: number;
};

export type AdminProductPage = { rows: AdminProductRow[]; total: number; page: number; pageCount: number; scheduled: number };

const SORT_COLUMNS: Record<AdminSortField, AnyPgColumn> = {
  // Accent-folded: "Écarlate" sorts with the e's.
  name: products.nameSearch,
  price: products.priceCents,
  stock: products.stock,
  status: products.status,
  category: products.category,
};

/**
 * The admin product list (SPEC.md "Product list"): filters, sort and page in SQL, 10 rows a
 * page; the page is clamped to the last one. Archived products (kept for their orders) are not
 * listed. Also counts the scheduled launches for the notice.
 */
export async function listAdminProducts(db: Db, query: AdminProductQuery): Promise<AdminProductPage> {
  const where = adminFilter(query);
  const scheduled = await keptRead(db, "scheduledLaunches", Date.now(), () => countScheduledLaunches(db), LAUNCHES_KEEP_MS);
  // One scan gives the page and the total (a window count); a page past the end reads the last one.
  let found = await readPage(db, where, query, query.page);
  if (found.rows.length === 0 && query.page > 1) {
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(products).where(where);
    const last = Math.max(1, Math.ceil(Number(total) / ADMIN_PAGE_SIZE));
    found = last < query.page ? await readPage(db, where, query, last) : { rows: [], total: Number(total), page: query.page };
  }
  // The page's waiting customers in one grouped query (not one per row).
  const waiting = await waitingCounts(db, found.rows.map((row) => row.id));
  const rows = found.rows.map((row) => ({ ...row, waiting: waiting.get(row.id) ?? 0 }));
  return { rows, total: found.total, page: found.page, pageCount: Math.ceil(found.total / ADMIN_PAGE_SIZE), scheduled };
}

/**
 * Products waiting for their launch, shown above the list: kept a minute between product changes
 * (services/kept-reads.server.ts), a count every page of the list would otherwise make again.
 */
const LAUNCHES_KEEP_MS = 60_000;

async function countScheduledLaunches(db: Db): Promise<number> {
  const [{ scheduled } = { scheduled: 0 }] = await db.select({ scheduled: count() }).from(products).where(and(notArchived, eq(products.status, "a_venir")));
  return Number(scheduled);
}

type PageRow = Omit<AdminProductRow, "waiting">;

async function readPage(db: Db, where: SQL | undefined, query: AdminProductQuery, page: number): Promise<{ rows: PageRow[]; total: number; page: number }> {
  const direction = query.order === "desc" ? desc : asc;
  const found = await db
    .select({
      id: products.id,
      name: products.title,
      priceCents: products.priceCents,
      stock: products.stock,
      status: products.status,
      category: products.category,
      subCategory: products.subCategory,
      featured: products.featured,
      imagePath: products.imagePath,
      dropTime: products.dropTime,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(products)
    .where(where)
    // Ties (same price, same stock…) keep a stable order: by name, then id.
    .orderBy(direction(SORT_COLUMNS[query.sort]), ...(query.sort === "category" ? [direction(products.subCategory)] : []), asc(products.nameSearch), asc(products.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PAGE_SIZE);
  return { rows: found.map(({ total: _total, ...row }) => row), total: found[0]?.total ?? 0, page };
}

const notArchived = isNull(products.archivedAt);

function adminFilter(query: AdminProductQuery): SQL | undefined {
  const words = allWordsIn(products.searchText, query.q);
  // A number also finds the product with that id (the seller reads ids in orders and logs).
  const byId = /^\d{1,9}$/.test(query.q.trim()) ? eq(products.id, Number(query.q.trim())) : undefined;
  return and(
    notArchived,
    words && byId ? or(words, byId) : words,
    query.category ? eq(products.category, query.category) : undefined,
    query.status ? eq(products.status, query.status) : undefined,
    query.featured ? eq(products.featured, query.featured === "oui") : undefined,
  );
}
