import { describe, expect, it } from "vitest";
import { billingAddressOf } from "./billing-address";
import { shippingAddressOf } from "./delivery-address-form";
import { payButtonLabel, testCardOutcome, testPaymentSchema } from "./test-payment-form";

const now = new Date("2026-11-23T10:00:00Z");
const home = { kind: "home" as const, country: "FR", relayPoint: null };
const relayPoint = { method: "relay" as const, fullName: "", relayPointName: "Tabac du Centre", relayPointId: "020145", line1: "3 place de la Mairie", postalCode: "69001", city: "Lyon", country: "FR" };
const relay = { kind: "relay" as const, country: "FR", relayPoint };
const valid = {
  email: "marie@example.com",
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
  billingSame: "on",
};
/** A billing address typed in the form's fields (relay point, or the box unticked). */
const billing = {
  billingFullName: " Pierre Curie ",
  billingLine1: "8 rue Cuvier",
  billingLine2: "",
  billingPostalCode: "75005",
  billingCity: "Paris",
  billingCountry: "FR",
};

describe("test payment form", () => {
  it("accepts a full home address and normalises the card number", () => {
    const result = testPaymentSchema({ needsEmail: true, now, delivery: home }).parse(valid);
    expect(result.cardNumber).toBe("4242424242424242");
    expect(shippingAddressOf(result, home)).toEqual({
      method: "home",
      fullName: "Marie Curie",
      line1: "12 rue des Lilas",
      postalCode: "75011",
      city: "Paris",
      country: "FR",
      phone: "06 12 34 56 78",
    });
  });

  it("for a relay point chosen in the cart, asks only the recipient and ships to the point", () => {
    const schema = testPaymentSchema({ needsEmail: false, now, delivery: relay });
    const form = schema.parse({ fullName: "Marie Curie", phone: "06 12 34 56 78", cardNumber: "4242424242424242", cardExpiry: "12/30", cardCvc: "123", ...billing });
    expect(shippingAddressOf(form, relay)).toEqual({ ...relayPoint, fullName: "Marie Curie", phone: "06 12 34 56 78" });
    expect(schema.safeParse({ ...form, fullName: "" }).success).toBe(false);
  });

  it("copies the delivery address as the billing address when « Adresse de facturation identique » is ticked", () => {
    const form = testPaymentSchema({ needsEmail: false, now, delivery: home }).parse({ ...valid, line2: "Bât. B", postalCode: "75011", billingFullName: "ignored" });
    expect(billingAddressOf(form, shippingAddressOf(form, home))).toEqual({ fullName: "Marie Curie", line1: "12 rue des Lilas", line2: "Bât. B", postalCode: "75011", city: "Paris", country: "FR" });
  });

  it("asks the billing address when the box is unticked, and keeps it apart from the delivery", () => {
    const schema = testPaymentSchema({ needsEmail: false, now, delivery: home });
    const unticked = schema.safeParse({ ...valid, billingSame: undefined });
    expect(unticked.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["billingFullName", "Le nom de facturation doit contenir au moins 2 caractères"],
      ["billingLine1", "L'adresse de facturation est obligatoire"],
      ["billingPostalCode", "Code postal de facturation invalide"],
      ["billingCity", "La ville de facturation est obligatoire"],
      ["billingCountry", "Choisissez le pays de facturation"],
    ]);
    const form = schema.parse({ ...valid, billingSame: undefined, ...billing, billingCountry: "BE", billingPostalCode: "1000", billingCity: "Bruxelles" });
    expect(billingAddressOf(form, shippingAddressOf(form, home))).toEqual({ fullName: "Pierre Curie", line1: "8 rue Cuvier", postalCode: "1000", city: "Bruxelles", country: "BE" });
  });

  it("always asks the billing address for a relay point, box ticked or not: a relay point is never one", () => {
    const schema = testPaymentSchema({ needsEmail: false, now, delivery: relay });
    const recipient = { fullName: "Marie Curie", phone: "06 12 34 56 78", cardNumber: "4242424242424242", cardExpiry: "12/30", cardCvc: "123" };
    for (const box of [{}, { billingSame: "on" }]) {
      const refused = schema.safeParse({ ...recipient, ...box });
      expect(refused.success).toBe(false);
      expect(Object.keys(Object.fromEntries(refused.error!.issues.map((i) => [i.path[0], i.message])))).toEqual(["billingFullName", "billingLine1", "billingPostalCode", "billingCity", "billingCountry"]);
    }
    const form = schema.parse({ ...recipient, billingSame: "on", ...billing, billingLine2: " Escalier A ", billingPostalCode: "75005" });
    expect(billingAddressOf(form, shippingAddressOf(form, relay))).toEqual({ fullName: "Pierre Curie", line1: "8 rue Cuvier", line2: "Escalier A", postalCode: "75005", city: "Paris", country: "FR" });
  });

  it("checks the billing address as the delivery's: French postcodes, the delivery's countries, no control characters", () => {
    const schema = testPaymentSchema({ needsEmail: false, now, delivery: relay });
    const base = { fullName: "Marie Curie", phone: "06 12 34 56 78", cardNumber: "4242424242424242", cardExpiry: "12/30", cardCvc: "123", ...billing };
    const messages = (values: object) => Object.fromEntries((schema.safeParse({ ...base, ...values }).error?.issues ?? []).map((i) => [i.path[0], i.message]));
    expect(messages({ billingPostalCode: "7500" })).toEqual({ billingPostalCode: "Code postal de facturation invalide (5 chiffres)" });
    expect(messages({ billingCountry: "US" })).toEqual({ billingCountry: "Choisissez le pays de facturation" });
    expect(messages({ billingLine1: "8 rue\u202e Cuvier" })).toEqual({ billingLine1: "Ce champ contient des caractères non autorisés." });
    expect(messages({ billingCity: "x".repeat(81) })).toEqual({ billingCity: "Texte trop long." });
  });

  it("ships only to the country the delivery was priced for", () => {
    const result = testPaymentSchema({ needsEmail: false, now, delivery: home }).safeParse({ ...valid, country: "BE", postalCode: "1000" });
    expect(result.error?.issues.map((i) => [i.path[0], i.message])).toEqual([["country", "Ce pays n'est pas celui de la livraison choisie dans le panier"]]);
    const belgium = { kind: "home" as const, country: "BE", relayPoint: null };
    expect(testPaymentSchema({ needsEmail: false, now, delivery: belgium }).safeParse({ ...valid, country: "BE", postalCode: "1000" }).success).toBe(true);
  });

  it("refuses missing fields with French messages", () => {
    const result = testPaymentSchema({ needsEmail: true, now, delivery: home }).safeParse({ ...valid, email: "x", postalCode: "7501", phone: "12", cardExpiry: "01/20", line1: "" });
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
    const schema = testPaymentSchema({ needsEmail: true, now, delivery: home });
    const result = schema.safeParse({ ...valid, fullName: "Marie \u202eevil", line2: "Bât. \u0007B\u001b[31m", city: "Pa\u0000ris" });
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    const forbidden = "Ce champ contient des caractères non autorisés.";
    expect(messages).toEqual({ fullName: forbidden, line2: forbidden, city: forbidden });
    expect(schema.safeParse({ ...valid, fullName: "Zoë Ñúñez-O'Brien", line2: "Bât. B, 3ᵉ étage" }).success).toBe(true);
  });

  it("reads the expiry typed on a phone's number pad, without its slash", () => {
    const expiry = (cardExpiry: string) => testPaymentSchema({ needsEmail: true, now, delivery: home }).safeParse({ ...valid, cardExpiry });
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
