import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { brandKey, missingSafetyFields, missingSafetyInformation, productSafety, safetyProfileSchema, safetyPublicationRefusal } from "./safety-profile";

const profile = {
  manufacturerName: "Wizards of the Coast LLC",
  postalAddress: "PO Box 707\nRenton, WA 98057-0707",
  email: "",
  warnings: "Ne convient pas aux enfants de moins de 3 ans.",
  manufacturerOutsideEu: false,
  euRepName: "",
  euRepAddress: "",
  euRepEmail: "",
};
const complete = { ...profile, email: "contact@example.com" };
const inEu = { ...complete, manufacturerName: "Glénat Éditions" };

describe("product safety", () => {
  it("takes the product's own values first, else its brand's", () => {
    expect(productSafety({}, profile)).toEqual({
      manufacturerName: "Wizards of the Coast LLC",
      postalAddress: "PO Box 707\nRenton, WA 98057-0707",
      email: null,
      manufacturerOutsideEu: false,
      euRepName: null,
      euRepAddress: null,
      euRepEmail: null,
      ean: null,
      manufacturerReference: null,
      warnings: "Ne convient pas aux enfants de moins de 3 ans.",
      labelImagePath: null,
    });
    expect(
      productSafety({ manufacturerEmail: "contact@example.com", safetyWarnings: "Petits éléments.", ean: "96385074", manufacturerName: " ", manufacturerOutsideEu: true, euRepName: "Rep SARL" }, profile),
    ).toMatchObject({ manufacturerName: "Wizards of the Coast LLC", email: "contact@example.com", warnings: "Petits éléments.", ean: "96385074", manufacturerOutsideEu: true, euRepName: "Rep SARL" });
    // The product's "non" wins over its brand's "hors UE"; null follows the brand.
    expect(productSafety({ manufacturerOutsideEu: false }, { ...profile, manufacturerOutsideEu: true }).manufacturerOutsideEu).toBe(false);
    expect(productSafety({ manufacturerOutsideEu: null }, { ...profile, manufacturerOutsideEu: true }).manufacturerOutsideEu).toBe(true);
    expect(productSafety({}, null)).toMatchObject({ manufacturerName: null, postalAddress: null, email: null, ean: null, warnings: null, manufacturerOutsideEu: false });
  });

  it("says what a publication lacks: manufacturer, its addresses, an identifier, the warnings", () => {
    expect(missingSafetyInformation(productSafety({}, null))).toEqual([
      "nom du fabricant",
      "adresse postale du fabricant",
      "adresse électronique du fabricant",
      "identifiant du produit (EAN ou référence du fabricant)",
      "avertissements et informations de sécurité",
    ]);
    expect(missingSafetyInformation(productSafety({ ean: "96385074" }, inEu))).toEqual([]);
    expect(missingSafetyInformation(productSafety({ manufacturerReference: "PKM-SV01-DSP" }, inEu))).toEqual([]);
    expect(missingSafetyInformation(productSafety({}, inEu))).toEqual(["identifiant du produit (EAN ou référence du fabricant)"]);
    expect(missingSafetyInformation(productSafety({ ean: "96385074" }, { ...inEu, warnings: " " }))).toEqual(["avertissements et informations de sécurité"]);
  });

  it("requires the EU responsible person only for a manufacturer established outside the EU", () => {
    const outside = { ...complete, manufacturerOutsideEu: true };
    expect(missingSafetyInformation(productSafety({ ean: "96385074" }, outside))).toEqual([
      "nom de la personne responsable dans l'UE",
      "adresse postale de la personne responsable dans l'UE",
      "adresse électronique de la personne responsable dans l'UE",
    ]);
    const rep = { euRepName: "Importateur SARL", euRepAddress: "1 rue X\n69001 Lyon", euRepEmail: "ue@importateur.example" };
    expect(missingSafetyInformation(productSafety({ ean: "96385074" }, { ...outside, ...rep }))).toEqual([]);
    // The product's own answer decides: a maker in the EU needs no representative.
    expect(missingSafetyInformation(productSafety({ ean: "96385074", manufacturerOutsideEu: false }, outside))).toEqual([]);
    expect(missingSafetyInformation(productSafety({ ean: "96385074", manufacturerOutsideEu: true, ...rep }, complete))).toEqual([]);
  });

  it("checks a brand profile without the identifier (a product's own)", () => {
    expect(missingSafetyFields(profile)).toEqual(["adresse électronique du fabricant"]);
    expect(missingSafetyFields({ ...profile, postalAddress: " " })).toEqual(["adresse postale du fabricant", "adresse électronique du fabricant"]);
    expect(missingSafetyFields(complete)).toEqual([]);
    expect(missingSafetyFields({ ...complete, manufacturerOutsideEu: true, euRepName: "Rep" })).toEqual([
      "adresse postale de la personne responsable dans l'UE",
      "adresse électronique de la personne responsable dans l'UE",
    ]);
  });

  it("words the refusal of a publication with what is missing", () => {
    expect(safetyPublicationRefusal(["nom du fabricant", "identifiant du produit (EAN ou référence du fabricant)"])).toBe(
      "Publication impossible : informations de sécurité manquantes (nom du fabricant, identifiant du produit (EAN ou référence du fabricant)). Complétez-les dans « Sécurité du produit » ou la fiche de la marque, ou enregistrez le produit hors ligne.",
    );
  });

  it("checks a brand profile in French, an unknown address or e-mail allowed", () => {
    expect(safetyProfileSchema.parse({ brand: " Magic ", manufacturerName: "Wizards of the Coast LLC", postalAddress: "PO Box 707\r\nRenton", email: " Contact@Example.COM " })).toEqual({
      brand: "Magic",
      manufacturerName: "Wizards of the Coast LLC",
      postalAddress: "PO Box 707\nRenton",
      email: "contact@example.com",
      warnings: "",
      manufacturerOutsideEu: false,
      euRepName: "",
      euRepAddress: "",
      euRepEmail: "",
    });
    expect(
      safetyProfileSchema.parse({ brand: "Nintendo", manufacturerName: "Nintendo Co., Ltd.", manufacturerOutsideEu: "on", euRepName: "Nintendo of Europe SE", euRepEmail: "UE@Example.com" }),
    ).toMatchObject({ manufacturerOutsideEu: true, euRepName: "Nintendo of Europe SE", euRepEmail: "ue@example.com" });
    expect(fieldErrors(safetyProfileSchema.safeParse({ brand: "X", manufacturerName: "Y", manufacturerOutsideEu: "peut-être", euRepEmail: "non" }).error!)).toEqual({
      manufacturerOutsideEu: "Valeur invalide (oui ou non)",
      euRepEmail: "L'e-mail de la personne responsable n'est pas une adresse valide",
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
