import { describe, expect, it } from "vitest";
import { parseHeroBanner } from "./site-content";

const DEFAULTS = {
  isActive: true,
  message: "10 € offerts sur votre premier achat en live",
  promoCode: "COMPTOIR10",
  showPromoVersion: 1,
};

describe("parseHeroBanner", () => {
  it("gives the defaults when nothing is stored", () => {
    expect(parseHeroBanner(undefined)).toEqual(DEFAULTS);
    expect(parseHeroBanner(null)).toEqual(DEFAULTS);
    expect(parseHeroBanner({})).toEqual(DEFAULTS);
  });

  it("merges partial stored values over the defaults", () => {
    expect(parseHeroBanner({ isActive: false, promoCode: "ETE25" })).toEqual({
      ...DEFAULTS,
      isActive: false,
      promoCode: "ETE25",
    });
  });

  it("keeps a complete stored banner", () => {
    const stored = { isActive: false, message: "Soldes", promoCode: "SOLDES", showPromoVersion: 3 };
    expect(parseHeroBanner(stored)).toEqual(stored);
  });

  it.each([["garbage"], [42], [[1, 2]], [{ isActive: "oui" }], [{ showPromoVersion: 1.5 }]])(
    "falls back to the defaults for %j",
    (stored) => {
      expect(parseHeroBanner(stored)).toEqual(DEFAULTS);
    },
  );
});
