import { describe, expect, it } from "vitest";
import { payButtonLabel, shippingAddressOf, testCardOutcome, testPaymentSchema } from "./test-payment-form";

const now = new Date("2026-11-23T10:00:00Z");
const valid = {
  email: "marie@example.com",
  method: "home",
  fullName: "Marie Curie",
  line1: "12 rue des Lilas",
  line2: "",
  postalCode: "75011",
  city: "Paris",
  country: "FR",
  phone: "06 12 34 56 78",
  cardNumber: "4242 4242 4242 4242",
  cardExpiry: "12/30",
  cardCvc: "123",
};

describe("test payment form", () => {
  it("accepts a full home address and normalises the card number", () => {
    const result = testPaymentSchema({ needsEmail: true, now }).parse(valid);
    expect(result.cardNumber).toBe("4242424242424242");
    expect(shippingAddressOf(result)).toEqual({
      method: "home",
      fullName: "Marie Curie",
      line1: "12 rue des Lilas",
      postalCode: "75011",
      city: "Paris",
      country: "FR",
      phone: "06 12 34 56 78",
    });
  });

  it("needs the relay point's name and its full address", () => {
    const schema = testPaymentSchema({ needsEmail: false, now });
    const missing = schema.safeParse({ ...valid, method: "relay", relayPointName: "" });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path[0])).toContain("relayPointName");
    const ok = schema.parse({ ...valid, method: "relay", relayPointName: "Tabac du Centre" });
    expect(shippingAddressOf(ok).relayPointName).toBe("Tabac du Centre");
  });

  it("refuses missing fields with French messages", () => {
    const result = testPaymentSchema({ needsEmail: true, now }).safeParse({ ...valid, email: "x", postalCode: "7501", phone: "12", cardExpiry: "01/20", line1: "" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toMatchObject({
      email: "Merci d'entrer une adresse email valide",
      phone: "Merci d'entrer un numéro de téléphone valide",
      line1: "L'adresse est obligatoire",
      cardExpiry: "Cette carte a expiré",
    });
    expect(messages.postalCode).toMatch(/Code postal invalide/);
  });

  it("refuses control characters and bidi overrides in the address, which reach the seller's pages and the e-mails", () => {
    const schema = testPaymentSchema({ needsEmail: true, now });
    const result = schema.safeParse({ ...valid, method: "relay", fullName: "Marie \u202eevil", line2: "Bât. \u0007B\u001b[31m", relayPointName: "Tabac\u2066", city: "Pa\u0000ris" });
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    const forbidden = "Ce champ contient des caractères non autorisés.";
    expect(messages).toEqual({ fullName: forbidden, line2: forbidden, relayPointName: forbidden, city: forbidden });
    expect(schema.safeParse({ ...valid, fullName: "Zoë Ñúñez-O'Brien", line2: "Bât. B, 3ᵉ étage" }).success).toBe(true);
  });

  it("reads the expiry typed on a phone's number pad, without its slash", () => {
    const expiry = (cardExpiry: string) => testPaymentSchema({ needsEmail: true, now }).safeParse({ ...valid, cardExpiry });
    expect(expiry("1230").success).toBe(true);
    expect(expiry("12 / 30").success).toBe(true);
    expect(expiry("0120").error?.issues[0]?.message).toBe("Cette carte a expiré");
    expect(expiry("1330").error?.issues[0]?.message).toBe("Date d'expiration invalide (MM/AA)");
    expect(expiry("12300").error?.issues[0]?.message).toBe("Date d'expiration invalide (MM/AA)");
  });

  it("knows Stripe's test cards", () => {
    expect(testCardOutcome("4242424242424242")).toBe("paid");
    expect(testCardOutcome("4000000000000002")).toBe("declined");
    expect(testCardOutcome("5555555555554444")).toBe("unknown");
  });

  it("says on the order button that ordering means paying (L221-14), with the amount", () => {
    expect(payButtonLabel(1250)).toBe("Payer 12,50\u00a0€ – commande avec obligation de paiement");
  });
});
