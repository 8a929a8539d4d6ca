import { and, arrayOverlaps, count, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { orderItems, productAdmin, type ProductRow, products, users } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { purchaseLotOfEdit } from "~/domain/purchase-price-form";
import { recordPurchaseLot } from "./purchase-lots.server";
import { type ProductChanges, productChanges, productSnapshot } from "~/domain/product-changes";
import {
  NAME_MAX_LENGTH,
  type ProductFieldErrors,
  type ProductFormInput,
  type ProductFormValues,
  productFieldErrors,
  productFormSchema,
  stockFromForm,
} from "~/domain/product-form";
import { missingSafetyInformation, productSafety } from "~/domain/safety-profile";
import { productSearchColumns } from "~/domain/search";
import { safetyProfileChoices } from "./product-safety.server";

/**
 * The admin's product writes (SPEC.md section 2, issue 10). Each write and its admin log row
 * (product_admin) go in one transaction: the log never tells of a change that did not happen,
 * and no change escapes it.
 */

export type AdminAction = (typeof productAdmin.$inferSelect)["adminAction"];

export const DUPLICATE_MISSING_MESSAGE = "Impossible de dupliquer un produit inexistant";
export const ADMIN_LOG_PAGE_SIZE = 20;

export type CreateProductResult = { outcome: "created"; product: ProductRow } | { outcome: "invalid"; errors: ProductFieldErrors };
export type UpdateProductResult =
  | { outcome: "updated"; product: ProductRow; changes: ProductChanges }
  | { outcome: "unchanged"; product: ProductRow }
  | { outcome: "invalid"; errors: ProductFieldErrors }
  | { outcome: "missing" };
export type SetFeaturedResult =
  | { outcome: "updated"; product: ProductRow; changes: ProductChanges }
  | { outcome: "unchanged"; product: ProductRow }
  | { outcome: "missing" };
export type DuplicateProductResult = { outcome: "duplicated"; product: ProductRow } | { outcome: "missing"; message: string };
export type DeleteProductResult =
  /** Removed; the caller deletes these image files (none another product still uses). */
  | { outcome: "deleted"; title: string; imageKeys: string[] }
  /** Orders point to it: kept for their history, hidden everywhere. */
  | { outcome: "archived"; title: string }
  | { outcome: "missing" };

/** A route's id may be anything: only a possible products.id reaches SQL (no int overflow error). */
const isProductId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

const notArchived = isNull(products.archivedAt);

/** The product, locked until the transaction ends so two admins' writes take turns; null when gone. */
async function lockProduct(tx: Tx, id: number): Promise<ProductRow | null> {
  if (!isProductId(id)) return null;
  const [row] = await tx
    .select()
    .from(products)
    .where(and(eq(products.id, id), notArchived))
    .for("update");
  return row ?? null;
}

async function writeLog(tx: Tx, action: AdminAction, product: ProductRow, changes: ProductChanges, adminUserId: string): Promise<void> {
  await tx.insert(productAdmin).values({
    adminAction: action,
    productId: product.id,
    title: product.title,
    snapshot: productSnapshot(product),
    changes,
    adminUserId,
    // The clock at the write, not the transaction's start: a CSV import's rows keep their order.
    createdAt: sql`clock_timestamp()`,
  });
}

type ProductFields = Omit<ProductFormValues, "imagePath"> & { imagePath: string | null };

/** Inserts a product and its "ajout" log row; the caller holds the transaction. */
export async function insertProductLogged(tx: Tx, values: ProductFields, adminUserId: string, now: Date): Promise<ProductRow> {
  const [row] = await tx
    .insert(products)
    .values({ ...values, ...productSearchColumns(values), createdAt: now, updatedAt: now })
    .returning();
  await writeLog(tx, "ajout", row!, productChanges(null, row!), adminUserId);
  return row!;
}

/**
 * Applies new values to a locked product and logs a "modification" with what changed; writes
 * nothing when nothing changes. The caller holds the transaction.
 */
export async function updateProductLogged(
  tx: Tx,
  before: ProductRow,
  values: Partial<ProductFields>,
  adminUserId: string,
  now: Date,
): Promise<{ product: ProductRow; changes: ProductChanges }> {
  const merged = { ...before, ...values };
  if (Object.keys(productChanges(before, merged)).length === 0) return { product: before, changes: {} };
  const [row] = await tx
    .update(products)
    .set({ ...values, ...productSearchColumns(merged), updatedAt: now })
    .where(eq(products.id, before.id))
    .returning();
  const changes = productChanges(before, row!);
  await writeLog(tx, "modification", row!, changes, adminUserId);
  return { product: row!, changes };
}

/** `purchasePrice`: the unit purchase price typed for a margin-scheme product's stock (docs/decisions/057). */
export async function createProduct(db: Db, input: ProductFormInput, adminUserId: string, now = new Date(), { purchasePrice }: { purchasePrice?: unknown } = {}): Promise<CreateProductResult> {
  return db.transaction(async (tx): Promise<CreateProductResult> => {
    const parsed = productFormSchema({ now, safetyProfiles: await safetyProfileChoices(tx) }).safeParse(input);
    if (!parsed.success) return { outcome: "invalid", errors: productFieldErrors(parsed.error) };
    const lot = purchaseLotOfEdit(null, parsed.data, purchasePrice);
    if (!lot.ok) return { outcome: "invalid", errors: { purchasePrice: lot.message } };
    const product = await insertProductLogged(tx, parsed.data, adminUserId, now);
    if (lot.lot) await recordPurchaseLot(tx, { productId: product.id, ...lot.lot, source: "manual", receivedAt: now });
    return { outcome: "created", product };
  });
}

/**
 * `stockSeen`: the stock the edit form showed when it opened. The stock typed then counts from
 * it, so the units sold while the form was open stay sold: a form saved unchanged keeps today's
 * stock, a restock of +3 adds 3 to it (never below 0). Without it, the stock is set as given.
 */
export async function updateProduct(
  db: Db,
  id: number,
  input: ProductFormInput,
  adminUserId: string,
  now = new Date(),
  { stockSeen, purchasePrice }: { stockSeen?: number | null; purchasePrice?: unknown } = {},
): Promise<UpdateProductResult> {
  return db.transaction(async (tx): Promise<UpdateProductResult> => {
    // Locked: a checkout of this product waits until the stock below is written.
    const before = await lockProduct(tx, id);
    if (!before) return { outcome: "missing" };
    const parsed = productFormSchema({ now, currentDropTime: before.dropTime, safetyProfiles: await safetyProfileChoices(tx) }).safeParse(input);
    if (!parsed.success) return { outcome: "invalid", errors: productFieldErrors(parsed.error) };
    const values = stockSeen == null ? parsed.data : { ...parsed.data, stock: stockFromForm(before.stock, parsed.data.stock, stockSeen) };
    const lot = purchaseLotOfEdit(before, values, purchasePrice);
    if (!lot.ok) return { outcome: "invalid", errors: { purchasePrice: lot.message } };
    const { product, changes } = await updateProductLogged(tx, before, values, adminUserId, now);
    if (lot.lot) await recordPurchaseLot(tx, { productId: product.id, ...lot.lot, source: "manual", receivedAt: now });
    return Object.keys(changes).length === 0 ? { outcome: "unchanged", product } : { outcome: "updated", product, changes };
  });
}

export async function setFeatured(db: Db, id: number, featured: boolean, adminUserId: string, now = new Date()): Promise<SetFeaturedResult> {
  return db.transaction(async (tx): Promise<SetFeaturedResult> => {
    const before = await lockProduct(tx, id);
    if (!before) return { outcome: "missing" };
    const { product, changes } = await updateProductLogged(tx, before, { featured }, adminUserId, now);
    return Object.keys(changes).length === 0 ? { outcome: "unchanged", product } : { outcome: "updated", product, changes };
  });
}

const COPY_SUFFIX = " (copie)";

/** SPEC.md: a copy named "… (copie)", not featured, with its own id and creation date. */
export async function duplicateProduct(db: Db, id: number, adminUserId: string, now = new Date()): Promise<DuplicateProductResult> {
  return db.transaction(async (tx): Promise<DuplicateProductResult> => {
    const original = await lockProduct(tx, id);
    if (!original) return { outcome: "missing", message: DUPLICATE_MISSING_MESSAGE };
    // A copy is published only as its original could be now: complete safety information.
    const profile = (await safetyProfileChoices(tx)).find((candidate) => candidate.id === original.safetyProfileId) ?? null;
    const publishable = missingSafetyInformation(productSafety(original, profile)).length === 0;
    const product = await insertProductLogged(
      tx,
      {
        // Cut so the copy's name still passes the form when it is edited.
        title: original.title.slice(0, NAME_MAX_LENGTH - COPY_SUFFIX.length) + COPY_SUFFIX,
        description: original.description,
        priceCents: original.priceCents,
        stock: original.stock,
        status: publishable ? original.status : "hors_ligne",
        category: original.category,
        subCategory: original.subCategory,
        cardType: original.cardType,
        featured: false,
        dropTime: original.dropTime,
        imagePath: original.imagePath,
        additionalImages: original.additionalImages,
        series: original.series,
        rarity: original.rarity as ProductFields["rarity"],
        condition: original.condition as ProductFields["condition"],
        compareAtCents: original.compareAtCents,
        weightGrams: original.weightGrams,
        vatRateBp: original.vatRateBp as ProductFields["vatRateBp"],
        vatScheme: original.vatScheme,
        safetyProfileId: original.safetyProfileId,
        manufacturerName: original.manufacturerName,
        manufacturerAddress: original.manufacturerAddress,
        manufacturerEmail: original.manufacturerEmail,
        manufacturerOutsideEu: original.manufacturerOutsideEu,
        euRepName: original.euRepName,
        euRepAddress: original.euRepAddress,
        euRepEmail: original.euRepEmail,
        ean: original.ean,
        manufacturerReference: original.manufacturerReference,
        safetyWarnings: original.safetyWarnings,
        labelImagePath: original.labelImagePath,
        pegiRating: original.pegiRating as ProductFields["pegiRating"],
        pegiDescriptors: original.pegiDescriptors as ProductFields["pegiDescriptors"],
      },
      adminUserId,
      now,
    );
    return { outcome: "duplicated", product };
  });
}

/**
 * Removes a product, or archives it when order lines point to it (their history needs it):
 * hors_ligne keeps it out of every public query, archived_at out of the admin's lists.
 */
export async function deleteProduct(db: Db, id: number, adminUserId: string, now = new Date()): Promise<DeleteProductResult> {
  return db.transaction(async (tx): Promise<DeleteProductResult> => {
    // The lock makes a checkout of this product wait (its stock UPDATE needs the row), so no
    // order line can appear between the check below and the delete.
    const before = await lockProduct(tx, id);
    if (!before) return { outcome: "missing" };
    const [ordered] = await tx.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.productId, id)).limit(1);
    if (ordered) {
      const [archived] = await tx
        .update(products)
        .set({ status: "hors_ligne", archivedAt: now, updatedAt: now })
        .where(eq(products.id, id))
        .returning();
      await writeLog(tx, "suppression", archived!, productChanges(before, archived!), adminUserId);
      return { outcome: "archived", title: before.title };
    }
    await tx.delete(products).where(eq(products.id, id));
    await writeLog(tx, "suppression", before, productChanges(before, null), adminUserId);
    const keys = [...new Set([before.imagePath, ...before.additionalImages].filter((key): key is string => !!key))];
    // A duplicate shares its original's files: those still shown elsewhere stay.
    const inUse = new Set<string>();
    if (keys.length > 0) {
      const others = await tx
        .select({ imagePath: products.imagePath, additionalImages: products.additionalImages })
        .from(products)
        .where(or(inArray(products.imagePath, keys), arrayOverlaps(products.additionalImages, keys)));
      for (const other of others) [other.imagePath, ...other.additionalImages].forEach((key) => key && inUse.add(key));
    }
    return { outcome: "deleted", title: before.title, imageKeys: keys.filter((key) => !inUse.has(key)) };
  });
}

/** The product the edit form loads; null when unknown or archived. */
export async function getProductForEdit(db: Db, id: number): Promise<ProductRow | null> {
  if (!isProductId(id)) return null;
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), notArchived))
    .limit(1);
  return row ?? null;
}

export type AdminLogEntry = {
  id: string;
  action: AdminAction;
  productId: number;
  title: string;
  changes: ProductChanges;
  snapshot: Record<string, unknown>;
  createdAt: Date;
  /** Null once the admin's account is deleted. */
  admin: { id: string; name: string; email: string } | null;
};

export type AdminLogPage = { entries: AdminLogEntry[]; total: number; page: number; pageCount: number };

/** The Journal: newest first, 20 a page, optionally one product's; the page is clamped to the last one. */
export async function listAdminLog(db: Db, query: { productId?: number | null; page: number }): Promise<AdminLogPage> {
  const where = query.productId != null ? eq(productAdmin.productId, isProductId(query.productId) ? query.productId : 0) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(productAdmin).where(where);
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_LOG_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(query.page) || 1), pageCount);
  const rows = await db
    .select({ log: productAdmin, adminName: users.name, adminEmail: users.email })
    .from(productAdmin)
    .leftJoin(users, eq(users.id, productAdmin.adminUserId))
    .where(where)
    .orderBy(desc(productAdmin.createdAt), desc(productAdmin.seq))
    .limit(ADMIN_LOG_PAGE_SIZE)
    .offset((page - 1) * ADMIN_LOG_PAGE_SIZE);
  return {
    entries: rows.map(({ log, adminName, adminEmail }) => ({
      id: log.id,
      action: log.adminAction,
      productId: log.productId,
      title: log.title,
      changes: log.changes,
      snapshot: log.snapshot,
      createdAt: log.createdAt,
      admin: log.adminUserId && adminName !== null && adminEmail !== null ? { id: log.adminUserId, name: adminName, email: adminEmail } : null,
    })),
    total,
    page,
    pageCount,
  };
}
