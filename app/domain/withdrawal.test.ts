import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "./catalog-values";
import type { OrderView } from "./order-view";
import {
  refundDeadline,
  requestMoment,
  requestedLabel,
  withdrawalRefusal,
  withdrawalState,
} from "./withdrawal";
import { sellerWithdrawalEmail, withdrawalAcknowledgementEmail } from "./withdrawal-emails";
import { WITHDRAWAL_NAME_MESSAGES, withdrawalLookupSchema, withdrawalNameSchema } from "./withdrawal-lookup-schema";

const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
// 14:05 in Paris (summer time, UTC+2).
const requestedAt = "2026-06-21T12:05:00.000Z";

const order: OrderView = {
  id: "5b0b8e9e-3f43-4a5c-9d55-8d1b8b2b0a11",
  number: "CPT-482913-0071",
  status: "shipped",
  refundReason: null,
  createdAt: "2026-06-15T08:00:00.000Z",
  paidAt: "2026-06-15T08:02:00.000Z",
  customerEmail: "marie@example.fr",
  customerName: "Marie Curie",
  lines: [
    { productId: 1, name: "Booster Écarlate et Violet", unitPriceCents: 599, quantity: 3, lineTotalCents: 1797 },
    { productId: 2, name: "Display Mascarade Crépusculaire", unitPriceCents: 21_990, quantity: 1, lineTotalCents: 21_990 },
  ],
  subtotalCents: 23_787,
  insuranceCents: 0,
  discountCents: 0,
  discountCode: null,
  totalCents: 23_787,
  shippingAddress: null,
  shipping: null,
  vatRegime: "normal",
  vatBreakdown: [],
  documents: [],
};

describe("who may withdraw", () => {
  it("paid and shipped orders only, whatever their age; the others get a French reason", () => {
    const open = ORDER_STATUSES.filter((status) => withdrawalRefusal(status) === null);
    expect(open).toEqual(["paid", "shipped"]);
    for (const status of ["pending_payment", "cancelled", "expired", "refund_pending", "refunded"] as const) {
      expect(withdrawalRefusal(status), status).toMatch(/^Cette commande /);
    }
  });

  it("says what the order shows: the button, the request already made, or nothing", () => {
    expect(withdrawalState("paid", null)).toEqual({ kind: "available" });
    expect(withdrawalState("shipped", null)).toEqual({ kind: "available" });
    expect(withdrawalState("refunded", null)).toEqual({ kind: "unavailable" });
    // Once asked, it stays asked, even after the refund.
    expect(withdrawalState("refunded", requestedAt)).toEqual({ kind: "requested", requestedAt });
    expect(withdrawalState("shipped", requestedAt)).toEqual({ kind: "requested", requestedAt });
  });
});

describe("dates in Paris time", () => {
  it("gives the date and the time of the request, summer and winter", () => {
    expect(requestMoment(requestedAt)).toEqual({ date: "21 juin 2026", time: "14:05" });
    expect(requestMoment(new Date("2026-12-01T23:30:00Z"))).toEqual({ date: "2 décembre 2026", time: "00:30" });
    expect(requestedLabel(requestedAt)).toBe("Rétractation demandée le 21 juin 2026 à 14:05");
  });

  it("puts the refund deadline 14 days after the request", () => {
    expect(refundDeadline(requestedAt)).toBe("5 juillet 2026");
  });
});

describe("the public form", () => {
  const schema = withdrawalLookupSchema("CPT");

  it("reads the number in any case and the e-mail in lower case, trimmed", () => {
    expect(schema.parse({ orderNumber: "  cpt-482913-0071 ", email: " Marie@Example.FR " })).toEqual({ orderNumber: "CPT-482913-0071", email: "marie@example.fr" });
  });

  it("refuses a malformed number or e-mail in French, with the shop's own example", () => {
    const result = schema.safeParse({ orderNumber: "482913", email: "marie@" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["orderNumber", "Numéro de commande invalide : il s'écrit comme CPT-123456-0042."],
      ["email", "Merci d'entrer une adresse email valide"],
    ]);
    expect(withdrawalLookupSchema("BTQ").safeParse({}).error?.issues[0]?.message).toBe("Numéro de commande invalide : il s'écrit comme BTQ-123456-0042.");
    expect(schema.safeParse({ orderNumber: "CPT-482913-0071", email: `${"a".repeat(250)}@example.fr` }).success).toBe(false);
  });
});

describe("the consumer's name (with the confirmation button)", () => {
  const nameOf = (customerName: unknown) => withdrawalNameSchema.safeParse({ customerName });
  const messageOf = (customerName: unknown) => nameOf(customerName).error?.issues.map((issue) => [issue.path[0], issue.message])[0];

  it("takes one name or several, trimmed, inner spaces collapsed", () => {
    expect(withdrawalNameSchema.parse({ customerName: "  Marie   Curie " })).toEqual({ customerName: "Marie Curie" });
    // A pasted line break or tab is a space, not a refusal.
    expect(withdrawalNameSchema.parse({ customerName: "Marie\n\tCurie" })).toEqual({ customerName: "Marie Curie" });
    expect(withdrawalNameSchema.parse({ customerName: "Marie Curie et Pierre Curie" })).toEqual({ customerName: "Marie Curie et Pierre Curie" });
    expect(withdrawalNameSchema.parse({ customerName: "Zoé O'Brien-Lê" }).customerName).toBe("Zoé O'Brien-Lê");
    expect(nameOf("Al").success).toBe(true);
    expect(nameOf("x".repeat(200)).success).toBe(true);
  });

  it("refuses a missing, empty or invisible name in French, on the customerName field", () => {
    expect(WITHDRAWAL_NAME_MESSAGES.missing).toBe("Indiquez votre nom et votre prénom (au moins 2 caractères).");
    for (const missing of [undefined, "", "   ", "A", "\u200b\u200b\u200b", 42]) {
      expect(messageOf(missing), JSON.stringify(missing)).toEqual(["customerName", WITHDRAWAL_NAME_MESSAGES.missing]);
    }
    expect(withdrawalNameSchema.safeParse({}).error?.issues[0]?.message).toBe(WITHDRAWAL_NAME_MESSAGES.missing);
  });

  it("refuses a name too long, or with control characters or bidi overrides", () => {
    expect(messageOf("x".repeat(201))).toEqual(["customerName", "Le nom doit contenir au plus 200 caractères."]);
    expect(messageOf("Marie\u0000Curie")).toEqual(["customerName", "Le nom contient des caractères non autorisés."]);
    expect(messageOf("Marie \u202Eeiruc")).toEqual(["customerName", "Le nom contient des caractères non autorisés."]);
  });
});

describe("the acknowledgement e-mail", () => {
  const ack = withdrawalAcknowledgementEmail({ shop, order, requestedAt, customerName: "Marie Curie", returnAddress: "12 rue des Lilas, 69001 Lyon" });

  it("names the order, its products, the date and the time of the request, in HTML and in text", () => {
    expect(ack.subject).toBe("Accusé de réception de votre rétractation – commande CPT-482913-0071");
    for (const body of [ack.html, ack.text]) {
      expect(body).toContain("le 21 juin 2026 à 14:05 (heure de Paris)");
      expect(body).toContain("CPT-482913-0071");
      expect(body).toContain("Booster Écarlate et Violet");
      expect(body).toContain("Display Mascarade Crépusculaire");
      expect(body).toContain("237,87");
    }
    expect(ack.text).toContain("Demande reçue le : 21 juin 2026 à 14:05 (heure de Paris)");
  });

  it("repeats the name given in the form, not the order's", () => {
    const email = withdrawalAcknowledgementEmail({ shop, order, requestedAt, customerName: "Marie et Pierre Curie", returnAddress: null });
    for (const body of [email.html, email.text]) {
      expect(body).toContain("Bonjour Marie et Pierre Curie,");
      expect(body).toContain("Au nom de");
      expect(body).toContain("Marie et Pierre Curie");
    }
    expect(email.text).toContain("Au nom de : Marie et Pierre Curie");
  });

  it("repeats the name given in the form inert: an address in it becomes no link, for the customer nor the seller", () => {
    const customerName = "Marie https://evil.test www.evil.test";
    const email = withdrawalAcknowledgementEmail({ shop, order, requestedAt, customerName, returnAddress: null });
    const seller = sellerWithdrawalEmail({ shop, order: { ...order, customerName: "Paul evil.test" }, requestedAt, customerName, source: "guest", email: "marie@example.com", adminUrl: "https://comptoir.example/admin/orders/CPT-482913-0071" });
    for (const body of [email.html, email.text, seller.html, seller.text]) {
      expect(body).not.toMatch(/evil\.test|https:\/\/evil/);
    }
    expect(email.text).toContain("Au nom de : Marie https[:]//evil[.]test www[.]evil[.]test");
  });

  it("says what happens next: the refund within 14 days, the return address, the shop's contact", () => {
    expect(ack.text).toContain("au plus tard le 5 juillet 2026, soit 14 jours après votre demande");
    expect(ack.text).toContain("Renvoyez-nous les articles au plus tard le 5 juillet 2026");
    expect(ack.text).toContain("12 rue des Lilas, 69001 Lyon");
    expect(ack.text).toContain("Écrivez-nous à contact@comptoir.example en rappelant le numéro de commande CPT-482913-0071");
  });

  it("has nothing to send back for an order not shipped yet, and asks for the address when none is known", () => {
    const unshipped = withdrawalAcknowledgementEmail({ shop, order: { ...order, status: "paid" }, requestedAt, customerName: "Marie Curie", returnAddress: "12 rue des Lilas" });
    expect(unshipped.text).toContain("vous n'avez rien à nous renvoyer");
    expect(unshipped.text).not.toContain("Renvoyez-nous");
    const noAddress = withdrawalAcknowledgementEmail({ shop, order, requestedAt, customerName: "Marie Curie", returnAddress: " " });
    expect(noAddress.text).toContain("écrivez-nous pour la recevoir");
  });

  it("escapes markup from the customer and the products", () => {
    const hostile = `<script>alert("x")</script>`;
    const email = withdrawalAcknowledgementEmail({
      shop,
      order: { ...order, lines: [{ ...order.lines[0]!, name: `Carte <img src=x onerror=alert(1)>` }] },
      requestedAt,
      customerName: `Eve ${hostile}`,
      returnAddress: `<b>Entrepôt</b>`,
    });
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain("<img src=x");
    expect(email.html).not.toContain("<b>Entrepôt");
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(email.html).toContain("Carte &lt;img src=x onerror=alert(1)&gt;");
    // The text part is plain text: shown as typed.
    expect(email.text).toContain(`Eve ${hostile}`);
  });
});

describe("the seller's notice", () => {
  it("says when, how, to refund by when, and whether to hold the parcel; escaped", () => {
    const notice = sellerWithdrawalEmail({
      shop,
      order: { ...order, status: "paid", customerName: "<i>Marie</i>" },
      requestedAt,
      customerName: "<u>Marie et Pierre</u>",
      source: "guest",
      email: "marie@example.fr",
      adminUrl: "https://comptoir.example/admin/orders/CPT-482913-0071",
    });
    expect(notice.subject).toBe("Rétractation demandée – commande CPT-482913-0071");
    expect(notice.text).toContain("avec le formulaire public");
    expect(notice.text).toContain("le 21 juin 2026 à 14:05");
    expect(notice.text).toContain("ne l'expédiez pas");
    expect(notice.text).toContain("À rembourser avant le : 5 juillet 2026");
    // The name given in the form, and the order's.
    expect(notice.text).toContain("Au nom de : <u>Marie et Pierre</u>");
    expect(notice.text).toContain("Client de la commande : <i>Marie</i>");
    expect(notice.html).toContain("&lt;u&gt;Marie et Pierre&lt;/u&gt;");
    expect(notice.text).toContain("Ouvrir la commande : https://comptoir.example/admin/orders/CPT-482913-0071");
    expect(notice.html).toContain("&lt;i&gt;Marie&lt;/i&gt;");
    expect(notice.html).not.toContain("<i>Marie");
  });
});
