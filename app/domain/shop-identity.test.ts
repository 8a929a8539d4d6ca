import { describe, expect, it } from "vitest";
import { fieldErrors } from "./auth-forms";
import {
  EMPTY_IDENTITY,
  IDENTITY_FIELDS,
  IDENTITY_KEYS,
  LEGAL_TEXTS_REVISED_AT,
  type LegalIdentity,
  frenchVatKey,
  isValidSiren,
  RNE_REGISTRATION,
  legalFormCode,
  legalFormLabel,
  legalPageDate,
  missingIdentityFields,
  requiredIdentityFields,
  sellerDesignation,
  sellerName,
  sellerRegistration,
} from "./shop-identity";
import { formatParisDate } from "./paris-time";
import { capitalRequiredMessage, legalIdentitySchema, resolveIdentity } from "./shop-identity-schema";

/** A made-up company whose numbers agree (SIREN check digit, VAT key). */
const FULL: LegalIdentity = {
  companyName: "Comptoir des Collectionneurs",
  legalForm: "SASU",
  shareCapital: "1\u202f000\u00a0€",
  rcsCity: "Lyon",
  rcsNumber: "B 123 456 782",
  siren: "123 456 782",
  vatNumber: `FR${frenchVatKey("123456782")}123456782`,
  address: "12 rue des Collectionneurs, 69002 Lyon",
  email: "contact@comptoir-collection.fr",
  phone: "04 78 00 00 00",
  publicationDirector: "Camille Martin",
  hostName: "Hébergeur Exemple SAS",
  hostAddress: "2 rue de l'Hébergement, 59100 Roubaix",
  hostPhone: "+33 9 72 00 00 00",
  mediatorName: "Médiation Exemple",
  mediatorUrl: "https://www.mediation-exemple.fr/",
};

const parse = (values: Record<string, string>) => legalIdentitySchema.safeParse({ ...FULL, ...values });
const errorsOf = (values: Record<string, string>) => {
  const result = parse(values);
  return result.success ? {} : fieldErrors(result.error);
};

describe("the identity's fields", () => {
  it("has a unique label for every field, in four groups", () => {
    const labels = IDENTITY_KEYS.map((key) => IDENTITY_FIELDS[key].label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(new Set(IDENTITY_KEYS.map((key) => IDENTITY_FIELDS[key].group))).toEqual(new Set(["company", "contact", "host", "mediator"]));
  });

  it("checks SIREN check digits and computes French VAT keys", () => {
    expect(isValidSiren("123456782")).toBe(true);
    expect(isValidSiren("123456789")).toBe(false);
    expect(isValidSiren("000000000")).toBe(false);
    expect(isValidSiren("12345678")).toBe(false);
    // Published pairs: FR 59 542 051 180 and FR 40 303 265 045.
    expect(frenchVatKey("542051180")).toBe("59");
    expect(frenchVatKey("303265045")).toBe("40");
  });

  it("names the usual legal forms in full", () => {
    expect(legalFormLabel("SASU")).toBe("société par actions simplifiée unipersonnelle (SASU)");
    expect(legalFormLabel("sarl")).toBe("société à responsabilité limitée (SARL)");
    expect(legalFormLabel("Société coopérative")).toBe("Société coopérative");
  });
});

describe("legalIdentitySchema", () => {
  it("accepts a complete identity as it is", () => {
    expect(parse({})).toEqual({ success: true, data: FULL });
  });

  it("accepts every field empty (the seller may not have them yet), and a post without the field", () => {
    expect(legalIdentitySchema.parse(EMPTY_IDENTITY)).toEqual(EMPTY_IDENTITY);
    expect(legalIdentitySchema.parse({})).toEqual(EMPTY_IDENTITY);
  });

  it("writes the numbers one way, whatever the spacing", () => {
    const data = legalIdentitySchema.parse({
      siren: "123456782",
      rcsNumber: "b123456782",
      vatNumber: `fr ${frenchVatKey("123456782")} 123 456 782`,
      shareCapital: "1000",
      email: "  Contact@Comptoir-Collection.FR ",
      mediatorUrl: "www.mediation-exemple.fr",
      companyName: "  Comptoir  ",
    });
    expect(data).toMatchObject({
      siren: "123 456 782",
      rcsNumber: "B 123 456 782",
      vatNumber: `FR${frenchVatKey("123456782")}123456782`,
      shareCapital: "1\u202f000\u00a0€",
      email: "contact@comptoir-collection.fr",
      mediatorUrl: "https://www.mediation-exemple.fr/",
      companyName: "Comptoir",
    });
    expect(legalIdentitySchema.parse({ shareCapital: "1 500,50 euros" }).shareCapital).toBe("1\u202f500,50\u00a0€");
  });

  it("refuses bad numbers with French messages", () => {
    expect(errorsOf({ siren: "12345678" }).siren).toMatch(/^Le SIREN compte 9 chiffres/);
    expect(errorsOf({ siren: "123 456 789" }).siren).toMatch(/vérifiez-le/);
    expect(errorsOf({ siren: "000 000 000" }).siren).toBeDefined();
    expect(errorsOf({ vatNumber: "DE123456789" }).vatNumber).toMatch(/^Le numéro de TVA s'écrit FR suivi de 11 caractères/);
    expect(errorsOf({ vatNumber: "FR00123456782" }).vatNumber).toBe("La clé de ce numéro de TVA ne correspond pas au SIREN qu'il contient\u00a0: vérifiez-le");
    expect(errorsOf({ rcsNumber: "RCS 12" }).rcsNumber).toMatch(/^Le numéro RCS reprend les 9 chiffres du SIREN/);
    expect(errorsOf({ shareCapital: "beaucoup" }).shareCapital).toBe("Indiquez le capital en euros (ex. 1 000 €)");
    expect(errorsOf({ shareCapital: "0" }).shareCapital).toBeDefined();
    expect(errorsOf({ email: "contact@" }).email).toMatch(/^Adresse e-mail invalide/);
    expect(errorsOf({ phone: "appelez-nous" }).phone).toMatch(/^Numéro de téléphone invalide/);
    expect(errorsOf({ hostPhone: "123" }).hostPhone).toMatch(/^Numéro de téléphone invalide/);
    // A host's short service number is a number.
    expect(parse({ hostPhone: "1007" }).success).toBe(true);
  });

  it("makes the RCS and VAT numbers agree with the SIREN", () => {
    const other = "542051180";
    expect(errorsOf({ rcsNumber: other }).rcsNumber).toBe("Le numéro RCS doit reprendre le SIREN");
    expect(errorsOf({ vatNumber: `FR${frenchVatKey(other)}${other}` }).vatNumber).toBe("Le numéro de TVA doit contenir le SIREN");
    // Without a SIREN there is nothing to compare with.
    expect(parse({ siren: "", rcsNumber: other }).success).toBe(true);
  });

  it("refuses the shop's example values, which /legal shows as still to give", () => {
    const errors = errorsOf({ companyName: "Comptoir SASU", email: "Contact@Comptoir.example", address: "1 rue de l'Exemple, 75001 Paris, France" });
    const refused = "C'est la valeur d'exemple de la boutique\u00a0: indiquez la vôtre";
    expect([errors.companyName, errors.email, errors.address]).toEqual([refused, refused, refused]);
    expect(parse({ companyName: "Comptoir SAS" }).success).toBe(true);
  });

  it("only takes web addresses for the mediator's site", () => {
    for (const bad of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://mediateur.fr", "https://localhost", "https://user:pass@mediateur.fr"]) {
      expect(errorsOf({ mediatorUrl: bad }).mediatorUrl, bad).toBe("Adresse de site invalide (ex. https://www.mediateur.fr)");
    }
  });

  it("refuses control characters and overlong text, keeps markup as text", () => {
    expect(errorsOf({ companyName: "Comptoir\u0000" }).companyName).toBe("Ce champ contient des caractères non autorisés");
    expect(errorsOf({ address: "x".repeat(301) }).address).toBe("Ce champ doit contenir au plus 300 caractères");
    expect(errorsOf({ companyName: 42 as unknown as string }).companyName).toBe("Ce champ doit être du texte");
    // Markup is plain text to the schema: the pages escape it.
    expect(parse({ companyName: "<script>alert(1)</script>" }).success).toBe(true);
  });
});

describe("missing fields", () => {
  it("lists every empty field in form order", () => {
    expect(missingIdentityFields(FULL)).toEqual([]);
    expect(missingIdentityFields({ ...FULL, vatNumber: "", companyName: "" })).toEqual(["companyName", "vatNumber"]);
    expect(missingIdentityFields(EMPTY_IDENTITY)).toEqual(IDENTITY_KEYS);
  });
});

describe("resolveIdentity", () => {
  const defaults = { ...EMPTY_IDENTITY, companyName: "Depuis la configuration", legalForm: "SASU" };

  it("takes the configured first values when nothing is stored", () => {
    expect(resolveIdentity(undefined, defaults)).toEqual(defaults);
    expect(resolveIdentity(null, FULL)).toEqual(FULL);
  });

  it("keeps a stored field, even emptied, over its first value; a field never stored falls back", () => {
    expect(resolveIdentity({ companyName: "" }, defaults).companyName).toBe("");
    expect(resolveIdentity({ companyName: "Stockée" }, defaults)).toMatchObject({ companyName: "Stockée", legalForm: "SASU" });
  });

  it("reads the shipped example values as missing, so the admin warns about them", () => {
    const examples = {
      ...FULL,
      companyName: "Comptoir SASU",
      siren: "000 000 000",
      address: "1 rue de l'Exemple, 75001 Paris, France",
      hostName: "Hébergeur à renseigner (LEGAL_HOST)",
      email: "contact@comptoir.example",
      rcsNumber: "",
      vatNumber: "",
    };
    const identity = resolveIdentity(undefined, examples);
    expect(missingIdentityFields(identity)).toEqual(["companyName", "rcsNumber", "siren", "vatNumber", "address", "email", "hostName"]);
    expect(missingIdentityFields(resolveIdentity(examples, FULL))).toHaveLength(7);
  });

  it("drops what a tampered row holds that the form would refuse", () => {
    const identity = resolveIdentity({ ...FULL, mediatorUrl: "javascript:alert(1)", phone: 33, email: ["x"], siren: "nope" }, FULL);
    expect(identity).toMatchObject({ mediatorUrl: "", phone: "", email: "", siren: "" });
    expect(identity.companyName).toBe(FULL.companyName);
  });
});

describe("the page's date", () => {
  it("is the later of the texts' revision and the identity's last change, in French", () => {
    expect(legalPageDate(null)).toBe(LEGAL_TEXTS_REVISED_AT);
    expect(legalPageDate(new Date("2020-01-01"))).toBe(LEGAL_TEXTS_REVISED_AT);
    const later = new Date("2027-03-14T23:30:00Z");
    expect(legalPageDate(later)).toBe(later);
    // 23:30 UTC on 14 March is already the 15th in Paris.
    expect(formatParisDate(later)).toBe("15 mars 2027");
    expect(formatParisDate(LEGAL_TEXTS_REVISED_AT)).toBe("23 novembre 2026");
  });
});

/** A micro-entrepreneur: no capital, no RCS (RNE only), no VAT number under the franchise. */
const EI: LegalIdentity = { ...FULL, companyName: "Jeanne Martin", legalForm: "EI", shareCapital: "", rcsCity: "", rcsNumber: "", vatNumber: "" };

describe("legal forms (issue 52)", () => {
  it("reads the ways sellers write a form as its code, and knows no other", () => {
    expect(["EI", "ei", "Entrepreneur individuel", "micro-entrepreneur", "Micro entreprise", "auto-entrepreneur"].map(legalFormCode)).toEqual(Array(6).fill("EI"));
    expect(["sasu", " SARL ", "EURL", "SAS"].map(legalFormCode)).toEqual(["SASU", "SARL", "EURL", "SAS"]);
    expect(legalFormCode("Société coopérative")).toBeNull();
    expect(legalFormLabel("micro-entrepreneur")).toBe("entrepreneur individuel (EI)");
  });

  it("asks an EI for no capital, and neither RCS nor VAT number; a company for every field", () => {
    const ei = requiredIdentityFields("EI");
    expect(ei).not.toEqual(expect.arrayContaining(["shareCapital"]));
    expect(IDENTITY_KEYS.filter((key) => !ei.includes(key))).toEqual(["shareCapital", "rcsCity", "rcsNumber", "vatNumber"]);
    for (const form of ["EURL", "SARL", "SAS", "SASU", "", "Société coopérative"]) expect(requiredIdentityFields(form)).toEqual(IDENTITY_KEYS);
    expect(missingIdentityFields(EI)).toEqual([]);
    // The same fields empty in a SAS: its capital, registration and VAT number are missing.
    expect(missingIdentityFields({ ...EI, legalForm: "SAS", companyName: "Comptoir" })).toEqual(["shareCapital", "rcsCity", "rcsNumber", "vatNumber"]);
  });

  it("writes the seller's designation line from the parts given, never an empty one", () => {
    expect(sellerDesignation(FULL)).toBe("Comptoir des Collectionneurs, société par actions simplifiée unipersonnelle (SASU), au capital de 1\u202f000\u00a0€");
    expect(sellerDesignation({ ...FULL, legalForm: "SARL", shareCapital: "" })).toBe("Comptoir des Collectionneurs, société à responsabilité limitée (SARL)");
    expect(sellerDesignation({ ...FULL, companyName: "", legalForm: "" })).toBe("au capital de 1\u202f000\u00a0€");
    expect(sellerDesignation({ ...FULL, companyName: "", legalForm: "", shareCapital: "" })).toBe("");
    // An EI: the name followed by "EI", no capital even if one was left in the row.
    expect(sellerDesignation({ ...EI, shareCapital: "1 000 €" })).toBe("Jeanne Martin EI");
    expect(sellerName(EI)).toBe("Jeanne Martin EI");
    expect(sellerName({ ...EI, companyName: "Jeanne Martin EI" })).toBe("Jeanne Martin EI");
    expect(sellerName({ ...EI, companyName: "Jeanne Martin, entrepreneur individuel" })).toBe("Jeanne Martin, entrepreneur individuel");
    expect(sellerName({ ...EI, companyName: "" })).toBe("");
    expect(sellerName(FULL)).toBe("Comptoir des Collectionneurs");
    for (const identity of [FULL, EI, EMPTY_IDENTITY, { ...FULL, legalForm: "" }, { ...EI, companyName: "" }]) expect(sellerDesignation(identity)).not.toMatch(/^,|, ,|,,|,\s*$/);
  });

  it("says where the seller is registered: the RCS, else the RNE for an EI with a SIREN", () => {
    expect(sellerRegistration(FULL)).toBe("RCS Lyon B 123 456 782");
    expect(sellerRegistration(EI)).toBe(RNE_REGISTRATION);
    expect(sellerRegistration({ ...EI, rcsCity: "Lyon", rcsNumber: "123 456 782" })).toBe("RCS Lyon 123 456 782");
    expect(sellerRegistration({ ...EI, siren: "" })).toBe("");
    expect(sellerRegistration({ ...FULL, rcsCity: "", rcsNumber: "" })).toBe("");
  });

  it("saves an EI without capital, drops a capital posted with it, and writes the form as its code", () => {
    const saved = legalIdentitySchema.parse({ ...EI, legalForm: "micro-entrepreneur", shareCapital: "1 000 €" });
    expect(saved).toMatchObject({ legalForm: "EI", shareCapital: "" });
  });

  it("refuses a company's capital at 0 € in French, naming the form, and a form not in the list", () => {
    expect(errorsOf({ legalForm: "SAS", shareCapital: "0" }).shareCapital).toBe(capitalRequiredMessage("SAS"));
    expect(capitalRequiredMessage("SAS")).toBe("Une SAS a un capital social d'au moins 1\u00a0€\u00a0: indiquez celui de ses statuts");
    expect(errorsOf({ legalForm: "SARL", shareCapital: "0,00 €" }).shareCapital).toMatch(/^Une SARL a un capital social/);
    expect(errorsOf({ legalForm: "Société coopérative" }).legalForm).toBe("Choisissez la forme juridique dans la liste (EI, EURL, SARL, SAS ou SASU)");
  });

  it("asks an EI at the RCS for both the registry's city and the number, or neither", () => {
    expect(errorsOf({ ...EI, rcsCity: "Lyon" }).rcsNumber).toMatch(/^Indiquez la ville du greffe et le numéro RCS, ou aucun des deux/);
    expect(errorsOf({ ...EI, rcsNumber: "123 456 782" }).rcsCity).toMatch(/^Indiquez la ville du greffe/);
    expect(parse({ ...EI, rcsCity: "Lyon", rcsNumber: "123 456 782" }).success).toBe(true);
    expect(parse(EI).success).toBe(true);
  });
});
