import { describe, expect, it } from "vitest";
import { normalizePrivacyEmail } from "./privacy";

describe("normalizePrivacyEmail", () => {
  it("trims and lower-cases an address, the way the database is searched", () => {
    expect(normalizePrivacyEmail("  Gaelle.Invitee@Example.ORG ")).toBe("gaelle.invitee@example.org");
  });
  it("refuses what is not an address", () => {
    for (const value of ["", "   ", "pas une adresse", "a@b", `${"x".repeat(250)}@example.org`, null, 42, ["a@example.org"]]) expect(normalizePrivacyEmail(value)).toBeNull();
  });
});
