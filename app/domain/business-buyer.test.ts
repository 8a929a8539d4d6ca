import { describe, expect, it } from "vitest";
import { BUSINESS_MESSAGES, businessBuyerSchema, compactIdentifier, isValidSiren, sirenOfFrenchVatNumber, vatNumberCountry } from "./business-buyer";

describe("isValidSiren", () => {
  it("takes a SIREN whose Luhn sum is a multiple of 10, and La Poste's", () => {
    expect(isValidSiren("303265045")).toBe(true);
    expect(isValidSiren("732829320")).toBe(true);
    expect(isValidSiren("356000000")).toBe(true);
  });
  it("refuses a wrong digit, a length other than 9, letters", () => {
    expect(isValidSiren("303265046")).toBe(false);
    expect(isValidSiren("30326504")).toBe(false);
    expect(isValidSiren("3032650450")).toBe(false);
    expect(isValidSiren("30326504A")).toBe(false);
  });
});

describe("vatNumberCountry", () => {
  it("checks the French key against the SIREN", () => {
    expect(vatNumberCountry("FR40303265045")).toBe("FR");
    expect(vatNumberCountry("FR41303265045")).toBeNull();
    expect(sirenOfFrenchVatNumber("FR40303265045")).toBe("303265045");
  });
  it("checks other member states' numbers, and refuses a state outside the EU", () => {
    expect(vatNumberCountry("BE0411905847")).toBe("BE");
    expect(vatNumberCountry("DE136695976")).toBe("DE");
    expect(vatNumberCountry("DE136695977")).toBeNull();
    expect(vatNumberCountry("CHE123456789")).toBeNull();
    expect(vatNumberCountry("GB980780684")).toBeNull();
  });
});

describe("businessBuyerSchema", () => {
  const parse = (values: Record<string, string>, country = "FR") => businessBuyerSchema(() => country).safeParse({ companyName: "", siren: "", vatNumber: "", ...values });
  const messages = (result: ReturnType<typeof parse>) => (result.success ? [] : result.error.issues.map((issue) => issue.message));

  it("keeps the identifiers as typed with spaces, compacted", () => {
    expect(compactIdentifier(" fr 40-303.265 045 ")).toBe("FR40303265045");
    expect(parse({ companyName: " Le Repaire du Jeu ", siren: "303 265 045", vatNumber: "fr40 303265045" })).toEqual({
      success: true,
      data: { companyName: "Le Repaire du Jeu", siren: "303265045", vatNumber: "FR40303265045" },
    });
  });
  it("needs a SIREN in France, not elsewhere", () => {
    expect(messages(parse({ companyName: "Club", siren: "" }))).toEqual([BUSINESS_MESSAGES.sirenRequired]);
    expect(parse({ companyName: "Spelclub", vatNumber: "BE0411905847" }, "BE")).toMatchObject({ success: true, data: { siren: null } });
  });
  it("refuses a wrong SIREN, a wrong VAT number, a French VAT number of another company", () => {
    expect(messages(parse({ companyName: "Club", siren: "303265046" }))).toEqual([BUSINESS_MESSAGES.siren]);
    expect(messages(parse({ companyName: "Club", siren: "303265045", vatNumber: "FR41303265045" }))).toEqual([BUSINESS_MESSAGES.vatNumber]);
    expect(messages(parse({ companyName: "Club", siren: "732829320", vatNumber: "FR40303265045" }))).toEqual([BUSINESS_MESSAGES.vatNumberSiren]);
    expect(messages(parse({ companyName: " ", siren: "303265045" }))).toEqual([BUSINESS_MESSAGES.companyName]);
  });
});
