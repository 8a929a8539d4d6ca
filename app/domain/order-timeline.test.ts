import { describe, expect, it } from "vitest";
import { formatEuros } from "./money";
import { type TimelineEvent, type TimelineOrder, buildTimeline, customerTimeline, emailIdsOf } from "./order-timeline";

const base: TimelineOrder = {
  status: "paid",
  createdAt: "2025-03-05T10:00:00.000Z",
  paidAt: "2025-03-05T10:05:00.000Z",
  shippedAt: null,
  refundedAt: null,
  updatedAt: "2025-03-05T10:05:00.000Z",
  carrier: null,
  trackingNumber: null,
  trackingUrl: null,
  refundReference: null,
  refundReason: null,
  totalCents: 4_250,
};

const event = (type: TimelineEvent["type"], at: string, details: Record<string, unknown> = {}, actorName: string | null = null): TimelineEvent => ({
  id: `${type}-${at}`,
  type,
  details,
  actorName,
  createdAt: at,
});

describe("buildTimeline", () => {
  it("tells an order without events from its timestamps", () => {
    const shipped = { ...base, status: "shipped" as const, shippedAt: "2025-03-06T08:00:00.000Z", carrier: "colissimo", trackingNumber: "6A123", trackingUrl: "https://www.laposte.fr/x" };
    const entries = buildTimeline(shipped, [], []);
    expect(entries.map((e) => e.title)).toEqual(["Commande créée", "Paiement reçu", "Commande expédiée"]);
    expect(entries[2]).toMatchObject({ detail: "Colissimo · n° 6A123", link: { href: "https://www.laposte.fr/x", label: "Suivre le colis" }, actorName: null });
  });

  it("prefers the events (who acted, which e-mails) to the timestamps they record, oldest first", () => {
    const emails = [
      { id: "m1", subject: "Votre commande a été expédiée", to: "marie@example.fr", status: "pending" as const },
      { id: "m2", subject: "Autre", to: "x@example.fr", status: "sent" as const },
    ];
    const shipped = { ...base, status: "shipped" as const, shippedAt: "2025-03-06T08:00:00.000Z", carrier: "ups", trackingNumber: "1Z" };
    const entries = buildTimeline(
      shipped,
      [
        event("shipped", "2025-03-06T08:00:00.000Z", { carrier: "ups", trackingNumber: "1Z", trackingUrl: "https://ups/1Z", emailIds: ["m1", "missing"] }, "Admin Comptoir"),
        event("created", "2025-03-05T10:00:00.000Z", {}, "Marie Curie"),
        event("paid", "2025-03-05T10:05:00.000Z", { paymentReference: "pi_123" }),
      ],
      emails,
    );
    expect(entries.map((e) => [e.title, e.actorName])).toEqual([
      ["Commande créée", "Marie Curie"],
      ["Paiement reçu", null],
      ["Commande expédiée", "Admin Comptoir"],
    ]);
    expect(entries[1]!.detail).toBe("Référence pi_123");
    expect(entries[2]).toMatchObject({ detail: "UPS · n° 1Z", link: { href: "https://ups/1Z" }, emails: [emails[0]] });
  });

  it("shows a seller's cancellation, a failed refund and the refund", () => {
    const refunded = { ...base, status: "refunded" as const, refundedAt: "2025-03-07T09:00:00.000Z", refundReference: "re_1", refundReason: "seller_cancel" as const };
    const entries = buildTimeline(
      refunded,
      [
        event("cancelled", "2025-03-07T08:00:00.000Z", { reason: "seller_cancel" }, "Admin"),
        event("refund_failed", "2025-03-07T08:00:01.000Z", { error: "Stripe (remboursement) : down" }, "Admin"),
        event("refunded", "2025-03-07T09:00:00.000Z", { refundId: "re_1", amountCents: 4_250 }),
      ],
      [],
    );
    expect(entries.map((e) => [e.title, e.tone])).toEqual([
      ["Commande créée", "neutral"],
      ["Paiement reçu", "success"],
      ["Commande annulée par le vendeur", "warning"],
      ["Échec du remboursement", "destructive"],
      ["Remboursement effectué", "success"],
    ]);
    expect(entries[3]!.detail).toBe("Stripe (remboursement) : down");
    expect(entries[4]!.detail).toBe(`${formatEuros(4_250)} · référence re_1`);
  });

  it("ends an unpaid order with its expiry or its abandonment", () => {
    const expired = buildTimeline({ ...base, status: "expired", paidAt: null, updatedAt: "2025-03-05T10:30:00.000Z" }, [], []);
    expect(expired.map((e) => e.title)).toEqual(["Commande créée", "Réservation expirée"]);
    const cancelled = buildTimeline({ ...base, status: "cancelled", paidAt: null }, [], []);
    expect(cancelled.at(-1)!.title).toBe("Paiement abandonné");
  });

  it("reads only string e-mail ids", () => {
    expect(emailIdsOf({ emailIds: ["a", 3, null, "b"] })).toEqual(["a", "b"]);
    expect(emailIdsOf({ emailIds: "a" })).toEqual([]);
    expect(emailIdsOf({})).toEqual([]);
  });
});

describe("customerTimeline", () => {
  it("keeps what happened to the order, without who acted for the shop, its e-mails, notes or a provider's error", () => {
    const refunded = { ...base, status: "refunded" as const, refundedAt: "2025-03-07T09:00:00.000Z", refundReference: "re_1" };
    const entries = customerTimeline(refunded, [
      event("created", "2025-03-05T10:00:00.000Z", { emailIds: ["m1"] }),
      event("paid", "2025-03-05T10:05:00.000Z", { paymentReference: "pi_123" }),
      event("note", "2025-03-05T11:00:00.000Z", { text: "Client pénible" }, "Admin Comptoir"),
      event("email", "2025-03-05T11:30:00.000Z", { subject: "Relance" }),
      event("cancelled", "2025-03-06T08:00:00.000Z", { reason: "seller_cancel" }, "Admin Comptoir"),
      event("refund_failed", "2025-03-06T08:01:00.000Z", { error: "Stripe: card_declined" }),
      event("payment_mismatch", "2025-03-06T08:02:00.000Z", { receivedCents: 100 }),
      event("refunded", "2025-03-07T09:00:00.000Z", { refundId: "re_1", amountCents: 4_250 }, "Admin Comptoir"),
    ]);
    expect(entries.map((e) => e.title)).toEqual(["Commande créée", "Paiement reçu", "Commande annulée par le vendeur", "Remboursement effectué"]);
    expect(entries.every((e) => e.actorName === null && e.emails.length === 0)).toBe(true);
    expect(entries[3]!.detail).toBe(`${formatEuros(4_250)} · référence re_1`);
  });
});
