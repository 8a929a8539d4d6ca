import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { brandKey, missingSafetyFields, productSafety, safetyProfileSchema } from "./safety-profile";

const profile = { manufacturerName: "Wizards of the Coast LLC", postalAddress: "PO Box 707\nRenton, WA 98057-0707", email: "", warnings: "Ne convient pas aux enfants de moins de 3 ans." };

describe("product safety", () => {
  it("takes the product's own values first, else its brand's, and says what a brand lacks", () => {
    expect(productSafety({}, profile)).toEqual({
      manufacturerName: "Wizards of the Coast LLC",
      postalAddress: "PO Box 707\nRenton, WA 98057-0707",
      email: null,
      ean: null,
      warnings: "Ne convient pas aux enfants de moins de 3 ans.",
    });
    expect(productSafety({ manufacturerEmail: "contact@example.com", safetyWarnings: "Petits éléments.", ean: "96385074", manufacturerName: " " }, profile)).toMatchObject({
      manufacturerName: "Wizards of the Coast LLC",
      email: "contact@example.com",
      warnings: "Petits éléments.",
      ean: "96385074",
    });
    expect(productSafety({}, null)).toEqual({ manufacturerName: null, postalAddress: null, email: null, ean: null, warnings: null });
    expect(missingSafetyFields(profile)).toEqual(["e-mail"]);
    expect(missingSafetyFields({ manufacturerName: "Bandai Co., Ltd.", postalAddress: " ", email: "" })).toEqual(["adresse postale", "e-mail"]);
    expect(missingSafetyFields({ ...profile, email: "contact@example.com" })).toEqual([]);
  });

  it("checks a brand profile in French, an unknown address or e-mail allowed", () => {
    expect(safetyProfileSchema.parse({ brand: " Magic ", manufacturerName: "Wizards of the Coast LLC", postalAddress: "PO Box 707\r\nRenton", email: " Contact@Example.COM " })).toEqual({
      brand: "Magic",
      manufacturerName: "Wizards of the Coast LLC",
      postalAddress: "PO Box 707\nRenton",
      email: "contact@example.com",
      warnings: "",
    });
    const refused = safetyProfileSchema.safeParse({ brand: "", manufacturerName: "", email: "pas une adresse", warnings: "\u202e" });
    expect(fieldErrors(refused.error!)).toEqual({
      brand: "La marque est obligatoire",
      manufacturerName: "Le nom du fabricant est obligatoire",
      email: "L'e-mail n'est pas une adresse valide",
      warnings: "Le texte des avertissements contient des caractères non autorisés",
    });
  });

  it("compares brands without case or edge spaces", () => {
    expect(brandKey(" POKÉMON ")).toBe(brandKey("Pokémon"));
  });
});
