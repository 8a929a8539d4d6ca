import { describe, expect, it } from "vitest";
import { moveActiveOption, parseSuggestionQuery, wantsSuggestions } from "./suggestions";

describe("wantsSuggestions", () => {
  it("starts after more than 1 character, spaces not counted", () => {
    expect(wantsSuggestions("")).toBe(false);
    expect(wantsSuggestions("p")).toBe(false);
    expect(wantsSuggestions("  é  ")).toBe(false);
    expect(wantsSuggestions("po")).toBe(true);
  });
});

describe("parseSuggestionQuery", () => {
  const parse = (search: string) => parseSuggestionQuery(new URLSearchParams(search));

  it("trims the text", () => {
    expect(parse("q=%20%20pokemon%20")).toBe("pokemon");
  });

  it("gives an empty text when q is missing or longer than 100 characters", () => {
    expect(parse("")).toBe("");
    expect(parse(`q=${"a".repeat(101)}`)).toBe("");
    expect(parse(`q=${"a".repeat(100)}`)).toHaveLength(100);
  });
});

describe("moveActiveOption", () => {
  it("starts at the first option going down and at the last going up", () => {
    expect(moveActiveOption(-1, 3, 1)).toBe(0);
    expect(moveActiveOption(-1, 3, -1)).toBe(2);
  });

  it("wraps at both ends", () => {
    expect(moveActiveOption(2, 3, 1)).toBe(0);
    expect(moveActiveOption(0, 3, -1)).toBe(2);
    expect(moveActiveOption(1, 3, 1)).toBe(2);
  });

  it("has nowhere to go without options", () => {
    expect(moveActiveOption(-1, 0, 1)).toBe(-1);
  });
});
