import { describe, expect, it } from "vitest";
import { MAIN_NAV, navSection } from "./navigation";

describe("navSection", () => {
  it("is the address's first segment, case aside", () => {
    expect(navSection("/")).toBe("");
    expect(navSection("/catalog")).toBe("catalog");
    expect(navSection("/TCG")).toBe("tcg");
    expect(navSection("/product/12-pikachu")).toBe("product");
  });

  it("is all the main menu's current link depends on: each of its paths is one segment", () => {
    for (const item of MAIN_NAV) expect(item.to).toMatch(/^\/[a-z]*$/);
  });
});
