import { describe, expect, it } from "vitest";
import { ENTERTAINMENT_KIND_LABELS, entertainmentKind } from "./entertainment";

describe("entertainmentKind", () => {
  it.each([
    ["Manga", "manga"],
    ["Mangas", "manga"],
    ["Coffret manga", "manga"],
    ["MANGA collector", "manga"],
    ["Jeux Vidéo", "gaming"],
    ["Console", "gaming"],
    ["", "gaming"],
    [null, "gaming"],
    [undefined, "gaming"],
  ] as const)("%j → %s", (subCategory, kind) => {
    expect(entertainmentKind(subCategory)).toBe(kind);
  });

  it("labels the badges as SPEC.md writes them", () => {
    expect(ENTERTAINMENT_KIND_LABELS).toEqual({ manga: "Manga", gaming: "Gaming" });
  });
});
