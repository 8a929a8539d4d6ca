import { describe, expect, it } from "vitest";
import { canonicalCgv, cgvBlocksFromMarkup, cgvFileName, cgvVersionLabel } from "./cgv-snapshot";

describe("cgvBlocksFromMarkup", () => {
  it("reads headings, paragraphs and list items with the markers the page shows", () => {
    const markup =
      '<section><h2 id="cgv" class="x">2. Conditions générales de vente</h2><div class="prose"><h3>Article 1 – Objet</h3>' +
      "<p>Le  Client\n les accepte&nbsp;: <a href=\"mailto:a@b.fr\">a@b.fr</a> &amp; <strong>tout</strong>.</p>" +
      "<ol><li>ajoute</li><li>paie</li></ol><ul><li><strong>Cartes.</strong> Un état</li></ul>" +
      '<ul class="list-none! pl-0!"><li>— À l&#x27;attention de</li></ul></div></section>';
    expect(cgvBlocksFromMarkup(markup)).toEqual([
      { kind: "h2", text: "2. Conditions générales de vente" },
      { kind: "h3", text: "Article 1 – Objet" },
      { kind: "p", text: "Le Client les accepte\u00a0: a@b.fr & tout." },
      { kind: "li", text: "1. ajoute" },
      { kind: "li", text: "2. paie" },
      { kind: "li", text: "• Cartes. Un état" },
      { kind: "li", text: "— À l'attention de" },
    ]);
  });

  it("keeps quotations apart, makes a caption a heading and leaves icons out", () => {
    const markup =
      '<figure><figcaption>Modèle</figcaption><p><span data-missing="address"><svg aria-hidden="true"><path d="M1 2"></path><title>x</title></svg>À compléter par le vendeur</span></p></figure>' +
      "<blockquote><p>Article 1641&nbsp;: « Le vendeur »</p></blockquote><p>1<sup>er</sup> alinéa</p>";
    expect(cgvBlocksFromMarkup(markup)).toEqual([
      { kind: "h4", text: "Modèle" },
      { kind: "p", text: "À compléter par le vendeur" },
      { kind: "quote", text: "Article 1641\u00a0: « Le vendeur »" },
      { kind: "p", text: "1er alinéa" },
    ]);
  });

  it("makes no new version for a change of style, and one for any change of wording", () => {
    const a = cgvBlocksFromMarkup('<p class="mt-3">Le prix est TTC.</p>');
    const restyled = cgvBlocksFromMarkup('<p class="mt-4 text-lg">Le prix\n   est TTC.</p>');
    const reworded = cgvBlocksFromMarkup('<p class="mt-3">Le prix est HT.</p>');
    expect(canonicalCgv(restyled)).toBe(canonicalCgv(a));
    expect(canonicalCgv(reworded)).not.toBe(canonicalCgv(a));
  });
});

it("names a version by its hash's first 8 digits", () => {
  const hash = "3f2a9c1b".padEnd(64, "0");
  expect(cgvVersionLabel(hash)).toBe("3f2a9c1b");
  expect(cgvFileName(hash)).toBe("CGV-3f2a9c1b.pdf");
});
