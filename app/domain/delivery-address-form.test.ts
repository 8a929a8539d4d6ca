import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { creditDeliveryPath, creditDeliverySchema, creditOrderButtonLabel } from "./delivery-address-form";

const home = { kind: "home" as const, country: "FR", relayPoint: null };
const address = { fullName: "Marie Curie", line1: "12 rue des Lilas", postalCode: "75011", city: "Paris", country: "FR", phone: "06 12 34 56 78", billingSame: "on" };

describe("creditDeliverySchema (a home delivery paid by store credit, decision 060)", () => {
  it("takes an address in the delivery's country, the billing address the same by default", () => {
    expect(creditDeliverySchema({ delivery: home, businessCountry: null }).safeParse(address).success).toBe(true);
  });

  it("says in French what a missing or bad field needs, even a field left out of the post", () => {
    const missing = creditDeliverySchema({ delivery: home, businessCountry: null }).safeParse({ billingSame: "on" });
    expect(missing.success).toBe(false);
    expect(fieldErrors(missing.error!)).toEqual({
      fullName: "Le nom doit contenir au moins 2 caractères",
      line1: "L'adresse est obligatoire",
      postalCode: "Code postal invalide",
      city: "La ville est obligatoire",
      country: "Choisissez un pays de livraison",
      phone: "Merci d'entrer un numéro de téléphone valide",
    });
    const bad = creditDeliverySchema({ delivery: home, businessCountry: null }).safeParse({ ...address, postalCode: "750" });
    expect(fieldErrors(bad.error!)).toEqual({ postalCode: "Code postal invalide (5 chiffres)" });
  });

  it("an « Achat professionnel » always asks the company's billing address, in its country", () => {
    const business = creditDeliverySchema({ delivery: home, businessCountry: "BE" });
    expect(fieldErrors(business.safeParse(address).error!)).toMatchObject({ billingLine1: "L'adresse de facturation est obligatoire" });
    const billing = { billingFullName: "Curie SPRL", billingLine1: "8 rue Neuve", billingPostalCode: "1000", billingCity: "Bruxelles", billingCountry: "BE" };
    expect(business.safeParse({ ...address, ...billing }).success).toBe(true);
  });

  it("names the order button with the legal wording and the amount; the page is under the order's", () => {
    expect(creditOrderButtonLabel(34_90)).toBe("Payer 34,90\u00a0€ avec mon avoir – commande avec obligation de paiement");
    expect(creditDeliveryPath("CPT-1234")).toBe("/account/orders/CPT-1234/livraison");
  });
});
