import { describe, expect, it } from "vitest";
import { hasForbiddenCharacters, sliceText, visibleLength, withoutForbiddenCharacters } from "./text-rules";
import { metaDescription } from "~/lib/seo";
import { truncateText } from "./admin-log-view";

describe("text rules", () => {
  it("refuses control characters and bidi overrides, not accents or emoji", () => {
    expect(["a\u0007", "a\u202eb", "x\u2066"].map(hasForbiddenCharacters)).toEqual([true, true, true]);
    expect(["Zoë Ñúñez", "Pikachu ⚡️", "🃏 Dracaufeu"].map(hasForbiddenCharacters)).toEqual([false, false, false]);
    expect(visibleLength("\u200b \u200b")).toBe(0);
  });

  it("drops them from text the shop did not ask itself (the payment provider's address)", () => {
    expect(withoutForbiddenCharacters(" Marie \u202eevil\u0007 ")).toBe("Marie evil");
    expect(withoutForbiddenCharacters("Bât. B, 3ᵉ étage 🃏")).toBe("Bât. B, 3ᵉ étage 🃏");
  });

  it("cuts a text without splitting an emoji in two (a lone half shows as �)", () => {
    const text = `${"a".repeat(4)}🃏🃏`;
    expect(sliceText(text, 5)).toBe("aaaa");
    expect(sliceText(text, 6)).toBe("aaaa🃏");
    expect(sliceText("court", 120)).toBe("court");
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/;
    expect(metaDescription(`${"a".repeat(154)}🃏 fin`)).not.toMatch(lone);
    expect(truncateText(`${"c".repeat(79)}🃏${"c".repeat(20)}`, 80)).not.toMatch(lone);
  });
});
