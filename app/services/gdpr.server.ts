import { randomUUID } from "node:crypto";
import { type SQL, and, asc, count, eq, ilike, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  businessProfiles,
  customerAddresses,
  accounts,
  inboxEvents,
  buybackOffers,
  inboxMessages,
  orderEvents,
  orderItems,
  orders,
  outboxEmails,
  products,
  rateLimits,
  sessions,
  emailOptOuts,
  stockAlerts,
  testPaymentSessions,
  users,
  verifications,
  wishlistItems,
  withdrawalRequests,
} from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import type { FileStore } from "~/services/storage.server";
import { PRIVACY_EMAIL_INVALID, PRIVACY_IS_ACCOUNT, PRIVACY_NOTHING, PRIVACY_OPEN_ORDER, normalizePrivacyEmail } from "~/domain/privacy";
import { ERASED_NAME, ERASED_TEXT, OPEN_ORDER_STATUSES, containsPattern, decideErasure, erasedAddress, erasedEmail, escapeLike } from "~/domain/admin-users";

/**
 * The GDPR tools of a user's page: everything the shop holds about a customer (right of
 * access, as a JSON download) and their erasure (right to erasure), which keeps their orders
 * for the accounts.
 */

/** The customer's orders: placed with the account, or as a guest with its address. */
const ordersOf = (userId: string, email: string) => or(eq(orders.userId, userId), eq(sql`lower(${orders.customerEmail})`, email));
const sameAddress = (column: AnyPgColumn, email: string) => eq(sql`lower(${column})`, email);

export type UserExport = Awaited<ReturnType<typeof readExport>>;

/** Everything about one account, or null for an unknown id. Tokens and password hashes stay out. */
export async function exportUserData(db: Db, userId: string, now = new Date()): Promise<UserExport | null> {
  if (!userId || userId.length > 100) return null;
  // One snapshot: a change made meanwhile is either all in or all out.
  return db.transaction((tx) => readExport(tx, userId, now));
}

async function readExport(tx: Tx, userId: string, now: Date) {
  const [account] = await tx
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      role: users.role,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      erasedAt: users.erasedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!account) return null;
  const email = account.email.toLowerCase();
  const signIns = await tx
    .select({ createdAt: sessions.createdAt, updatedAt: sessions.updatedAt, expiresAt: sessions.expiresAt, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt));
  const [businessProfile] = await tx
    .select({ companyName: businessProfiles.companyName, siren: businessProfiles.siren, vatNumber: businessProfiles.vatNumber, country: businessProfiles.country, updatedAt: businessProfiles.updatedAt })
    .from(businessProfiles)
    .where(eq(businessProfiles.userId, userId));
  const addresses = await tx
    .select({ kind: customerAddresses.kind, address: customerAddresses.address, isDefault: customerAddresses.isDefault, createdAt: customerAddresses.createdAt, updatedAt: customerAddresses.updatedAt })
    .from(customerAddresses)
    .where(eq(customerAddresses.userId, userId))
    .orderBy(asc(customerAddresses.createdAt), asc(customerAddresses.id));
  const wishlist = await tx
    .select({
      product: products.title,
      addedAt: wishlistItems.createdAt,
      alertRestock: wishlistItems.alertRestock,
      alertDrop: wishlistItems.alertDrop,
      priceBelowCents: wishlistItems.priceBelowCents,
      consentText: wishlistItems.consentText,
      consentedAt: wishlistItems.consentedAt,
    })
    .from(wishlistItems)
    .innerJoin(products, eq(products.id, wishlistItems.productId))
    .where(eq(wishlistItems.userId, userId))
    .orderBy(asc(wishlistItems.createdAt), asc(products.id));
  return {
    format: "comptoir-donnees-personnelles/1",
    exportedAt: now.toISOString(),
    account,
    sessions: signIns,
    businessProfile: businessProfile ?? null,
    addressBook: addresses,
    wishlist,
    ...(await readByAddress(tx, { userId, email })),
  };
}

/** What is held under an address (and, for an account, under its id): orders, requests, e-mails. */
async function readByAddress(tx: Tx, who: { userId: string | null; email: string }) {
  const { userId, email } = who;
  const orderRows = await tx.select().from(orders).where(userId ? ordersOf(userId, email) : sameAddress(orders.customerEmail, email)).orderBy(asc(orders.createdAt), asc(orders.seq));
  const lines = orderRows.length
    ? await tx
        .select({ orderId: orderItems.orderId, name: orderItems.name, unitPriceCents: orderItems.unitPriceCents, quantity: orderItems.quantity })
        .from(orderItems)
        .where(inArray(orderItems.orderId, orderRows.map((o) => o.id)))
        .orderBy(asc(orderItems.name), asc(orderItems.id))
    : [];
  const requests = await tx.select().from(inboxMessages).where(sameAddress(inboxMessages.email, email)).orderBy(asc(inboxMessages.createdAt), asc(inboxMessages.seq));
  const replies = requests.length
    ? await tx
        .select({ messageId: inboxEvents.messageId, type: inboxEvents.type, body: inboxEvents.body, amountCents: inboxEvents.amountCents, createdAt: inboxEvents.createdAt })
        .from(inboxEvents)
        .where(and(inArray(inboxEvents.messageId, requests.map((r) => r.id)), inArray(inboxEvents.type, ["reply", "offer"])))
        .orderBy(asc(inboxEvents.createdAt), asc(inboxEvents.seq))
    : [];
  const withdrawals = orderRows.length
    ? await tx
        .select({
          orderId: withdrawalRequests.orderId,
          requestedAt: withdrawalRequests.requestedAt,
          email: withdrawalRequests.email,
          customerName: withdrawalRequests.customerName,
          source: withdrawalRequests.source,
        })
        .from(withdrawalRequests)
        .where(inArray(withdrawalRequests.orderId, orderRows.map((o) => o.id)))
    : [];
  const alerts = await tx
    .select({
      product: products.title,
      status: stockAlerts.status,
      consent: stockAlerts.consentText,
      createdAt: stockAlerts.createdAt,
      confirmedAt: stockAlerts.confirmedAt,
      notifiedAt: stockAlerts.notifiedAt,
    })
    .from(stockAlerts)
    .innerJoin(products, eq(products.id, stockAlerts.productId))
    .where(sameAddress(stockAlerts.email, email))
    .orderBy(asc(stockAlerts.createdAt));
  const emails = await tx
    .select({ to: outboxEmails.to, kind: outboxEmails.kind, subject: outboxEmails.subject, status: outboxEmails.status, createdAt: outboxEmails.createdAt, sentAt: outboxEmails.sentAt })
    .from(outboxEmails)
    .where(sameAddress(outboxEmails.to, email))
    .orderBy(asc(outboxEmails.createdAt), asc(outboxEmails.seq));
  return {
    orders: orderRows.map((order) => ({
      number: order.number,
      status: order.status,
      withAccount: userId ? order.userId === userId : order.userId !== null,
      createdAt: order.createdAt,
      paidAt: order.paidAt,
      shippedAt: order.shippedAt,
      refundedAt: order.refundedAt,
      customerEmail: order.customerEmail,
      customerName: order.customerName,
      shippingAddress: order.shippingAddress,
      billingAddress: order.billingAddress,
      carrier: order.carrier,
      trackingNumber: order.trackingNumber,
      trackingUrl: order.trackingUrl,
      lines: lines.filter((line) => line.orderId === order.id).map(({ orderId: _orderId, ...line }) => line),
      withdrawal: withdrawals.filter((w) => w.orderId === order.id).map(({ orderId: _orderId, ...withdrawal }) => withdrawal)[0] ?? null,
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      discountCode: order.discountCode,
      insuranceCents: order.insuranceCents,
      totalCents: order.totalCents,
    })),
    requests: requests.map((request) => ({
      kind: request.kind,
      createdAt: request.createdAt,
      lastName: request.lastName,
      firstName: request.firstName,
      email: request.email,
      phone: request.phone,
      message: request.message,
      photoCount: request.photos.length,
      status: request.status,
      offerCents: request.offerCents,
      offerNote: request.offerNote,
      answers: replies.filter((reply) => reply.messageId === request.id).map(({ messageId: _messageId, ...reply }) => reply),
    })),
    alerts,
    emails,
  };
}

export type Erasure =
  | { outcome: "erased"; email: string; photoKeys: string[]; orders: number; requests: number; emails: number; withdrawals: number }
  | { outcome: "unchanged" }
  | { outcome: "missing" }
  | { outcome: "refused"; message: string };

/**
 * Erases a customer, in one transaction: the account keeps its id (their orders still count
 * under it) but its name and address become placeholders; sessions end at once, the password
 * and any pending reset link go, so nobody can sign in as them again. Their orders (with the
 * account or as a guest with that address) keep their lines and totals, their address
 * reduced to method and country; their requests, the seller's answers and every e-mail to them
 * or about them (naming their address or one of their orders) are blanked. Erasing twice does
 * nothing more. Returns the private photo keys of their requests for the caller to delete.
 */
export async function eraseUser(db: Db, input: { actorId: string; targetId: string; now?: Date }): Promise<Erasure> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(eq(users.id, input.targetId)).for("update");
    if (!target) return { outcome: "missing" };
    const email = target.email.toLowerCase();
    const [{ open } = { open: 0 }] = await tx
      .select({ open: count() })
      .from(orders)
      .where(and(ordersOf(target.id, email), inArray(orders.status, [...OPEN_ORDER_STATUSES])));
    const decision = decideErasure({ actorId: input.actorId, target: { id: target.id, role: target.role, erased: target.erasedAt !== null }, openOrders: open });
    if (decision.kind === "refuse") return { outcome: "refused", message: decision.message };
    if (decision.kind === "unchanged") return { outcome: "unchanged" };

    const placeholder = erasedEmail(target.id);
    const erased = await eraseByAddress(tx, { userId: target.id, email, placeholder, names: [target.name], now });

    await tx.delete(sessions).where(eq(sessions.userId, target.id));
    await tx.delete(accounts).where(eq(accounts.userId, target.id));
    await tx.delete(businessProfiles).where(eq(businessProfiles.userId, target.id));
    // The account's row stays (erased), so its address book would not go by cascade.
    await tx.delete(customerAddresses).where(eq(customerAddresses.userId, target.id));
    // The user row stays (their orders point to it), so its wish list does not cascade away.
    await tx.delete(wishlistItems).where(eq(wishlistItems.userId, target.id));
    // Reset links hold the user id.
    await tx.delete(verifications).where(eq(verifications.value, target.id));
    await tx.update(users).set({ name: ERASED_NAME, email: placeholder, emailVerified: false, image: null, erasedAt: now, updatedAt: now }).where(eq(users.id, target.id));

    return { outcome: "erased", email: placeholder, ...erased };
  });
}

/**
 * What an account's and a guest's erasure share: everything held under one address (and, for
 * an account, under its id). Orders keep their lines and amounts, their buyer reduced to the
 * placeholder; withdrawals keep date and order; requests, answers and e-mails are blanked;
 * rate-limit counters and pending links keyed by the address go. Returns the photo keys to
 * delete from private storage.
 */
async function eraseByAddress(tx: Tx, who: { userId: string | null; email: string; placeholder: string; names: string[]; now: Date }) {
  const { email, placeholder, now } = who;
  const theirOrders = await tx
    .select({ id: orders.id, number: orders.number, customerName: orders.customerName, shippingAddress: orders.shippingAddress, billingAddress: orders.billingAddress })
    .from(orders)
    .where(who.userId ? ordersOf(who.userId, email) : sameAddress(orders.customerEmail, email));
  const theirRequests = await tx
    .select({ id: inboxMessages.id, firstName: inboxMessages.firstName, lastName: inboxMessages.lastName, phone: inboxMessages.phone, photos: inboxMessages.photos })
    .from(inboxMessages)
    .where(sameAddress(inboxMessages.email, email));
  const theirWithdrawals = await tx
    .select({ customerName: withdrawalRequests.customerName })
    .from(withdrawalRequests)
    .where(
      or(
        who.userId ? eq(withdrawalRequests.userId, who.userId) : undefined,
        sameAddress(withdrawalRequests.email, email),
        theirOrders.length ? inArray(withdrawalRequests.orderId, theirOrders.map((o) => o.id)) : undefined,
      ),
    );
  // How they are named (or reached) anywhere: a free-text value mentioning one of these is theirs.
  const names = new Set(
    [
      ...who.names,
      ...theirOrders.flatMap((o) => [o.customerName, o.shippingAddress?.fullName, o.shippingAddress?.phone, o.billingAddress?.fullName, o.billingAddress?.line1]),
      ...theirRequests.flatMap((r) => [r.firstName, r.lastName, `${r.firstName} ${r.lastName}`, r.phone]),
      ...theirWithdrawals.map((w) => w.customerName),
    ]
      .map((name) => name?.trim() ?? "")
      .filter((name) => name.length >= 3 && name !== ERASED_NAME && name !== ERASED_TEXT),
  );

  await eraseOrders(tx, theirOrders, { email, placeholder, names: [email, ...names] });
  // A withdrawal keeps its date and order (the seller must be able to show it); not the address nor the name.
  await tx
    .update(withdrawalRequests)
    .set({ email: placeholder, customerName: sql`case when ${withdrawalRequests.customerName} is null then null else ${ERASED_NAME}::text end` })
    .where(
      or(
        who.userId ? eq(withdrawalRequests.userId, who.userId) : undefined,
        sameAddress(withdrawalRequests.email, email),
        theirOrders.length ? inArray(withdrawalRequests.orderId, theirOrders.map((o) => o.id)) : undefined,
      ),
    );
  await tx
    .update(testPaymentSessions)
    .set({ customerEmail: placeholder })
    .where(or(sameAddress(testPaymentSessions.customerEmail, email), theirOrders.length ? inArray(testPaymentSessions.orderId, theirOrders.map((o) => o.id)) : undefined));
  await blankRequests(tx, theirRequests.map((r) => r.id), { email: placeholder, now });
  const emails = await eraseEmails(tx, { email, placeholder, orderNumbers: theirOrders.map((o) => o.number) });
  // "Prévenez-moi" alerts: nothing of them is kept (no legal duty to).
  const alerts = await tx.delete(stockAlerts).where(sameAddress(stockAlerts.email, email)).returning({ id: stockAlerts.id });
  // Anything else keyed by the address: pending links, rate-limit counters.
  await tx.delete(verifications).where(ilike(verifications.identifier, containsPattern(email)));
  await tx.delete(emailOptOuts).where(sameAddress(emailOptOuts.email, email));
  await tx.delete(rateLimits).where(ilike(rateLimits.key, `%:${escapeLike(email)}`));
  return {
    photoKeys: theirRequests.flatMap((r) => r.photos),
    orders: theirOrders.length,
    requests: theirRequests.length,
    emails,
    withdrawals: theirWithdrawals.length,
    alerts: alerts.length,
  };
}

/**
 * Requests (contact, buy-back) reduced to their kind, status, offer and dates: who wrote, what
 * they wrote, their photos' keys and the seller's answers are blanked (the caller deletes the
 * photo files). The erasures and the retention job (services/retention.server.ts) share it.
 */
export async function blankRequests(tx: Db | Tx, ids: string[], who: { email: string; now: Date }): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(inboxMessages)
    .set({
      lastName: ERASED_TEXT,
      firstName: ERASED_TEXT,
      email: who.email,
      phone: null,
      message: ERASED_TEXT,
      photos: [],
      offerNote: sql`case when ${inboxMessages.offerNote} is null then null else ${ERASED_TEXT} end`,
      updatedAt: who.now,
    })
    .where(inArray(inboxMessages.id, ids));
  await tx.update(inboxEvents).set({ body: ERASED_TEXT }).where(and(inArray(inboxEvents.messageId, ids), isNotNull(inboxEvents.body)));
  // The offer's copy of the seller's address, bank account and identity document goes too; the
  // register keeps its own for its 10 years (docs/decisions/056).
  await tx
    .update(buybackOffers)
    .set({ sellerAddress: null, accountHolder: null, iban: null, idType: null, idNumber: null, idAuthority: null, idIssuedOn: null, updatedAt: who.now })
    .where(inArray(buybackOffers.messageId, ids));
}

async function eraseOrders(
  tx: Tx,
  theirOrders: { id: string; shippingAddress: (typeof orders.$inferSelect)["shippingAddress"] }[],
  who: { email: string; placeholder: string; names: string[] },
) {
  for (const order of theirOrders) {
    await tx
      .update(orders)
      .set({
        customerEmail: who.placeholder,
        customerName: ERASED_NAME,
        shippingAddress: order.shippingAddress ? erasedAddress(order.shippingAddress) : null,
        // The invoice keeps it as issued (kept 10 years); the order does not.
        billingAddress: null,
        // A drop's keys for them (domain/drop-rules.ts): their address, their network.
        buyerEmailKey: null,
        buyerAddressKey: null,
        clientNetwork: null,
      })
      .where(eq(orders.id, order.id));
  }
  if (theirOrders.length === 0) return;
  // The timeline keeps its structure (carrier, refund id…); a value naming them is blanked.
  const mentions = who.names.map((name) => containsPattern(name));
  await tx
    .update(orderEvents)
    .set({
      details: sql`(select coalesce(jsonb_object_agg(key, case when value::text ilike any(${toTextArray(mentions)}) then to_jsonb(${ERASED_TEXT}::text) else value end), '{}'::jsonb) from jsonb_each(${orderEvents.details}))`,
    })
    .where(and(inArray(orderEvents.orderId, theirOrders.map((o) => o.id)), sql`${orderEvents.details}::text ilike any(${toTextArray(mentions)})`));
}

/**
 * E-mails to them (the address becomes the placeholder) and about them (the seller's copies
 * naming their address or one of their orders, or answering to it) lose subject and content;
 * those not yet sent never will be.
 */
async function eraseEmails(tx: Tx, who: { email: string; placeholder: string; orderNumbers: string[] }): Promise<number> {
  const mentions = [who.email, ...who.orderNumbers].map((text) => containsPattern(text));
  const mentioned = (column: AnyPgColumn): SQL => sql`${column} ilike any(${toTextArray(mentions)})`;
  const erased = await tx
    .update(outboxEmails)
    .set({
      to: sql`case when lower(${outboxEmails.to}) = ${who.email} then ${who.placeholder} else ${outboxEmails.to} end`,
      // The seller's copies answer the customer directly (withdrawal, contact): not any more.
      replyTo: sql`case when lower(${outboxEmails.replyTo}) = ${who.email} then null else ${outboxEmails.replyTo} end`,
      subject: ERASED_TEXT,
      html: ERASED_TEXT,
      text: ERASED_TEXT,
      headers: null,
      status: sql`case when ${outboxEmails.status} = 'pending' then 'failed' else ${outboxEmails.status} end`,
      lastError: sql`case when ${outboxEmails.status} = 'pending' then 'Destinataire effacé (RGPD) : non envoyé.' else ${outboxEmails.lastError} end`,
    })
    .where(or(sameAddress(outboxEmails.to, who.email), sameAddress(outboxEmails.replyTo, who.email), mentioned(outboxEmails.subject), mentioned(outboxEmails.html), mentioned(outboxEmails.text), mentioned(outboxEmails.lastError)))
    .returning({ id: outboxEmails.id });
  return erased.length;
}

/** array[$1, $2…]::text[], one parameter per value (the same on PGlite and node-postgres). */
function toTextArray(values: string[]): SQL {
  return sql`array[${sql.join(values.map((value) => sql`${value}`), sql`, `)}]::text[]`;
}

export type GuestExport = NonNullable<Awaited<ReturnType<typeof exportGuestData>>>;

/**
 * Everything held under an e-mail address (any case) for a person without an account: guest
 * orders, contact and buy-back requests, withdrawals, e-mails. Null for what is not an address.
 * `account` names the account that holds the address, if any (its own export covers more).
 */
export async function exportGuestData(db: Db, input: string, now = new Date()) {
  const email = normalizePrivacyEmail(input);
  if (!email) return null;
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ id: users.id }).from(users).where(sameAddress(users.email, email));
    return {
      format: "comptoir-donnees-personnelles/1",
      exportedAt: now.toISOString(),
      email,
      account: account ?? null,
      ...(await readByAddress(tx, { userId: null, email })),
    };
  });
}

export type GuestErasure =
  | { outcome: "erased"; photoKeys: string[]; orders: number; requests: number; emails: number; withdrawals: number; alerts: number }
  | { outcome: "missing"; message: string }
  | { outcome: "refused"; message: string; accountId?: string };

/**
 * Erases what is held under an e-mail address for a person without an account, in one
 * transaction, as an account's erasure does (see eraseByAddress): their orders keep lines and
 * amounts (kept 10 years for the accounts, Code de commerce L123-22, GDPR art. 17(3)(b)), their
 * name, address, phone and e-mail replaced; requests, answers and e-mails blanked; withdrawals
 * keep their date. Their invoices are NOT changed: an issued invoice must stay as issued,
 * buyer's name and address included (CGI art. 242 nonies A, legal obligation, GDPR art.
 * 17(3)(b)); they are kept 10 years and show only to the seller. Refused for an account's
 * address (its page erases it) and while an order of theirs is open. Returns the private photo
 * keys for the caller to delete from storage.
 */
export async function eraseGuest(db: Db, input: { email: string; now?: Date }): Promise<GuestErasure> {
  const email = normalizePrivacyEmail(input.email);
  if (!email) return { outcome: "refused", message: PRIVACY_EMAIL_INVALID };
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ id: users.id }).from(users).where(sameAddress(users.email, email));
    if (account) return { outcome: "refused", message: PRIVACY_IS_ACCOUNT, accountId: account.id };
    const [{ open } = { open: 0 }] = await tx
      .select({ open: count() })
      .from(orders)
      .where(and(sameAddress(orders.customerEmail, email), inArray(orders.status, [...OPEN_ORDER_STATUSES])));
    if (open > 0) return { outcome: "refused", message: PRIVACY_OPEN_ORDER };
    const erased = await eraseByAddress(tx, { userId: null, email, placeholder: erasedEmail(randomUUID()), names: [], now });
    if (erased.orders + erased.requests + erased.emails + erased.withdrawals + erased.alerts === 0) return { outcome: "missing", message: PRIVACY_NOTHING };
    return { outcome: "erased", ...erased };
  });
}

/**
 * The guest's erasure, then their buy-back photos deleted from private storage. The rows no
 * longer point to the photos: a file a storage failure leaves is only an orphan, counted in
 * `photosLeft` for the caller to log.
 */
export async function eraseGuestData(deps: { db: Db; privateFiles: FileStore }, input: { email: string; now?: Date }): Promise<GuestErasure | (Extract<GuestErasure, { outcome: "erased" }> & { photosLeft: number })> {
  const result = await eraseGuest(deps.db, input);
  if (result.outcome !== "erased") return result;
  const settled = await Promise.allSettled(result.photoKeys.map((key) => deps.privateFiles.delete(key)));
  return { ...result, photosLeft: settled.filter((r) => r.status === "rejected").length };
}
