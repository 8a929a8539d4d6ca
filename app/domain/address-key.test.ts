import { describe, expect, it } from "vitest";
import { ADDRESS_KEY_VERSION, addressKey } from "./address-key";

describe("addressKey", () => {
  const home = { method: "home" as const, fullName: "Jean Dupont", line1: "12 rue de la Paix", postalCode: "75002", city: "Paris", country: "FR" };
  const keyOf = (changes: Partial<typeof home> & { line2?: string }) => addressKey({ ...home, ...changes });

  it("gives one key to the spellings of one street address, whoever receives it", () => {
    for (const line1 of ["12 r. de la Paix", "12, Rue de la Paix", "12 RUE DE LA PAIX", "12 r Paix", "  12   rue   de   la   paix. "]) {
      expect(keyOf({ line1 }), line1).toBe(addressKey(home));
    }
    expect(keyOf({ fullName: "Marie Dupont", city: "PARIS", postalCode: "75 002", country: "fr" })).toBe(addressKey(home));
    expect(addressKey(home).startsWith(`${ADDRESS_KEY_VERSION}|FR|75002|`)).toBe(true);
  });

  it("leaves the second line out: a flat, a building or a name there is the same door", () => {
    for (const line2 of ["Apt 1", "Appartement 2", "Bâtiment B, 3e étage", "chez M. Martin"]) expect(keyOf({ line2 }), line2).toBe(addressKey(home));
  });

  it("folds bis, ter and their letters into the house number", () => {
    for (const line1 of ["12bis rue de la Paix", "12 bis rue de la Paix", "12b rue de la Paix", "12 B, rue de la Paix", "12-bis r. de la Paix", "12 ter rue de la Paix", "12t rue de la Paix", "12 quater rue de la Paix"]) {
      expect(keyOf({ line1 }), line1).toBe(addressKey(home));
    }
    // Only after a number: a word "Bis" of the street's name stays.
    expect(keyOf({ line1: "12 villa Bis" })).not.toBe(keyOf({ line1: "12 villa" }));
  });

  it("spells out the common abbreviations of a street's kind", () => {
    const same = [
      ["3 av. Foch", "3 avenue Foch"],
      ["3 bd Voltaire", "3 boulevard Voltaire"],
      ["3 Bd. Voltaire", "3 boulevard Voltaire"],
      ["3 pl. de la République", "3 place de la République"],
      ["3 chem. des Vignes", "3 chemin des Vignes"],
      ["3 imp. du Moulin", "3 impasse du Moulin"],
      ["3 rte de Lyon", "3 route de Lyon"],
      ["3 r. St-Denis", "3 rue Saint-Denis"],
    ];
    for (const [short, long] of same) expect(keyOf({ line1: short! }), short).toBe(keyOf({ line1: long! }));
  });

  it("keeps different places apart", () => {
    expect(keyOf({ line1: "14 rue de la Paix" })).not.toBe(addressKey(home));
    expect(keyOf({ line1: "12 avenue de la Paix" })).not.toBe(addressKey(home));
    expect(keyOf({ line1: "12 rue de la Paix", postalCode: "13002" })).not.toBe(addressKey(home));
    expect(keyOf({ country: "BE" })).not.toBe(addressKey(home));
    expect(keyOf({ line1: "12A rue de la Paix" })).not.toBe(addressKey(home));
  });

  it("keys a relay point by the carrier's identifier alone, whoever collects there", () => {
    const relay = { method: "relay" as const, fullName: "Jean Dupont", relayPointId: "FR-012345", relayPointName: "Tabac de la Gare", line1: "1 place de la Gare", postalCode: "75010", city: "Paris", country: "FR" };
    const key = addressKey(relay);
    expect(key).toBe(`${ADDRESS_KEY_VERSION}|FR|relais|fr012345`);
    expect(addressKey({ ...relay, fullName: "Marie Curie" })).toBe(key);
    expect(addressKey({ ...relay, fullName: "Jean", relayPointId: "fr 012345", relayPointName: "TABAC GARE", line1: "1 pl. Gare", postalCode: "75 010", line2: "Apt 1" })).toBe(key);
    expect(addressKey({ ...relay, relayPointId: "FR-012346" })).not.toBe(key);
    // A point given without its identifier (an older order): its name and postal code.
    expect(addressKey({ ...relay, relayPointId: undefined })).toBe(`${ADDRESS_KEY_VERSION}|FR|relais|75010|tabac de la gare`);
  });
});
