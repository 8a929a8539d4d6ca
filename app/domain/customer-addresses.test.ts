import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { type AddressBookEntry, addressBookKey, addressLimitMessage, checkoutAddressesToSave, checkoutProposals, parseAddressBookForm } from "./customer-addresses";
import type { ShippingAddress } from "./order-view";

const errorsOf = (result: ReturnType<typeof parseAddressBookForm>) => (result.success ? {} : fieldErrors(result.error));

const home = { fullName: "Marie Curie", line1: "12 rue de la Paix", postalCode: "75011", city: "Paris", country: "FR", phone: "06 12 34 56 78" };
const billing = { fullName: "Marie Curie", line1: "3 avenue Foch", postalCode: "69006", city: "Lyon", country: "FR" };
const relay = { id: "020145", name: "Tabac du Centre", line1: "4 place Bellecour", postalCode: "69002", city: "Lyon", country: "FR" };

describe("parseAddressBookForm: the checkout's own schemas", () => {
  it("takes a delivery address in any shipping country, the postcode in capitals", () => {
    expect(parseAddressBookForm("delivery", { ...home, country: "NL", postalCode: "1012 ab" })).toEqual({
      success: true,
      entry: { kind: "delivery", address: { ...home, country: "NL", postalCode: "1012 AB" } },
    });
  });

  it("says in French what each field of each kind needs", () => {
    const delivery = parseAddressBookForm("delivery", { ...home, postalCode: "750", phone: "12" });
    expect(delivery.success).toBe(false);
    expect(errorsOf(delivery)).toEqual({ postalCode: "Code postal invalide (5 chiffres)", phone: "Merci d'entrer un numéro de téléphone valide" });
    const bill = parseAddressBookForm("billing", { ...billing, line1: "" });
    expect(errorsOf(bill)).toEqual({ line1: "L'adresse de facturation est obligatoire" });
    const point = parseAddressBookForm("relay", { ...relay, id: "", country: "US" });
    expect(errorsOf(point)).toEqual({ id: "Indiquez l'identifiant du point relais", country: "Choisissez un pays de livraison" });
  });

  it("refuses a field left out of the post with its French message, not zod's", () => {
    const result = parseAddressBookForm("delivery", {});
    expect(errorsOf(result).fullName).toBe("Le nom doit contenir au moins 2 caractères");
  });
});

describe("addressBookKey: one place, one entry", () => {
  const entry = (address: typeof home): AddressBookEntry => ({ kind: "delivery", address });
  it("folds spelling, abbreviations and accents", () => {
    expect(addressBookKey(entry({ ...home, line1: "12 r. Paix", fullName: "MARIE CURIE" }))).toBe(addressBookKey(entry(home)));
  });
  it("keeps apart two people, or two flats, at one address", () => {
    expect(addressBookKey(entry({ ...home, fullName: "Pierre Curie" }))).not.toBe(addressBookKey(entry(home)));
    expect(addressBookKey(entry({ ...home, line2: "Bât. B" } as typeof home))).not.toBe(addressBookKey(entry(home)));
  });
  it("keys a relay point by the carrier's identifier", () => {
    expect(addressBookKey({ kind: "relay", address: { ...relay, name: "Autre nom" } })).toBe(addressBookKey({ kind: "relay", address: relay }));
    expect(addressBookKey({ kind: "relay", address: { ...relay, id: "020146" } })).not.toBe(addressBookKey({ kind: "relay", address: relay }));
  });
});

describe("checkoutAddressesToSave: only what was ticked and typed", () => {
  const shipping: ShippingAddress = { method: "home", ...home };
  const delivery = { kind: "home" as const, country: "FR", relayPoint: null };
  const order = { delivery, shipping, billing, business: false };

  it("saves nothing without a tick", () => {
    expect(checkoutAddressesToSave({ billingSame: "on" }, order)).toEqual([]);
  });

  it("saves the home address ticked; the billing box only when the billing address was typed", () => {
    expect(checkoutAddressesToSave({ saveDeliveryAddress: "on", saveBillingAddress: "on", billingSame: "on" }, order)).toEqual([{ kind: "delivery", address: home }]);
    expect(checkoutAddressesToSave({ saveBillingAddress: "on" }, order)).toEqual([{ kind: "billing", address: billing }]);
  });

  it("saves the relay point chosen in the cart, with the carrier's identifier", () => {
    const point: ShippingAddress = { method: "relay", fullName: "Marie Curie", relayPointId: relay.id, relayPointName: relay.name, line1: relay.line1, postalCode: relay.postalCode, city: relay.city, country: "FR", phone: home.phone };
    const relayOrder = { ...order, delivery: { kind: "relay" as const, country: "FR", relayPoint: point }, shipping: point };
    expect(checkoutAddressesToSave({ saveRelayPoint: "on", saveDeliveryAddress: "on" }, relayOrder)).toEqual([{ kind: "relay", address: relay }]);
  });

  it("names the cap in French", () => {
    expect(addressLimitMessage("relay")).toBe("Vous avez déjà 20 points relais : supprimez-en un pour en ajouter un autre.");
  });
});

describe("checkoutProposals: what the payment page proposes", () => {
  const book = [
    { id: 1, isDefault: false, kind: "delivery" as const, address: home },
    { id: 2, isDefault: true, kind: "delivery" as const, address: { ...home, line1: "8 avenue Foch" } },
    { id: 3, isDefault: true, kind: "delivery" as const, address: { ...home, country: "BE", postalCode: "1000" } },
    { id: 4, isDefault: true, kind: "billing" as const, address: billing },
    { id: 5, isDefault: true, kind: "relay" as const, address: relay },
  ];
  const homeDelivery = { kind: "home" as const, country: "FR", relayPoint: null };

  it("proposes the home addresses of the delivery's country, the default first, and the billing addresses by the form's names", () => {
    const proposals = checkoutProposals(book, homeDelivery, null);
    expect(proposals.delivery.map((proposal) => [proposal.id, proposal.isDefault])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(proposals.delivery[1]!.values).toEqual({ ...home, line2: "" });
    expect(proposals.billing).toEqual([
      { id: 4, isDefault: true, label: "Marie Curie, 3 avenue Foch, 69006 Lyon", values: { billingFullName: "Marie Curie", billingLine1: "3 avenue Foch", billingLine2: "", billingPostalCode: "69006", billingCity: "Lyon", billingCountry: "FR" } },
    ]);
    // An « Achat professionnel » in Belgium: only a Belgian billing address.
    expect(checkoutProposals(book, homeDelivery, "BE").billing).toEqual([]);
  });

  it("proposes no home address for a relay point, and says whether the cart's point is in the book", () => {
    const point = { method: "relay" as const, fullName: "", relayPointId: "020145", relayPointName: "Tabac", line1: relay.line1, postalCode: relay.postalCode, city: relay.city, country: "FR" };
    expect(checkoutProposals(book, { kind: "relay", country: "FR", relayPoint: point }, null)).toMatchObject({ delivery: [], relaySaved: true });
    expect(checkoutProposals(book, { kind: "relay", country: "FR", relayPoint: { ...point, relayPointId: "999" } }, null).relaySaved).toBe(false);
  });
});
