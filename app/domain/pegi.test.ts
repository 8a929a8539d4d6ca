import { describe, expect, it } from "vitest";
import { parsePegi, pegiTone, takesPegiRating } from "./pegi";

describe("PEGI rating", () => {
  it("takes the five ages, typed or with PEGI in front, and none", () => {
    for (const age of [3, 7, 12, 16, 18]) expect(parsePegi(String(age), [])).toEqual({ ok: true, age, descriptors: [] });
    expect(parsePegi("PEGI 12", [])).toEqual({ ok: true, age: 12, descriptors: [] });
    expect(parsePegi("", [])).toEqual({ ok: true, age: null, descriptors: [] });
    for (const wrong of ["0", "6", "13", "21", "douze", "12.5"]) {
      expect(parsePegi(wrong, [])).toEqual({ ok: false, field: "pegiRating", message: "Classification PEGI inconnue (3, 7, 12, 16 ou 18)" });
    }
  });

  it("reads descriptors by key or French label, once each, in PEGI's order", () => {
    expect(parsePegi("16", ["Langage grossier", "violence", "VIOLENCE", " achats_integres ", ""])).toEqual({
      ok: true,
      age: 16,
      descriptors: ["violence", "langage_grossier", "achats_integres"],
    });
    expect(parsePegi("18", ["gore"])).toEqual({ ok: false, field: "pegiDescriptors", message: "Descripteur PEGI inconnu « gore »" });
    expect(parsePegi("", ["peur"])).toEqual({ ok: false, field: "pegiDescriptors", message: "Choisissez d'abord l'âge PEGI des descripteurs" });
  });

  it("applies to video games only, coloured as PEGI does", () => {
    expect(takesPegiRating("Gaming & Mangas", "Jeux Vidéo")).toBe(true);
    expect(takesPegiRating("Gaming & Mangas", "Manga")).toBe(false);
    expect(takesPegiRating("TCG", "Jeux Vidéo")).toBe(false);
    expect([3, 7, 12, 16, 18].map((age) => pegiTone(age as 3))).toEqual(["green", "green", "amber", "amber", "red"]);
  });
});
