import type { LegalIdentity } from "~/domain/shop-identity";
import { sellerIdentity } from "./invoices.server";
import { randomInt } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { data } from "react-router";
import { outboxEmails, products } from "~/db/schema";
import type { Db } from "~/db/types";
import type { MailShop } from "~/domain/email-templates";
import {
  type EmailTestAnswer,
  type EmailTestResult,
  type TestEmailOutcome,
  TOO_SOON,
  buildTestOrder,
  emailTestError,
  itemCount,
} from "~/domain/email-test";
import {
  orderConfirmationEmail,
  sellerNewOrderEmail,
} from "~/domain/order-emails";
import type { AppContext, SendMailNow } from "~/lib/context";
import {
  type QueuedEmail,
  queueEmail,
  recordEmailFailure,
  recordEmailSent,
} from "./mail.server";
import { webhookDepsFrom } from "./payment-webhooks.server";
import { consumeRateLimit } from "./rate-limit.server";
import { requireAdmin } from "./session.server";

export type EmailTestDeps = {
  shop: MailShop;
  /** Receives the seller notification, as for a real order (SELLER_EMAIL, else SHOP_EMAIL). */
  sellerEmail: string;
  /** Who runs the test: the customer confirmation goes to them, the one reader who expects it. */
  admin: { name: string; email: string };
  /** SMTP at once (through the mail worker's transport), or null: the outbox. */
  sendNow: SendMailNow | null;
  /** The configured identity (the confirmation names the seller as a real one does). */
  legal?: LegalIdentity;
  now?: Date;
};

/**
 * Held out of the mail worker's reach while this request sends them, as the worker's own claim
 * does (longer than a send can last); should the process die mid-send, the worker sends them after.
 */
const SEND_LEASE_MS = 5 * 60_000;

type EmailKey = "confirmationEmail" | "notificationEmail";

/**
 * The e-mail test: a test order built in memory (never written: no order row, no stock held,
 * nothing in the customers' figures) from the first two products online, its customer
 * confirmation and seller notification rendered with the real templates, then sent through the
 * real path. With SMTP, sent at once and recorded in the outbox as sent or failed; without, left
 * in the outbox, pending, as every e-mail of the shop.
 */
export async function runOrderEmailTest(
  db: Db,
  deps: EmailTestDeps,
): Promise<EmailTestResult> {
  const lines = await db
    .select({
      productId: products.id,
      name: products.title,
      unitPriceCents: products.priceCents,
    })
    .from(products)
    .where(and(eq(products.status, "en_ligne"), isNull(products.archivedAt)))
    .orderBy(asc(products.id))
    .limit(2);
  const order = buildTestOrder({
    lines,
    customer: deps.admin,
    now: deps.now ?? new Date(),
    random4: randomInt(10_000),
  });
  const emails: Record<EmailKey, QueuedEmail> = {
    confirmationEmail: {
      to: deps.admin.email,
      kind: "test-order-confirmation",
      // No link: the test order has no page.
      content: orderConfirmationEmail({
        shop: deps.shop,
        order,
        orderUrl: null,
        seller: await sellerIdentity(db, deps),
        invoiceUrl: null,
      }),
    },
    notificationEmail: {
      to: deps.sellerEmail,
      kind: "test-seller-new-order",
      content: sellerNewOrderEmail({
        shop: deps.shop,
        order,
        adminUrl: `${deps.shop.publicUrl}/admin`,
      }),
    },
  };
  const { sendNow } = deps;

  const ids = await db.transaction(async (tx) => {
    const queued = {
      confirmationEmail: (await queueEmail(tx, emails.confirmationEmail)).id,
      notificationEmail: (await queueEmail(tx, emails.notificationEmail)).id,
    };
    if (sendNow) {
      await tx
        .update(outboxEmails)
        .set({
          nextAttemptAt: sql`now() + ${SEND_LEASE_MS}::integer * interval '1 millisecond'`,
        })
        .where(inArray(outboxEmails.id, Object.values(queued)));
    }
    return queued;
  });

  async function deliver(key: EmailKey): Promise<TestEmailOutcome> {
    const { to, content } = emails[key];
    const outboxId = ids[key];
    if (!sendNow)
      return {
        status: "queued",
        sentTo: to,
        id: outboxId,
        outboxId,
        error: null,
      };
    let messageId: string;
    try {
      ({ messageId } = await sendNow({ to, ...content }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Failed for good, as the admin expects of a test; /admin/emails can put it back in the queue.
      await recordEmailFailure(db, outboxId, {
        error: message,
        permanent: true,
        retryInMs: 0,
      });
      return {
        status: "failed",
        sentTo: to,
        id: outboxId,
        outboxId,
        error: message,
      };
    }
    await recordEmailSent(db, outboxId);
    return { status: "sent", sentTo: to, id: messageId, outboxId, error: null };
  }

  const [confirmationEmail, notificationEmail] = await Promise.all([
    deliver("confirmationEmail"),
    deliver("notificationEmail"),
  ]);
  const error = emailTestError({ confirmationEmail, notificationEmail });
  return {
    success: error === null,
    error,
    confirmationEmail,
    notificationEmail,
    orderDetails: {
      orderNumber: order.number,
      totalCents: order.totalCents,
      items: itemCount(order),
    },
  };
}

/** What the page shows before a test: how the e-mails leave and where they go. */
export async function emailTestSetup(request: Request, context: AppContext) {
  const admin = await requireAdmin(request, context);
  return {
    delivery: context.sendMailNow ? ("smtp" as const) : ("outbox" as const),
    recipients: {
      confirmationEmail: admin.email,
      notificationEmail: context.checkout.sellerEmail,
    },
  };
}

/**
 * POST of the test page (/admin/test-email and /test-email): admins only (a customer gets 403
 * and nothing is sent), at most one run every few seconds, and an unexpected failure answered
 * as such (logged, never a half-shown page).
 */
export async function emailTestAction(request: Request, context: AppContext) {
  const admin = await requireAdmin(request, context, "api");
  if (
    (await consumeRateLimit(context.db, "emailTestPerAdmin", admin.id)).blocked
  ) {
    return data<EmailTestAnswer>(
      { kind: "refused", error: TOO_SOON },
      { status: 429 },
    );
  }
  const { shop, sellerEmail, legal } = webhookDepsFrom(context);
  try {
    const result = await runOrderEmailTest(context.db, {
      shop,
      sellerEmail,
      legal,
      admin,
      sendNow: context.sendMailNow,
    });
    context.logger[result.success ? "info" : "warn"](
      {
        adminId: admin.id,
        orderNumber: result.orderDetails.orderNumber,
        confirmation: result.confirmationEmail.status,
        notification: result.notificationEmail.status,
        err: result.error ?? undefined,
      },
      "admin: order e-mail test",
    );
    return data<EmailTestAnswer>({ kind: "result", result });
  } catch (error) {
    context.logger.error(
      { err: error, adminId: admin.id },
      "admin: order e-mail test failed",
    );
    return data<EmailTestAnswer>(
      { kind: "error", error: null },
      { status: 500 },
    );
  }
}
