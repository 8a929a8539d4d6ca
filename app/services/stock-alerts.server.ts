import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, inArray, isNull, lte, not, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { products, stockAlerts } from "~/db/schema";
import type { Db } from "~/db/types";
import { alertAvailableEmail, alertConfirmEmail } from "~/domain/alert-emails";
import type { MailShop } from "~/domain/email-templates";
import { productPath } from "~/domain/product-url";
import { ALERT_CONSENT_TEXT } from "~/domain/stock-alerts";
import { startPeriodicJob } from "~/lib/periodic-job.server";
import { absoluteUrl } from "~/lib/seo";
import { hasOptedOut, queueOptionalEmail, setEmailChoice } from "./email-choices.server";
import { queueEmail } from "./mail.server";
import { sendDueWishlistAlerts } from "./wishlist-alerts.server";

/**
 * "Prévenez-moi" (issue 39, point 4): an address waits for a product to open or come back.
 * Double opt-in (nothing is sent but the confirmation until its link is followed, the consent
 * then recorded), one e-mail when the product is on sale, an unsubscribe link that needs no
 * account. The links carry the alert's id and an HMAC of it: nothing secret is stored.
 */

type LinkPurpose = "confirmer" | "desinscription";

export function alertLinkToken(secret: string, purpose: LinkPurpose, alertId: string): string {
  return createHmac("sha256", secret).update(`alerte:${purpose}:${alertId}`).digest("base64url");
}

function validToken(secret: string, purpose: LinkPurpose, alertId: string, token: string): boolean {
  const expected = Buffer.from(alertLinkToken(secret, purpose, alertId));
  const given = Buffer.from(token);
  return UUID.test(alertId) && given.length === expected.length && timingSafeEqual(given, expected);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function alertLink(shop: MailShop, secret: string, purpose: LinkPurpose, alertId: string): string {
  return `${absoluteUrl(shop.publicUrl, `/alertes/${purpose}`)}?alerte=${alertId}&jeton=${alertLinkToken(secret, purpose, alertId)}`;
}

type Deps = { db: Db; shop: MailShop; secret: string };

/** A product one may wait for: on sale or coming, not archived. */
async function waitableProduct(db: Db, productId: number) {
  const [row] = await db
    .select({ id: products.id, title: products.title })
    .from(products)
    .where(and(eq(products.id, productId), inArray(products.status, ["en_ligne", "a_venir"]), isNull(products.archivedAt)));
  return row ?? null;
}

/**
 * Asks for an alert: a pending one and its confirmation e-mail, unless this address already
 * waits for this product (then nothing more is sent). False when the product cannot be waited for.
 */
export async function requestAlert(deps: Deps, input: { productId: number; email: string; now?: Date }): Promise<boolean> {
  const product = await waitableProduct(deps.db, input.productId);
  if (!product) return false;
  const email = input.email.trim().toLowerCase();
  await deps.db.transaction(async (tx) => {
    const waiting = await tx
      .select({ id: stockAlerts.id })
      .from(stockAlerts)
      .where(and(eq(stockAlerts.productId, product.id), eq(stockAlerts.email, email), inArray(stockAlerts.status, ["pending", "active"])))
      .limit(1);
    if (waiting.length > 0) return;
    const [alert] = await tx
      .insert(stockAlerts)
      .values({ productId: product.id, email, consentText: ALERT_CONSENT_TEXT, createdAt: input.now ?? new Date() })
      .returning({ id: stockAlerts.id });
    await queueEmail(tx as unknown as Db, {
      to: email,
      kind: "alert-confirm",
      content: alertConfirmEmail({
        shop: deps.shop,
        product: product.title,
        confirmUrl: alertLink(deps.shop, deps.secret, "confirmer", alert!.id),
        unsubscribeUrl: alertLink(deps.shop, deps.secret, "desinscription", alert!.id),
      }),
    });
  });
  return true;
}

export type AlertLinkView = { productTitle: string; status: "pending" | "active" | "sent" | "unsubscribed" } | null;

/** What a link points to (the page shows it before its button is pressed: a mail scanner that follows links changes nothing). */
export async function alertOfLink(db: Db, secret: string, purpose: LinkPurpose, alertId: string, token: string): Promise<AlertLinkView> {
  if (!validToken(secret, purpose, alertId, token)) return null;
  const [row] = await db
    .select({ productTitle: products.title, status: stockAlerts.status })
    .from(stockAlerts)
    .innerJoin(products, eq(products.id, stockAlerts.productId))
    .where(eq(stockAlerts.id, alertId));
  return row ?? null;
}

/**
 * The double opt-in's second step: the alert is on, its consent recorded now. Confirming is the
 * address's latest word: alerts switched off before (/account/notifications, a one-click link)
 * are on again, or this alert would never be sent.
 */
export async function confirmAlert(db: Db, secret: string, alertId: string, token: string, now = new Date()): Promise<boolean> {
  if (!validToken(secret, "confirmer", alertId, token)) return false;
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(stockAlerts)
      .set({ status: "active", confirmedAt: now })
      .where(and(eq(stockAlerts.id, alertId), eq(stockAlerts.status, "pending")))
      .returning({ email: stockAlerts.email });
    if (updated.length === 0) return false;
    await setEmailChoice(tx, updated[0]!.email, "stock-alerts", true);
    return true;
  });
}

/** Unsubscribes, whatever the alert's state: nothing more is sent. */
export async function unsubscribeAlert(db: Db, secret: string, alertId: string, token: string): Promise<boolean> {
  if (!validToken(secret, "desinscription", alertId, token)) return false;
  // The first withdrawal's date stays: the retention period counts from it (domain/retention.ts).
  const updated = await db
    .update(stockAlerts)
    .set({ status: "unsubscribed", unsubscribedAt: sql`coalesce(${stockAlerts.unsubscribedAt}, now())` })
    .where(eq(stockAlerts.id, alertId)).returning({ id: stockAlerts.id });
  return updated.length > 0;
}

const BATCH = 100;

/**
 * Sends the e-mail of every confirmed alert whose product is on sale now (opened, or back in
 * stock), once: the alerts are taken with SKIP LOCKED and turned "sent" in the transaction that
 * queues their e-mails, so instances running this together never send one twice.
 */
export async function sendDueAlerts(deps: Deps, now = new Date()): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: stockAlerts.id, email: stockAlerts.email, productId: products.id, title: products.title })
      .from(stockAlerts)
      .innerJoin(products, eq(products.id, stockAlerts.productId))
      .where(
        and(
          eq(stockAlerts.status, "active"),
          // Switched off: the alert waits, sent if they switch alerts on again while it is on sale.
          not(hasOptedOut(stockAlerts.email, "stock-alerts")),
          gt(products.stock, 0),
          isNull(products.archivedAt),
          or(eq(products.status, "en_ligne"), and(eq(products.status, "a_venir"), lte(products.dropTime, now))),
        ),
      )
      .limit(BATCH)
      .for("update", { of: stockAlerts, skipLocked: true });
    for (const alert of due) {
      await queueOptionalEmail(tx, deps, {
        to: alert.email,
        kind: "alert-available",
        optional: "stock-alerts",
        content: (unsubscribeUrl) =>
          alertAvailableEmail({
            shop: deps.shop,
            product: alert.title,
            productUrl: absoluteUrl(deps.shop.publicUrl, productPath({ id: alert.productId, name: alert.title })),
            unsubscribeUrl,
          }),
      });
    }
    if (due.length > 0) {
      await tx
        .update(stockAlerts)
        .set({ status: "sent", notifiedAt: now })
        .where(inArray(stockAlerts.id, due.map((alert) => alert.id)));
    }
    return due.length;
  });
}

export const ALERT_SWEEP_MS = 15_000;

/** A burst of stock changes (a drop's sales) costs one extra round, not one each. */
const KICK_DELAY_MS = 500;

/**
 * Sends due alerts, the « Prévenez-moi » ones and the wish list's (wishlist-alerts.server.ts),
 * every 15 s on each instance (SKIP LOCKED shares the work), and soon after `kick()`: a product
 * that opens, comes back or changes its price (the change feed) is told within a second.
 */
export function startAlertJob(deps: Deps & { logger: Logger; kickMail: () => void }, intervalMs = ALERT_SWEEP_MS) {
  return startPeriodicJob({
    async run() {
      const sent = await sendDueAlerts(deps);
      const wishlist = await sendDueWishlistAlerts(deps);
      if (sent + wishlist === 0) return;
      deps.logger.info({ sent, wishlist }, "alerts: products on sale, e-mails queued");
      deps.kickMail();
    },
    intervalMs,
    kickDelayMs: KICK_DELAY_MS,
    logger: deps.logger,
    failure: "alerts: sweep failed",
  });
}

/** The confirmed alerts still waiting, by product (the seller's view of a drop). */
export async function alertCounts(db: Db, productIds: number[]): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: stockAlerts.productId, n: sql<number>`count(*)::int` })
    .from(stockAlerts)
    .where(and(inArray(stockAlerts.productId, productIds), eq(stockAlerts.status, "active")))
    .groupBy(stockAlerts.productId);
  return new Map(rows.map((row) => [row.productId, row.n]));
}
