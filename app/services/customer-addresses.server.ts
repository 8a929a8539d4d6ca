import { and, desc, eq, ne } from "drizzle-orm";
import { customerAddresses, users } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type BillingFormValues, billingAddressOf } from "~/domain/billing-address";
import { type AddressBookEntry, type AddressBookKind, MAX_ADDRESSES_PER_KIND, type SavedRelayPoint, addressBookKey, checkoutAddressesToSave } from "~/domain/customer-addresses";
import { type DeliveryAddressForm, type PaymentDelivery, shippingAddressOf } from "~/domain/delivery-address-form";

/**
 * A signed-in customer's address book (issue 56, point 1, docs/decisions/064). Every change runs
 * in a transaction that first locks the customer's row: two tabs adding, or setting a default, at
 * once are served one after the other, so the cap, the one-default rule and the no-duplicate rule
 * hold (the database's unique indexes back the last two). Every id is looked up with its owner:
 * another customer's id is "not found", never read nor changed.
 */

export type SavedAddress = AddressBookEntry & { id: number; isDefault: boolean };

export type AddressChange = { ok: true; id: number } | { ok: false; reason: "not-found" | "limit" | "duplicate" };

/** The customer's addresses, of one kind or all: the default first, then the newest. */
export async function listCustomerAddresses(db: Db, userId: string, kind?: AddressBookKind): Promise<SavedAddress[]> {
  const rows = await db
    .select()
    .from(customerAddresses)
    .where(and(eq(customerAddresses.userId, userId), kind ? eq(customerAddresses.kind, kind) : undefined))
    .orderBy(desc(customerAddresses.isDefault), desc(customerAddresses.createdAt), desc(customerAddresses.id));
  return rows.map((row) => ({ id: row.id, kind: row.kind, address: row.address, isDefault: row.isDefault }) as SavedAddress);
}

/** Serialises the customer's changes (see above). */
async function lockCustomer(tx: Tx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
}

async function sameKind(tx: Tx, userId: string, kind: AddressBookKind) {
  return tx
    .select({ id: customerAddresses.id, key: customerAddresses.key, isDefault: customerAddresses.isDefault })
    .from(customerAddresses)
    .where(and(eq(customerAddresses.userId, userId), eq(customerAddresses.kind, kind)))
    .orderBy(desc(customerAddresses.createdAt), desc(customerAddresses.id));
}

async function makeDefault(tx: Tx, userId: string, kind: AddressBookKind, id: number): Promise<void> {
  const owner = and(eq(customerAddresses.userId, userId), eq(customerAddresses.kind, kind));
  await tx.update(customerAddresses).set({ isDefault: false }).where(and(owner, eq(customerAddresses.isDefault, true), ne(customerAddresses.id, id)));
  await tx.update(customerAddresses).set({ isDefault: true, updatedAt: new Date() }).where(and(owner, eq(customerAddresses.id, id)));
}

/**
 * Adds an address; the first of its kind, or one asked as such, becomes the default. Refused when
 * the place is already in the book or the kind is full.
 */
export async function addCustomerAddress(db: Db, userId: string, entry: AddressBookEntry, options: { makeDefault?: boolean } = {}): Promise<AddressChange> {
  const key = addressBookKey(entry);
  return db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    const existing = await sameKind(tx, userId, entry.kind);
    if (existing.some((row) => row.key === key)) return { ok: false, reason: "duplicate" } as const;
    if (existing.length >= MAX_ADDRESSES_PER_KIND) return { ok: false, reason: "limit" } as const;
    const [row] = await tx.insert(customerAddresses).values({ userId, kind: entry.kind, address: entry.address, key }).returning({ id: customerAddresses.id });
    if (existing.length === 0 || options.makeDefault) await makeDefault(tx, userId, entry.kind, row!.id);
    return { ok: true, id: row!.id } as const;
  });
}

/** Changes one of the customer's addresses (its kind stays); refused when it would duplicate another. */
export async function updateCustomerAddress(db: Db, userId: string, id: number, entry: AddressBookEntry): Promise<AddressChange> {
  const key = addressBookKey(entry);
  return db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    const existing = await sameKind(tx, userId, entry.kind);
    if (!existing.some((row) => row.id === id)) return { ok: false, reason: "not-found" } as const;
    if (existing.some((row) => row.key === key && row.id !== id)) return { ok: false, reason: "duplicate" } as const;
    await tx
      .update(customerAddresses)
      .set({ address: entry.address, key, updatedAt: new Date() })
      .where(and(eq(customerAddresses.userId, userId), eq(customerAddresses.id, id)));
    return { ok: true, id } as const;
  });
}

/** Makes one of the customer's addresses the default of its kind (the previous one no longer is). */
export async function setDefaultCustomerAddress(db: Db, userId: string, id: number): Promise<AddressChange> {
  return db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    const [row] = await tx
      .select({ kind: customerAddresses.kind })
      .from(customerAddresses)
      .where(and(eq(customerAddresses.userId, userId), eq(customerAddresses.id, id)));
    if (!row) return { ok: false, reason: "not-found" } as const;
    await makeDefault(tx, userId, row.kind, id);
    return { ok: true, id } as const;
  });
}

/** Deletes one of the customer's addresses; when it was the default, the newest left takes its place. */
export async function deleteCustomerAddress(db: Db, userId: string, id: number): Promise<AddressChange> {
  return db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    const [row] = await tx
      .delete(customerAddresses)
      .where(and(eq(customerAddresses.userId, userId), eq(customerAddresses.id, id)))
      .returning({ kind: customerAddresses.kind, isDefault: customerAddresses.isDefault });
    if (!row) return { ok: false, reason: "not-found" } as const;
    if (row.isDefault) {
      const [next] = await sameKind(tx, userId, row.kind);
      if (next) await makeDefault(tx, userId, row.kind, next.id);
    }
    return { ok: true, id } as const;
  });
}

/**
 * The addresses a paid order's buyer ticked « Enregistrer … dans mon compte » for (`form`, the
 * post; `typed`, what its schema accepted): each added unless already in the book; a full book
 * leaves the order as it is (the buyer tidies it in /account/adresses). Returns what was added.
 */
export async function saveCheckoutAddresses(
  db: Db,
  userId: string,
  order: { form: Record<string, unknown>; typed: DeliveryAddressForm & BillingFormValues; delivery: PaymentDelivery; business: boolean },
): Promise<AddressBookKind[]> {
  const shipping = shippingAddressOf(order.typed, order.delivery);
  const billing = billingAddressOf(order.typed, shipping, order.business);
  const entries = checkoutAddressesToSave(order.form, { delivery: order.delivery, shipping, billing, business: order.business });
  const saved: AddressBookKind[] = [];
  for (const entry of entries) {
    const change = await addCustomerAddress(db, userId, entry);
    if (change.ok) saved.push(entry.kind);
  }
  return saved;
}


/** The relay points of a list, as the cart proposes them. */
export function relayPointsOf(book: SavedAddress[]): SavedRelayPoint[] {
  return book.flatMap((entry) => (entry.kind === "relay" ? [{ ...entry.address, isDefault: entry.isDefault }] : []));
}
