import { describe, expect, it } from "vitest";
import type { SafetyProfileSummary } from "./safety-profile";
import { z } from "zod";
import {
  type ProductFormInput,
  productFieldErrors,
  productFormInput,
  productFormInputOf,
  productFormSchema,
} from "./product-form";
import { parisWallTime } from "./paris-time";

const now = new Date("2026-11-23T10:00:00Z");
const valid: ProductFormInput = {
  name: "Dracaufeu Holo – Set de Base",
  description: "La carte emblématique de 1999.",
  price: "349,99",
  stock: "1",
  category: "TCG",
  subCategory: "Cartes",
  image: "pokemon_1764000000000_ab12",
  // Complete safety information: its brand's (profile 1) and its own identifier.
  safetyProfile: "1",
  manufacturerReference: "BS-004",
};

const brand = { manufacturerName: "Glénat Éditions", postalAddress: "37 rue Servan\n38000 Grenoble", email: "contact@glenat.example", warnings: "Petits éléments." };
const noRep = { euRepName: "", euRepAddress: "", euRepEmail: "" };
/** 1: a maker in the EU, complete; 2: outside the EU with its representative; 3: outside, without one. */
const profiles: SafetyProfileSummary[] = [
  { id: 1, brand: "Glénat", ...brand, manufacturerOutsideEu: false, ...noRep },
  { id: 2, brand: "Magic", ...brand, manufacturerOutsideEu: true, euRepName: "Importateur SARL", euRepAddress: "1 rue X\n69001 Lyon", euRepEmail: "ue@importateur.example" },
  { id: 3, brand: "Pokémon", ...brand, manufacturerOutsideEu: true, ...noRep },
];

type Options = { currentDropTime?: Date | null };
function parse(input: ProductFormInput, options: Options = {}) {
  return productFormSchema({ now, safetyProfiles: profiles, ...options }).safeParse(input);
}
function values(input: ProductFormInput, options: Options = {}) {
  const result = parse(input, options);
  if (!result.success) throw new Error(JSON.stringify(productFieldErrors(result.error)));
  return result.data;
}
function errors(input: ProductFormInput, options: Options = {}) {
  const result = parse(input, options);
  if (result.success) throw new Error("expected errors");
  return productFieldErrors(result.error);
}

describe("product form: numbers", () => {
  it.each([
    ["12,50", 1250],
    ["12.50", 1250],
    ["12", 1200],
    ["0,5", 50],
    [" 1 299,00 € ", 129_900],
    ["0", 0],
  ])("reads the price %j as %i cents", (price, cents) => {
    expect(values({ ...valid, price }).priceCents).toBe(cents);
  });

  it.each([
    ["", "Le prix est obligatoire"],
    ["douze", "Le prix doit être un nombre"],
    ["12,50,1", "Le prix doit être un nombre"],
    ["-1", "Le prix ne peut pas être négatif"],
    ["12.505", "Le prix ne peut pas avoir plus de 2 décimales"],
    ["1000000.01", "Le prix ne peut pas dépasser 1 000 000 €"],
  ])("refuses the price %j: %s", (price, message) => {
    expect(errors({ ...valid, price }).price).toBe(message);
  });

  it("reads a whole stock and refuses the rest in French", () => {
    expect(values({ ...valid, stock: " 12 " }).stock).toBe(12);
    expect(values({ ...valid, stock: "0" }).stock).toBe(0);
    expect(errors({ ...valid, stock: "" }).stock).toBe("Le stock est obligatoire");
    expect(errors({ ...valid, stock: "beaucoup" }).stock).toBe("Le stock doit être un nombre");
    expect(errors({ ...valid, stock: "-3" }).stock).toBe("Le stock ne peut pas être négatif");
    expect(errors({ ...valid, stock: "2,5" }).stock).toBe("Le stock doit être un nombre entier");
    expect(errors({ ...valid, stock: "2.5" }).stock).toBe("Le stock doit être un nombre entier");
  });
});

describe("product form: required fields and value lists", () => {
  it("gives SPEC.md's messages for an empty form, one per field", () => {
    expect(errors({})).toEqual({
      name: "Le nom est obligatoire",
      description: "La description est obligatoire",
      price: "Le prix est obligatoire",
      stock: "Le stock est obligatoire",
      category: "La catégorie est obligatoire",
      image: "L'image est obligatoire",
    });
  });

  it("refuses a name one cannot see, or with controls or bidi overrides", () => {
    expect(errors({ ...valid, name: "\u200b\u200b\u200b" }).name).toBe("Le nom est obligatoire");
    expect(errors({ ...valid, name: "\u2060\u200b\u200d" }).name).toBe("Le nom est obligatoire");
    expect(errors({ ...valid, name: "Dracaufeu\u202e" }).name).toBe("Le nom contient des caractères non autorisés");
    expect(errors({ ...valid, name: "Dracaufeu\nHolo" }).name).toBe("Le nom contient des caractères non autorisés");
    expect(values({ ...valid, name: "Pokémon 🧑‍🚀 Astres" }).title).toBe("Pokémon 🧑‍🚀 Astres");
  });

  it("trims text and types the values", () => {
    expect(values({ ...valid, name: "  Dracaufeu  ", series: " Base Set ", rarity: "rare", condition: "near-mint", cardType: "vintage" })).toEqual({
      title: "Dracaufeu",
      description: "La carte emblématique de 1999.",
      priceCents: 34_999,
      stock: 1,
      status: "en_ligne",
      category: "TCG",
      subCategory: "Cartes",
      cardType: "vintage",
      featured: false,
      dropTime: null,
      imagePath: "pokemon_1764000000000_ab12",
      additionalImages: [],
      series: "Base Set",
      rarity: "rare",
      condition: "near-mint",
      compareAtCents: null,
      weightGrams: null,
      vatRateBp: null,
      vatScheme: "normal",
      safetyProfileId: 1,
      manufacturerName: null,
      manufacturerAddress: null,
      manufacturerEmail: null,
      manufacturerOutsideEu: null,
      euRepName: null,
      euRepAddress: null,
      euRepEmail: null,
      ean: null,
      manufacturerReference: "BS-004",
      safetyWarnings: null,
      labelImagePath: null,
      pegiRating: null,
      pegiDescriptors: [],
    });
  });

  it("refuses an unknown category, rarity or condition", () => {
    const result = errors({ ...valid, category: "Jouets", rarity: "mythic", condition: "neuf" });
    expect(result).toMatchObject({ category: "Catégorie inconnue", rarity: "Rareté inconnue", condition: "État inconnu" });
    // The sub-category is judged once the category is known.
    expect(result.subCategory).toBeUndefined();
  });

  it("needs a TCG sub-category for TCG, and clears it away from TCG", () => {
    expect(errors({ ...valid, subCategory: "" }).subCategory).toBe("La sous-catégorie est obligatoire");
    expect(errors({ ...valid, subCategory: "Figurines" }).subCategory).toBe("Sous-catégorie inconnue");
    expect(values({ ...valid, category: "Accessoires", subCategory: "Scellés", cardType: "vintage" })).toMatchObject({
      category: "Accessoires",
      subCategory: null,
      cardType: null,
    });
    // The free labels of the other categories stay: "Manga" makes the badge on /entertainment.
    expect(values({ ...valid, category: "Gaming & Mangas", subCategory: "Manga" }).subCategory).toBe("Manga");
  });

  it("keeps a card type only for TCG cards", () => {
    expect(values({ ...valid, cardType: "recent" }).cardType).toBe("recent");
    expect(values({ ...valid, subCategory: "Scellés", cardType: "vintage" }).cardType).toBeNull();
    expect(errors({ ...valid, cardType: "ancienne" }).cardType).toBe("Type de carte inconnu");
  });

  it("reads the featured checkbox", () => {
    expect(values({ ...valid, featured: "on" }).featured).toBe(true);
    expect(values({ ...valid, featured: "oui" }).featured).toBe(true);
    expect(values({ ...valid }).featured).toBe(false);
    expect(errors({ ...valid, featured: "peut-être" }).featured).toBe("Valeur invalide (oui ou non)");
  });

  it("takes a main image key and at most 4 more, refusing keys that could leave the storage", () => {
    expect(values({ ...valid, additionalImages: "seed/booster" }).additionalImages).toEqual(["seed/booster"]);
    expect(values({ ...valid, additionalImages: ["a1", " ", "b2", "c3", "d4"] }).additionalImages).toEqual(["a1", "b2", "c3", "d4"]);
    expect(errors({ ...valid, additionalImages: ["a1", "b2", "c3", "d4", "e5"] }).additionalImages).toBe(
      "Nombre maximum d'images atteint (4 images supplémentaires)",
    );
    expect(errors({ ...valid, image: "../secrets" }).image).toBe("Image invalide");
    expect(errors({ ...valid, additionalImages: ["ok", "/etc/passwd"] }).additionalImages).toBe("Image invalide");
  });

  it("answers in French when a field is not text", () => {
    expect(productFieldErrors(productFormSchema({ now, safetyProfiles: profiles }).safeParse({ ...valid, price: 12 }).error!).price).toBe("Valeur invalide");
  });
});

describe("product form: former price, weight, VAT and product safety", () => {
  it("reads a former price in euros, empty for none, and refuses the rest", () => {
    expect(values({ ...valid, compareAt: "399,99" }).compareAtCents).toBe(39_999);
    expect(values({ ...valid, compareAt: " " }).compareAtCents).toBeNull();
    // A former price below the price is stored: the product page does not show it (domain/reference-price).
    expect(values({ ...valid, compareAt: "10" }).compareAtCents).toBe(1000);
    expect(errors({ ...valid, compareAt: "beaucoup" }).compareAt).toBe("Le prix barré doit être un nombre");
    expect(errors({ ...valid, compareAt: "-5" }).compareAt).toBe("Le prix barré ne peut pas être négatif");
    expect(errors({ ...valid, compareAt: "0" }).compareAt).toBe("Le prix barré doit être supérieur à 0 € (laissez vide pour aucun)");
  });

  it("reads a weight in whole grams, empty for the category's default", () => {
    expect(values({ ...valid, weight: "150" }).weightGrams).toBe(150);
    expect(values({ ...valid, weight: " 1 200 g " }).weightGrams).toBe(1200);
    expect(values({ ...valid, weight: "" }).weightGrams).toBeNull();
    expect(values({ ...valid, weight: "0" }).weightGrams).toBe(0);
    expect(errors({ ...valid, weight: "lourd" }).weight).toBe("Le poids doit être un nombre de grammes");
    expect(errors({ ...valid, weight: "2,5" }).weight).toBe("Le poids doit être un nombre entier de grammes");
    expect(errors({ ...valid, weight: "-1" }).weight).toBe("Le poids ne peut pas être négatif");
    expect(errors({ ...valid, weight: "100001" }).weight).toBe("Le poids ne peut pas dépasser 100 000 g");
  });

  it("reads the VAT rates of the select and of a spreadsheet, empty for the category's default", () => {
    expect(["", "20", "10", "5,5", "5.5 %", "2,1", "20 %"].map((vatRate) => values({ ...valid, vatRate }).vatRateBp)).toEqual([null, 2000, 1000, 550, 550, 210, 2000]);
    expect(errors({ ...valid, vatRate: "19,6" }).vatRate).toBe("Taux de TVA inconnu (20, 10, 5,5 ou 2,1 %)");
    expect(errors({ ...valid, vatRate: "vingt" }).vatRate).toBe("Taux de TVA inconnu (20, 10, 5,5 ou 2,1 %)");
  });

  it("reads the second-hand checkbox as the margin scheme", () => {
    expect(values({ ...valid, marginScheme: "on" }).vatScheme).toBe("margin");
    expect(values({ ...valid, marginScheme: "oui" }).vatScheme).toBe("margin");
    expect(values({ ...valid, marginScheme: "non" }).vatScheme).toBe("normal");
    expect(errors({ ...valid, marginScheme: "parfois" }).marginScheme).toBe("Valeur invalide (oui ou non)");
  });

  it("takes a brand profile among those that exist", () => {
    expect(values({ ...valid, safetyProfile: "2" }).safetyProfileId).toBe(2);
    const unknown = productFormSchema({ now, safetyProfiles: profiles.slice(0, 1) }).safeParse({ ...valid, safetyProfile: "2" });
    expect(productFieldErrors(unknown.error!).safetyProfile).toBe("Marque inconnue : choisissez-en une dans la liste");
    expect(errors({ ...valid, safetyProfile: "Pokémon" }).safetyProfile).toBe("Marque inconnue : choisissez-en une dans la liste");
  });

  it("takes the product's own safety values, an address and warnings on several lines", () => {
    expect(
      values({
        ...valid,
        manufacturerName: " Bandai Co., Ltd. ",
        manufacturerAddress: "1 rue de l'Exemple\r\n75001 Paris",
        manufacturerEmail: "Contact@Exemple.FR",
        ean: "4006 3813 3393 1",
        safetyWarnings: "Ne convient pas aux enfants de moins de 3 ans.\rPetits éléments.",
      }),
    ).toMatchObject({
      manufacturerName: "Bandai Co., Ltd.",
      manufacturerAddress: "1 rue de l'Exemple\n75001 Paris",
      manufacturerEmail: "contact@exemple.fr",
      ean: "4006381333931",
      safetyWarnings: "Ne convient pas aux enfants de moins de 3 ans.\nPetits éléments.",
    });
    expect(errors({ ...valid, manufacturerEmail: "pas-un-email" }).manufacturerEmail).toBe("L'e-mail n'est pas une adresse valide");
    expect(errors({ ...valid, manufacturerName: "Bandai\u202e" }).manufacturerName).toBe("Le nom du fabricant contient des caractères non autorisés");
    expect(errors({ ...valid, manufacturerAddress: "x".repeat(501) }).manufacturerAddress).toBe("L'adresse postale ne peut pas dépasser 500 caractères");
  });

  it("refuses to publish or schedule a product without complete safety information, listing what is missing", () => {
    const bare = { ...valid, safetyProfile: "", manufacturerReference: "" };
    const refusal =
      "Publication impossible : informations de sécurité manquantes (nom du fabricant, adresse postale du fabricant, adresse électronique du fabricant, identifiant du produit (EAN ou référence du fabricant), avertissements et informations de sécurité). Complétez-les dans « Sécurité du produit » ou la fiche de la marque, ou enregistrez le produit hors ligne.";
    expect(errors(bare)).toEqual({ status: refusal });
    // Scheduled: the launch date carries it (the form shows no status then).
    expect(errors({ ...bare, launchDate: "2026-12-01", launchTime: "18:00" })).toEqual({ launchDate: refusal });
    // Offline, it is saved as it is.
    expect(values({ ...bare, status: "hors_ligne" })).toMatchObject({ status: "hors_ligne", safetyProfileId: null, manufacturerReference: null });
    // The shop's own id is no identifier: an EAN or the manufacturer's reference is.
    expect(errors({ ...valid, manufacturerReference: "" }).status).toContain("(identifiant du produit (EAN ou référence du fabricant))");
    expect(values({ ...valid, manufacturerReference: "", ean: "4006381333931" }).ean).toBe("4006381333931");
  });

  it("requires the EU responsible person when the manufacturer is established outside the EU", () => {
    expect(values({ ...valid, safetyProfile: "2" }).status).toBe("en_ligne");
    expect(errors({ ...valid, safetyProfile: "3" }).status).toContain(
      "(nom de la personne responsable dans l'UE, adresse postale de la personne responsable dans l'UE, adresse électronique de la personne responsable dans l'UE)",
    );
    expect(values({ ...valid, safetyProfile: "3", euRepName: "Importateur SARL", euRepAddress: "1 rue X", euRepEmail: "UE@Importateur.example" })).toMatchObject({
      euRepEmail: "ue@importateur.example",
    });
    // The product's own answer wins over its brand's.
    expect(values({ ...valid, safetyProfile: "3", manufacturerOutsideEu: "non" }).manufacturerOutsideEu).toBe(false);
    expect(errors({ ...valid, manufacturerOutsideEu: "oui" }).status).toContain("nom de la personne responsable dans l'UE");
    expect(errors({ ...valid, manufacturerOutsideEu: "peut-être" }).manufacturerOutsideEu).toBe("Valeur invalide (oui, non, ou vide pour la valeur de la marque)");
    expect(errors({ ...valid, euRepEmail: "pas-un-email" }).euRepEmail).toBe("L'e-mail de la personne responsable n'est pas une adresse valide");
  });

  it("takes a PEGI rating on a video game only", () => {
    const game = { ...valid, category: "Gaming & Mangas", subCategory: "Jeux Vidéo" };
    expect(values({ ...game, pegiRating: "12", pegiDescriptors: ["peur", "violence"] })).toMatchObject({ pegiRating: 12, pegiDescriptors: ["violence", "peur"] });
    expect(errors({ ...game, pegiRating: "13" }).pegiRating).toBe("Classification PEGI inconnue (3, 7, 12, 16 ou 18)");
    expect(errors({ ...game, pegiRating: "", pegiDescriptors: "peur" }).pegiDescriptors).toBe("Choisissez d'abord l'âge PEGI des descripteurs");
    // Another category drops it, as a TCG sub-category is dropped outside TCG.
    expect(values({ ...game, subCategory: "Manga", pegiRating: "12", pegiDescriptors: ["peur"] })).toMatchObject({ pegiRating: null, pegiDescriptors: [] });
  });

  it("checks an EAN's length and check digit", () => {
    expect(values({ ...valid, ean: "96385074" }).ean).toBe("96385074"); // EAN-8
    expect(errors({ ...valid, ean: "4006381333932" }).ean).toBe("Clé de contrôle de l'EAN invalide (le dernier chiffre devrait être 1)");
    expect(errors({ ...valid, ean: "400638133393" }).ean).toBe("L'EAN doit compter 8 ou 13 chiffres");
    expect(errors({ ...valid, ean: "4006381333931X" }).ean).toBe("L'EAN ne doit contenir que des chiffres");
    expect(errors({ ...valid, ean: "4,00638E+12" }).ean).toBe("L'EAN a été converti en nombre par le tableur : mettez la colonne au format texte et recopiez le code");
  });
});

describe("product form: status and launch date", () => {
  it("is en_ligne by default and takes hors_ligne", () => {
    expect(values(valid).status).toBe("en_ligne");
    expect(values({ ...valid, status: "hors_ligne" }).status).toBe("hors_ligne");
    expect(errors({ ...valid, status: "brouillon" }).status).toBe("Statut inconnu");
    expect(errors({ ...valid, status: "a_venir" }).status).toBe("Un produit à venir a besoin d'une date de lancement");
  });

  it("makes a product with a launch to come a_venir, at the Paris time typed", () => {
    // Winter: Paris is UTC+1.
    expect(values({ ...valid, status: "hors_ligne", launchDate: "2026-12-01", launchTime: "18:00" })).toMatchObject({
      status: "a_venir",
      dropTime: new Date("2026-12-01T17:00:00Z"),
    });
    // Summer: UTC+2; the French date format a spreadsheet writes back is read too.
    expect(values({ ...valid, launchDate: "01/07/2027", launchTime: "18:00" }).dropTime).toEqual(new Date("2027-07-01T16:00:00Z"));
    // A date alone opens at midnight, Paris time.
    expect(values({ ...valid, launchDate: "2026-12-01" }).dropTime).toEqual(new Date("2026-11-30T23:00:00Z"));
  });

  it("refuses a launch time that does not exist, a time without a date, and bad dates", () => {
    // 28 March 2027: Paris clocks jump from 02:00 to 03:00.
    expect(errors({ ...valid, launchDate: "2027-03-28", launchTime: "02:30" }).launchTime).toBe(
      "Cette heure n'existe pas ce jour-là (passage à l'heure d'été)",
    );
    expect(errors({ ...valid, launchTime: "18:00" }).launchTime).toBe("Choisissez d'abord une date de lancement");
    expect(errors({ ...valid, launchDate: "2027-02-30" }).launchDate).toBe("Date de lancement invalide");
    expect(errors({ ...valid, launchDate: "demain" }).launchDate).toBe("Date de lancement invalide");
    expect(errors({ ...valid, launchDate: "2027-02-01", launchTime: "24:00" }).launchTime).toBe("Heure de lancement invalide");
  });

  it("refuses a past launch, except the edited product's own, kept to the second", () => {
    const past = { ...valid, launchDate: "2026-11-23", launchTime: "10:30" }; // 09:30 UTC, before now
    expect(errors(past).launchDate).toBe("La date de lancement doit être dans le futur");
    const dropped = new Date("2026-11-23T09:30:17Z");
    expect(values({ ...past, status: "hors_ligne" }, { currentDropTime: dropped })).toMatchObject({ status: "hors_ligne", dropTime: dropped });
    // Moving an edited product's launch into the past is refused all the same.
    expect(errors({ ...past, launchTime: "10:00" }, { currentDropTime: dropped }).launchDate).toBe("La date de lancement doit être dans le futur");
  });

  it("opens a drop on the second when the time says so", () => {
    expect(values({ ...valid, launchDate: "2026-12-01", launchTime: "18:00:30" })).toMatchObject({ status: "a_venir", dropTime: new Date("2026-12-01T17:00:30Z") });
    expect(parisWallTime(new Date("2026-12-01T17:00:30Z"))).toEqual({ date: "2026-12-01", time: "18:00:30" });
    expect(parisWallTime(new Date("2026-12-01T17:00:00Z"))).toEqual({ date: "2026-12-01", time: "18:00" });
    expect(errors({ ...valid, launchDate: "2026-12-01", launchTime: "18:00:61" }).launchTime).toBe("Heure de lancement invalide");
  });

  it("keeps an edited product's future launch as stored when the form shows it unchanged", () => {
    const stored = new Date("2026-12-01T17:00:42Z");
    expect(values({ ...valid, launchDate: "2026-12-01", launchTime: "18:00" }, { currentDropTime: stored })).toMatchObject({
      status: "a_venir",
      dropTime: stored,
    });
  });
});

describe("form data and stored products", () => {
  it("reads FormData, with several additional images", () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(valid)) form.set(key, value as string);
    form.append("additionalImages", "a1");
    form.append("additionalImages", "b2");
    form.set("featured", "on");
    expect(values(productFormInput(form))).toMatchObject({ additionalImages: ["a1", "b2"], featured: true, priceCents: 34_999 });
  });

  it("turns a stored product back into input that parses to the same values", () => {
    const stored = values({
      ...valid,
      featured: "on",
      cardType: "vintage",
      launchDate: "2026-12-24",
      launchTime: "20:15",
      additionalImages: ["a1"],
      series: "Base Set",
      rarity: "rare",
      condition: "excellent",
      compareAt: "399",
      weight: "5",
      vatRate: "5,5",
      marginScheme: "on",
      safetyProfile: "2",
      manufacturerOutsideEu: "oui",
      euRepName: "Autre importateur",
      manufacturerReference: "WOTC-1",
      labelImage: "label_1764000000000_cd34",
      manufacturerName: "Wizards of the Coast LLC",
      manufacturerAddress: "PO Box 707\nRenton",
      manufacturerEmail: "contact@example.com",
      ean: "96385074",
      safetyWarnings: "Petits éléments",
    });
    const input = productFormInputOf(stored);
    expect(input).toMatchObject({ price: "349,99", featured: "on", launchDate: "2026-12-24", launchTime: "20:15", compareAt: "399,00", vatRate: "5,5", marginScheme: "on", safetyProfile: "2" });
    expect(values(input, { currentDropTime: stored.dropTime })).toEqual(stored);
  });

  it("keeps the first message of each field and ignores paths that are no field", () => {
    const error = new z.ZodError([
      { code: "custom", path: ["price"], message: "premier", input: "" },
      { code: "custom", path: ["price"], message: "second", input: "" },
      { code: "custom", path: ["additionalImages", 2], message: "Image invalide", input: "" },
      { code: "custom", path: ["inconnu"], message: "ignoré", input: "" },
    ]);
    expect(productFieldErrors(error)).toEqual({ price: "premier", additionalImages: "Image invalide" });
  });
});
