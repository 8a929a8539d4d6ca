import { and, eq, inArray, like } from "drizzle-orm";
import pino from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/client.server";
import { cgvSnapshots, orders, outboxEmails, products, rateLimits } from "~/db/schema";
import { cgvFileName } from "~/domain/cgv-snapshot";
import { RETAINED_EMAIL_TEXT } from "~/domain/retention";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { type CgvSource, recordCgvSnapshot, renderCgvBlocks } from "~/services/cgv.server";
import type { CheckoutContext } from "~/services/checkout.server";
import { getOrderView } from "~/services/orders.server";
import { createTestProvider } from "~/services/payments/test-provider.server";
import type { PaymentProvider } from "~/services/payments/types";
import { runRetention } from "~/services/retention.server";
import { saveShopIdentity } from "~/services/shop-identity.server";
import { localDiskStore } from "~/services/storage.server";
import { startMailWorker } from "../../server/mail-worker";
import { HAS_PDFTOTEXT, pdfText } from "../support/pdf-text";
import { checkoutAndPay } from "./paid-checkout";
import { startSmtpServer } from "./smtp-server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * The CGV as a durable medium (issue 52): each order records the version of the CGV it was
 * placed under, one row per version whatever the number of orders or instances; the order
 * confirmation goes out with that version as a PDF, and it and the version outlive the 90-day
 * purge of the other e-mails.
 */
const deps = { shop: { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" }, sellerEmail: "vendeur@comptoir.example" };
const cgv: Omit<CgvSource, "paymentProvider"> = {
  shopName: "Comptoir",
  siteUrl: "https://comptoir.example",
  legalDefaults: { ...EMPTY_IDENTITY, companyName: "Comptoir SAS", address: "12 rue des Lilas, 69001 Lyon", email: "contact@comptoir.example" },
};
const DAY_MS = 24 * 60 * 60 * 1000;

describe(`CGV kept per order on ${databaseLabel}`, () => {
  let database: Database;
  let provider: PaymentProvider;
  let n = 0;
  const db = () => database.db;
  const ctx = (): CheckoutContext => ({ now: new Date(), customer: null, clientIp: `198.51.100.${++n % 250}`, orderPrefix: "CPT", origin: "http://shop.test", reservationMinutes: 30, cgv });
  const snapshotCount = async () => (await db().select({ id: cgvSnapshots.id }).from(cgvSnapshots)).length;

  async function paidOrder() {
    const [product] = await db().insert(products).values({ title: `Display test ${++n}`, priceCents: 14_999, stock: 5, category: "TCG", subCategory: "Scellés" }).returning();
    await db().delete(rateLimits);
    return checkoutAndPay(db(), provider, [{ productId: product!.id, quantity: 1 }], { ctx: ctx(), deps, intent: `pay_${n}` });
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    provider = createTestProvider({ db: database.db, secret: "test-secret" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("gives two orders under the same CGV one snapshot, and an order after the identity changed a new one", async () => {
    const first = await paidOrder();
    const second = await paidOrder();
    expect(first.cgvSnapshotId).not.toBeNull();
    expect(second.cgvSnapshotId).toBe(first.cgvSnapshotId);
    expect(await snapshotCount()).toBe(1);
    const [stored] = await db().select().from(cgvSnapshots).where(eq(cgvSnapshots.id, first.cgvSnapshotId!));
    const text = stored!.blocks.map((block) => block.text).join("\n");
    expect(text).toContain("12 rue des Lilas, 69001 Lyon");

    // The seller moves: the CGV name the new address, a new version; the first orders keep theirs.
    await saveShopIdentity(db(), { ...cgv.legalDefaults, address: "3 place du Marché, 69002 Lyon" });
    const third = await paidOrder();
    expect(third.cgvSnapshotId).not.toBe(first.cgvSnapshotId);
    expect(await snapshotCount()).toBe(2);
    const [moved] = await db().select().from(cgvSnapshots).where(eq(cgvSnapshots.id, third.cgvSnapshotId!));
    expect(moved!.blocks.map((block) => block.text).join("\n")).toContain("3 place du Marché, 69002 Lyon");
    expect((await db().select({ cgv: orders.cgvSnapshotId }).from(orders).where(eq(orders.id, first.id)))[0]!.cgv).toBe(first.cgvSnapshotId);

    // The order's page reads its version: hash and date.
    const view = await getOrderView(db(), first.id);
    expect(view!.cgv).toEqual({ hash: stored!.hash, createdAt: stored!.createdAt.toISOString() });
  });

  it("keeps one row when several record the same version at once", async () => {
    const blocks = renderCgvBlocks({ identity: { ...cgv.legalDefaults, phone: "04 72 00 00 00" }, shopName: "Comptoir", siteUrl: cgv.siteUrl, paymentProvider: "test" });
    const before = await snapshotCount();
    const recorded = await Promise.all(Array.from({ length: 8 }, () => recordCgvSnapshot(db(), blocks)));
    expect(new Set(recorded.map((row) => row.id)).size).toBe(1);
    expect(await snapshotCount()).toBe(before + 1);
    expect(await db().select({ id: cgvSnapshots.id }).from(cgvSnapshots).where(eq(cgvSnapshots.hash, recorded[0]!.hash))).toHaveLength(1);
  });

  it("keeps the order confirmation and its CGV past the 90-day purge, and clears the seller's notice", async () => {
    const order = await paidOrder();
    const mails = await db().select().from(outboxEmails).where(inArray(outboxEmails.kind, ["order-confirmation", "seller-new-order"]));
    const confirmation = mails.find((mail) => mail.kind === "order-confirmation" && mail.to === "marie@example.com" && mail.text.includes(order.number))!;
    const notice = mails.find((mail) => mail.kind === "seller-new-order" && mail.text.includes(order.number))!;
    expect(confirmation.cgvSnapshotId).toBe(order.cgvSnapshotId);
    const sentAt = new Date(Date.now() - 91 * DAY_MS);
    await db().update(outboxEmails).set({ status: "sent", sentAt }).where(inArray(outboxEmails.id, [confirmation.id, notice.id]));

    await runRetention({ db: db(), privateFiles: localDiskStore("/nonexistent-cgv-test") }, new Date());
    const [keptConfirmation] = await db().select().from(outboxEmails).where(eq(outboxEmails.id, confirmation.id));
    const [clearedNotice] = await db().select().from(outboxEmails).where(eq(outboxEmails.id, notice.id));
    expect(keptConfirmation).toMatchObject({ subject: confirmation.subject, html: confirmation.html, text: confirmation.text, cgvSnapshotId: order.cgvSnapshotId });
    expect(clearedNotice).toMatchObject({ subject: RETAINED_EMAIL_TEXT, html: RETAINED_EMAIL_TEXT, text: RETAINED_EMAIL_TEXT });
    expect(await db().select({ id: cgvSnapshots.id }).from(cgvSnapshots).where(eq(cgvSnapshots.id, order.cgvSnapshotId!))).toHaveLength(1);
  });

  it.skipIf(!HAS_PDFTOTEXT)("sends the order confirmation with the order's CGV as a PDF that reads as that version", async () => {
    const order = await paidOrder();
    const [stored] = await db().select().from(cgvSnapshots).where(eq(cgvSnapshots.id, order.cgvSnapshotId!));
    // Only this order's confirmation is due: the others wait.
    await db().update(outboxEmails).set({ nextAttemptAt: new Date(Date.now() + DAY_MS) }).where(eq(outboxEmails.status, "pending"));
    await db().update(outboxEmails).set({ nextAttemptAt: new Date(0) }).where(and(eq(outboxEmails.kind, "order-confirmation"), like(outboxEmails.text, `%${order.number}%`)));
    const relay = await startSmtpServer();
    const worker = startMailWorker({ db: db(), smtpUrl: `smtp://127.0.0.1:${relay.port}`, from: { name: "Comptoir", address: "contact@comptoir.example" }, logger: pino({ level: "silent" }), shopName: "Comptoir", pollMs: 60_000 });
    try {
      const message = await vi.waitFor(
        async () => {
          const raw = relay.received.find((mail) => mail.raw.toString("latin1").includes(order.number));
          if (!raw) throw new Error("not received yet");
          return PostalMime.parse(raw.raw);
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(message.subject).toContain(order.number);
      const pdf = message.attachments.find((attachment) => attachment.filename === cgvFileName(stored!.hash));
      expect(pdf?.mimeType).toBe("application/pdf");
      const text = pdfText(Buffer.from(pdf!.content as ArrayBuffer));
      expect(text).toContain("Conditions générales de vente");
      expect(text).toContain("Article 8 – Droit de rétractation");
      expect(text).toContain("Comptoir SAS");
      expect(text).toContain(`Version ${stored!.hash.slice(0, 8)}`);
    } finally {
      await worker.stop();
      await relay.close();
    }
  });
});
