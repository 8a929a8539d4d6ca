import { describe, expect, it } from "vitest";
import { parseThemeChoice, resolveTheme } from "./theme";

describe("parseThemeChoice", () => {
  it("keeps the three known choices", () => {
    expect(parseThemeChoice("light")).toBe("light");
    expect(parseThemeChoice("dark")).toBe("dark");
    expect(parseThemeChoice("system")).toBe("system");
  });

  it.each([null, undefined, "", "blue", "LIGHT"])("defaults %j to dark", (value) => {
    expect(parseThemeChoice(value)).toBe("dark");
  });
});

describe("resolveTheme", () => {
  it("follows the system preference only for system", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });
});
