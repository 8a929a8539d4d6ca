import { describe, expect, it } from "vitest";
import { shouldRedirectToCatalog } from "./not-found";

describe("shouldRedirectToCatalog", () => {
  it("redirects vanished product pages", () => {
    expect(shouldRedirectToCatalog("/product/12")).toBe(true);
    expect(shouldRedirectToCatalog("/product/dracaufeu-ex")).toBe(true);
  });

  it("does not redirect /product/undefined nor other paths", () => {
    expect(shouldRedirectToCatalog("/product/undefined")).toBe(false);
    expect(shouldRedirectToCatalog("/foo")).toBe(false);
    expect(shouldRedirectToCatalog("/products")).toBe(false);
    expect(shouldRedirectToCatalog("/catalog")).toBe(false);
  });
});
