import { describe, expect, it } from "vitest";
import {
  EMPTY_VALUE,
  LOG_FIELD_LABELS,
  actionCountText,
  changeLineText,
  formatLogDate,
  formatLogValue,
  importAppliedText,
  journalHref,
  logChangeLines,
  logChangeMode,
  logFieldLabel,
  parseJournalQuery,
  truncateText,
} from "./admin-log-view";
import { LOGGED_PRODUCT_FIELDS, productChanges } from "./product-changes";

const NBSP = "\u00a0";
const NNBSP = "\u202f";
/** Intl's French output with plain spaces, to compare against readable literals. */
const plain = (text: string) => text.replace(new RegExp(`[${NBSP}${NNBSP}]`, "g"), " ");

describe("admin log field labels", () => {
  it("labels every logged field in French", () => {
    for (const field of LOGGED_PRODUCT_FIELDS) expect(LOG_FIELD_LABELS[field], field).toBeTruthy();
    expect(logFieldLabel("priceCents")).toBe("Prix");
    expect(logFieldLabel("subCategory")).toBe("Sous-catégorie");
    expect(logFieldLabel("additionalImages")).toBe("Images supplémentaires");
    expect(logFieldLabel("condition")).toBe("État");
    expect(logFieldLabel("archivedAt")).toBe("Archivé");
    // A field a newer version logs keeps its name rather than vanishing.
    expect(logFieldLabel("weight")).toBe("weight");
  });
});

describe("admin log values", () => {
  it("formats prices from cents in euros, and stock as a French number", () => {
    expect(plain(formatLogValue("priceCents", 1299))).toBe("12,99 €");
    expect(plain(formatLogValue("priceCents", 0))).toBe("0,00 €");
    expect(plain(formatLogValue("stock", 1200))).toBe("1 200");
    expect(formatLogValue("stock", 0)).toBe("0");
  });

  it("reads the status, card type, rarity, condition and featured values in French", () => {
    expect(formatLogValue("status", "en_ligne")).toBe("En ligne");
    expect(formatLogValue("status", "hors_ligne")).toBe("Hors ligne");
    expect(formatLogValue("status", "a_venir")).toBe("À venir");
    expect(formatLogValue("cardType", "recent")).toBe("Récente");
    expect(formatLogValue("cardType", "vintage")).toBe("Vintage");
    expect(formatLogValue("rarity", "ultra-rare")).toBe("Ultra rare");
    expect(formatLogValue("condition", "near-mint")).toBe("Near Mint");
    expect(formatLogValue("featured", true)).toBe("Oui");
    expect(formatLogValue("featured", false)).toBe("Non");
    // An unknown value is shown as stored, not hidden.
    expect(formatLogValue("status", "vendu")).toBe("vendu");
  });

  it("shows launch dates in Paris time, in French", () => {
    // 17:00 UTC in November is 18:00 in Paris; 16:00 UTC in July is 18:00 too (summer time).
    expect(plain(formatLogValue("dropTime", "2026-11-21T17:00:00.000Z"))).toBe("21 novembre 2026 à 18:00");
    expect(plain(formatLogValue("dropTime", "2026-07-01T16:00:00.000Z"))).toBe("1 juillet 2026 à 18:00");
    expect(formatLogValue("dropTime", null)).toBe(EMPTY_VALUE);
    expect(formatLogValue("dropTime", "pas une date")).toBe("pas une date");
  });

  it("says whether a product was archived, and when", () => {
    expect(formatLogValue("archivedAt", null)).toBe("Non");
    expect(plain(formatLogValue("archivedAt", "2026-03-02T09:30:00.000Z"))).toBe("Oui, le 2 mars 2026 à 10:30");
  });

  it("reads empty values and image lists", () => {
    for (const empty of [null, undefined, "", []]) expect(formatLogValue("series", empty)).toBe(EMPTY_VALUE);
    expect(formatLogValue("additionalImages", ["pokemon_1_a", "pokemon_1_b"])).toBe("pokemon_1_a, pokemon_1_b");
    expect(formatLogValue("imagePath", "pokemon_1764000000000_x")).toBe("pokemon_1764000000000_x");
    expect(formatLogValue("title", "Display Écarlate")).toBe("Display Écarlate");
  });

  it("cuts long texts at a word, with an ellipsis", () => {
    expect(truncateText("court", 10)).toBe("court");
    expect(truncateText("une description bien trop longue pour la liste", 20)).toBe("une description bien…");
    expect(truncateText("x".repeat(30), 10)).toBe(`${"x".repeat(10)}…`);
  });
});

describe("admin log change lines", () => {
  it("lists the changes in the form's order as « Champ : avant → après »", () => {
    const changes = productChanges(
      { title: "Display", priceCents: 1000, stock: 3, status: "hors_ligne", featured: false },
      { title: "Display", priceCents: 1250, stock: 0, status: "en_ligne", featured: true },
    );
    const lines = logChangeLines({ featured: changes.featured!, stock: changes.stock!, priceCents: changes.priceCents!, status: changes.status! });
    expect(lines.map((line) => line.field)).toEqual(["priceCents", "stock", "status", "featured"]);
    expect(lines.map((line) => plain(changeLineText(line)))).toEqual([
      "Prix : 10,00 € → 12,50 €",
      "Stock : 3 → 0",
      "Statut : Hors ligne → En ligne",
      "Mis en avant : Non → Oui",
    ]);
    expect(changeLineText(lines[0]!)).toContain(`Prix${NBSP}:`);
    expect(logChangeMode("modification", changes)).toBe("changed");
  });

  it("puts fields it does not know last, under their own name", () => {
    const lines = logChangeLines({ weight: { before: 1, after: 2 }, title: { before: "A", after: "B" } });
    expect(lines.map((line) => line.label)).toEqual(["Nom", "weight"]);
  });

  it("shows a creation's values and a deletion's values alone; an archive as changes", () => {
    const product = { title: "Booster", priceCents: 599, stock: 10, status: "en_ligne", series: "Écarlate" };
    const created = productChanges(null, product);
    expect(logChangeMode("ajout", created)).toBe("created");
    const createdLines = logChangeLines(created);
    expect(plain(changeLineText(createdLines.find((line) => line.field === "priceCents")!, "created"))).toBe("Prix : 5,99 €");

    const deleted = productChanges(product, null);
    expect(logChangeMode("suppression", deleted)).toBe("deleted");
    expect(changeLineText(logChangeLines(deleted)[0]!, "deleted")).toBe(`Nom${NBSP}: Booster`);

    const archived = productChanges(product, { ...product, status: "hors_ligne", archivedAt: new Date("2026-03-02T09:30:00Z") });
    expect(logChangeMode("suppression", archived)).toBe("changed");
    expect(logChangeLines(archived).map((line) => plain(changeLineText(line)))).toEqual([
      "Statut : En ligne → Hors ligne",
      "Archivé : Non → Oui, le 2 mars 2026 à 10:30",
    ]);
  });
});

describe("journal URL and texts", () => {
  const parse = (search: string) => parseJournalQuery(new URLSearchParams(search));

  it("reads the product filter and the page, anything invalid as the default", () => {
    expect(parse("")).toEqual({ productId: null, page: 1 });
    expect(parse("product=12&page=3")).toEqual({ productId: 12, page: 3 });
    expect(parse("product=abc&page=-1")).toEqual({ productId: null, page: 1 });
    expect(parse("product=0")).toEqual({ productId: null, page: 1 });
    expect(parse("product=99999999999")).toEqual({ productId: null, page: 1 });
    expect(parse("product=2.5")).toEqual({ productId: null, page: 1 });
  });

  it("writes the URL without the defaults, and reads it back", () => {
    expect(journalHref({ productId: null, page: 1 })).toBe("/admin/journal");
    expect(journalHref({ productId: 7, page: 1 })).toBe("/admin/journal?product=7");
    expect(journalHref({ productId: 7, page: 2 })).toBe("/admin/journal?product=7&page=2");
    expect(parse(journalHref({ productId: 7, page: 2 }).split("?")[1]!)).toEqual({ productId: 7, page: 2 });
  });

  it("dates entries in Paris time", () => {
    expect(plain(formatLogDate(new Date("2026-11-21T17:05:00Z")))).toBe("21/11/2026 18:05");
    expect(plain(formatLogDate("2026-07-01T22:30:00Z"))).toBe("02/07/2026 00:30");
  });

  it("counts actions and says what an import applied", () => {
    expect(actionCountText(0)).toBe("Aucune action");
    expect(actionCountText(1)).toBe("1 action enregistrée");
    expect(plain(actionCountText(1500))).toBe("1 500 actions enregistrées");
    expect(plain(importAppliedText(2, 1))).toBe("Import appliqué : 2 créés, 1 mis à jour.");
    expect(plain(importAppliedText(1, 0))).toBe("Import appliqué : 1 créé, 0 mis à jour.");
    expect(plain(importAppliedText(0, 3))).toBe("Import appliqué : 0 créé, 3 mis à jour.");
  });
});
