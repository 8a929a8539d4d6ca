import { describe, expect, it } from "vitest";
import { type EmailTestAnswer, type EmailTestResult, SAMPLE_TEST_LINES, TOO_SOON, buildTestOrder, emailTestError, emailTestToast, itemCount } from "./email-test";
import { ORDER_NUMBER_PATTERN } from "./order-number";

const customer = { name: "Admin Test", email: "admin@comptoir.test" };
const now = new Date("2026-03-05T13:30:00.000Z");

describe("the test order", () => {
  it("takes the first two lines, once and twice, with the checkout's totals (insurance chosen)", () => {
    const order = buildTestOrder({
      lines: [
        { productId: 4, name: "Booster", unitPriceCents: 599 },
        { productId: 7, name: "Display", unitPriceCents: 21_990 },
        { productId: 9, name: "De trop", unitPriceCents: 100 },
      ],
      customer,
      now,
      random4: 42,
    });
    expect(order.lines).toEqual([
      { productId: 4, name: "Booster", unitPriceCents: 599, quantity: 1, lineTotalCents: 599 },
      { productId: 7, name: "Display", unitPriceCents: 21_990, quantity: 2, lineTotalCents: 43_980 },
    ]);
    // 445,79 € of articles: the 10 € tier of the parcel insurance.
    expect(order).toMatchObject({ subtotalCents: 44_579, insuranceCents: 1_000, discountCents: 0, totalCents: 45_579, discountCode: null });
    expect(itemCount(order)).toBe(3);
  });

  it("is numbered like a real order, with the TEST prefix, paid now, for the admin", () => {
    const order = buildTestOrder({ lines: [], customer, now, random4: 42 });
    expect(order.number).toBe(`TEST-${String(now.getTime()).slice(-6)}-0042`);
    expect(order.number).toMatch(ORDER_NUMBER_PATTERN);
    expect(order).toMatchObject({ status: "paid", createdAt: now.toISOString(), paidAt: now.toISOString(), customerEmail: customer.email, customerName: customer.name });
    expect(order.shippingAddress).toMatchObject({ method: "home", fullName: customer.name, country: "FR" });
  });

  it("uses sample lines when the catalogue has no product online", () => {
    const order = buildTestOrder({ lines: [], customer, now, random4: 1 });
    expect(order.lines.map((line) => line.name)).toEqual(SAMPLE_TEST_LINES.map((line) => line.name));
    expect(order.subtotalCents).toBe(599 + 2 * 15_990);
    expect(order.totalCents).toBe(order.subtotalCents + 1_000);
  });

  it("counts one line when the catalogue has one product", () => {
    const order = buildTestOrder({ lines: [{ productId: 1, name: "Seul", unitPriceCents: 120_000 }], customer, now, random4: 1 });
    // Above 1 000 €: no insurance offered.
    expect(order).toMatchObject({ subtotalCents: 120_000, insuranceCents: 0, totalCents: 120_000 });
    expect(itemCount(order)).toBe(1);
  });
});

const outcome = (status: "sent" | "queued" | "failed", error: string | null = null) => ({ status, sentTo: "a@example.com", id: "x", outboxId: "y", error });

function result(confirmation: ReturnType<typeof outcome>, notification: ReturnType<typeof outcome>): EmailTestResult {
  const error = emailTestError({ confirmationEmail: confirmation, notificationEmail: notification });
  return { success: error === null, error, confirmationEmail: confirmation, notificationEmail: notification, orderDetails: { orderNumber: "TEST-000000-0000", totalCents: 100, items: 1 } };
}

describe("the test's error", () => {
  it("is null when nothing failed (sent or waiting in the outbox)", () => {
    expect(emailTestError(result(outcome("sent"), outcome("queued")))).toBeNull();
  });

  it("names the e-mails that failed and the first reason", () => {
    expect(emailTestError(result(outcome("failed", "550 Mailbox unknown"), outcome("sent")))).toBe("Envoi impossible (confirmation client)\u00a0: 550 Mailbox unknown");
    expect(emailTestError(result(outcome("failed", "connect ECONNREFUSED"), outcome("failed", "autre")))).toBe(
      "Envoi impossible (confirmation client et notification vendeur)\u00a0: connect ECONNREFUSED",
    );
    expect(emailTestError(result(outcome("sent"), outcome("failed")))).toBe("Envoi impossible (notification vendeur)\u00a0: raison inconnue");
  });
});

describe("the toasts of SPEC.md section 8", () => {
  const answer = (r: EmailTestResult): EmailTestAnswer => ({ kind: "result", result: r });

  it("Test réussi when both e-mails left or wait in the outbox", () => {
    expect(emailTestToast(answer(result(outcome("queued"), outcome("queued"))))).toEqual({
      ok: true,
      toast: { title: "Test réussi", description: "Les emails de test ont été envoyés avec succès." },
    });
  });

  it("Échec du test with the returned error, or the default text", () => {
    const failed = result(outcome("failed", "550 Mailbox unknown"), outcome("sent"));
    expect(emailTestToast(answer(failed))).toEqual({ ok: false, toast: { title: "Échec du test", description: "Envoi impossible (confirmation client)\u00a0: 550 Mailbox unknown" } });
    expect(emailTestToast(answer({ ...failed, error: null }))).toEqual({ ok: false, toast: { title: "Échec du test", description: "Une erreur est survenue lors du test des emails." } });
    expect(emailTestToast({ kind: "refused", error: TOO_SOON })).toEqual({ ok: false, toast: { title: "Échec du test", description: TOO_SOON } });
  });

  it("Erreur on a thrown failure, Erreur inconnue when it says nothing", () => {
    expect(emailTestToast({ kind: "error", error: null })).toEqual({ ok: false, toast: { title: "Erreur", description: "Erreur inconnue" } });
    expect(emailTestToast({ kind: "error", error: "Réseau indisponible" })).toEqual({ ok: false, toast: { title: "Erreur", description: "Réseau indisponible" } });
  });
});
