import { describe, expect, it } from "vitest";
import { intParam, oneOfParam, textParam } from "./query-params";

describe("textParam", () => {
  it("trims, and gives an empty text when missing or too long", () => {
    expect(textParam("  pika ", 10)).toBe("pika");
    expect(textParam(null, 10)).toBe("");
    expect(textParam("x".repeat(11), 10)).toBe("");
    expect(textParam(` ${"x".repeat(10)} `, 10)).toBe("x".repeat(10));
  });
});

describe("oneOfParam", () => {
  const SORTS = ["newest", "name"] as const;
  it("keeps an allowed value and falls back on anything else", () => {
    expect(oneOfParam("name", SORTS, "newest")).toBe("name");
    expect(oneOfParam("random", SORTS, "newest")).toBe("newest");
    expect(oneOfParam(null, SORTS, null)).toBeNull();
    expect(oneOfParam("toString", SORTS, null)).toBeNull();
  });
});

describe("intParam", () => {
  const range = { min: 1, max: 10_000 };
  it.each([
    ["3", 3],
    [" 3 ", 3],
    ["1e3", 1000],
    ["10000", 10_000],
  ])("reads %j as %i", (value, expected) => {
    expect(intParam(value, range, 1)).toBe(expected);
  });

  it.each([null, "", " ", "abc", "2.5", "0", "-4", "10001", "Infinity", "NaN"])("falls back on %j", (value) => {
    expect(intParam(value, range, 1)).toBe(1);
  });
});
