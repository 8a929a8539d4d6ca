import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { testPaymentSessions, testRefunds } from "~/db/schema";
import type { Db } from "~/db/types";
import { TEST_SIGNATURE_HEADER, signPayload, verifySignature } from "./signature";
import { type PaymentEvent, type PaymentProvider, PaymentProviderError, WebhookSignatureError } from "./types";

/**
 * The built-in test provider, the default without STRIPE_SECRET_KEY: a hosted page at
 * /paiement/{sessionId} (routes/payment-test.tsx) that behaves like Stripe Checkout in test
 * mode. Its sessions live in test_payment_sessions; its events are signed with a secret kept in
 * DATA_DIR and go through the same webhook path as Stripe's (services/payment-webhooks).
 */
export type TestProvider = PaymentProvider & {
  readonly name: "test";
  /** Signs an event body as the provider's webhook would send it. */
  sign(body: string): string;
};

/** The body of a test webhook: Stripe's shape reduced to what the shop reads. */
export type TestWebhookBody = {
  id: string;
  type: "checkout.session.completed" | "checkout.session.expired" | "checkout.session.async_payment_failed";
  created: number;
  /** The event's fields as the shop reads them (PaymentEvent), about one session. */
  data: Omit<PaymentEvent, "id" | "type" | "sessionId"> & { sessionId: string };
};

const TYPES: Record<TestWebhookBody["type"], PaymentEvent["type"]> = {
  "checkout.session.completed": "session.completed",
  "checkout.session.expired": "session.expired",
  "checkout.session.async_payment_failed": "session.async_payment_failed",
};

export const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url")}`;

export function createTestProvider(options: { db: Db; secret: string }): TestProvider {
  const { db, secret } = options;
  return {
    name: "test",
    async createSession(input) {
      const id = newId("cs_test");
      const [created] = await db
        .insert(testPaymentSessions)
        .values({
          id,
          idempotencyKey: input.idempotencyKey,
          orderId: input.orderId,
          orderNumber: input.orderNumber,
          // The hosted page lists the delivery as a line, with the price the server gave it.
          lines: [...input.lines, { name: `Livraison – ${input.shipping.name}`, unitAmountCents: input.shipping.amountCents, quantity: 1 }],
          discountCents: input.discountCents,
          storeCreditCents: input.storeCreditCents,
          totalCents: input.totalCents,
          customerEmail: input.customerEmail,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          expiresAt: input.expiresAt,
        })
        .onConflictDoNothing({ target: testPaymentSessions.idempotencyKey })
        .returning({ id: testPaymentSessions.id, cancelUrl: testPaymentSessions.cancelUrl });
      // Same key again: the session made the first time (as Stripe answers a retried request).
      const [session] = created
        ? [created]
        : await db
            .select({ id: testPaymentSessions.id, cancelUrl: testPaymentSessions.cancelUrl })
            .from(testPaymentSessions)
            .where(eq(testPaymentSessions.idempotencyKey, input.idempotencyKey));
      if (!session) throw new PaymentProviderError("test session vanished");
      // The hosted page is on this shop: its address comes from the same origin as the cancel URL.
      return { id: session.id, url: `${new URL(session.cancelUrl).origin}/paiement/${session.id}` };
    },

    async readWebhook(rawBody, headers) {
      if (!verifySignature(rawBody, headers.get(TEST_SIGNATURE_HEADER), secret)) throw new WebhookSignatureError();
      let body: TestWebhookBody;
      try {
        body = JSON.parse(rawBody) as TestWebhookBody;
      } catch {
        throw new WebhookSignatureError("Corps illisible");
      }
      if (typeof body?.id !== "string" || typeof body.data?.sessionId !== "string") throw new WebhookSignatureError("Événement illisible");
      return {
        id: body.id,
        type: TYPES[body.type] ?? "ignored",
        sessionId: body.data.sessionId,
        paid: body.type === "checkout.session.completed" && body.data.paid === true,
        paymentReference: body.data.paymentReference ?? null,
        customerEmail: body.data.customerEmail ?? null,
        customerName: body.data.customerName ?? null,
        shippingAddress: body.data.shippingAddress ?? null,
        billingAddress: body.data.billingAddress ?? null,
        amountTotalCents: body.data.amountTotalCents ?? null,
        currency: body.data.currency ?? null,
      };
    },

    async expireSession(sessionId) {
      const [session] = await db.select({ status: testPaymentSessions.status }).from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
      if (session?.status === "complete") throw new PaymentProviderError("session already paid");
      await db.update(testPaymentSessions).set({ status: "expired" }).where(and(eq(testPaymentSessions.id, sessionId), eq(testPaymentSessions.status, "open")));
    },

    async refund(input) {
      // As Stripe: a key already used answers its refund (another amount under it is an error),
      // and the refunds of a payment never exceed what it took.
      const [same] = await db.select({ id: testRefunds.id, amountCents: testRefunds.amountCents }).from(testRefunds).where(eq(testRefunds.idempotencyKey, input.idempotencyKey));
      if (same) {
        if (same.amountCents !== input.amountCents) throw new PaymentProviderError("idempotency key reused with another amount");
        return { id: same.id };
      }
      const [paid] = await db.select({ totalCents: testPaymentSessions.totalCents }).from(testPaymentSessions).where(eq(testPaymentSessions.paymentReference, input.paymentReference));
      const [given] = await db
        .select({ cents: sql<number>`coalesce(sum(${testRefunds.amountCents}), 0)`.mapWith(Number) })
        .from(testRefunds)
        .where(eq(testRefunds.paymentReference, input.paymentReference));
      if (paid && (given?.cents ?? 0) + input.amountCents > paid.totalCents) throw new PaymentProviderError("refund amount greater than what is left of the payment");
      const [created] = await db
        .insert(testRefunds)
        .values({ id: newId("re_test"), idempotencyKey: input.idempotencyKey, paymentReference: input.paymentReference, amountCents: input.amountCents })
        .onConflictDoNothing({ target: testRefunds.idempotencyKey })
        .returning({ id: testRefunds.id });
      if (created) return created;
      const [existing] = await db.select({ id: testRefunds.id }).from(testRefunds).where(eq(testRefunds.idempotencyKey, input.idempotencyKey));
      return existing!;
    },

    sign: (body) => signPayload(body, secret),
  };
}

/** A signed test webhook (body and headers) for an event about a session. */
export function testWebhook(provider: TestProvider, type: TestWebhookBody["type"], data: TestWebhookBody["data"]) {
  const body: TestWebhookBody = { id: newId("evt_test"), type, created: Math.floor(Date.now() / 1000), data };
  const raw = JSON.stringify(body);
  return { raw, headers: new Headers({ "content-type": "application/json", [TEST_SIGNATURE_HEADER]: provider.sign(raw) }) };
}
