import { describe, expect, it } from "vitest";
import type { LegalFacts } from "~/components/legal/identity";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { cgvHash, renderCgvBlocks } from "./cgv.server";

const facts: LegalFacts = {
  identity: { ...EMPTY_IDENTITY, companyName: "Comptoir SAS", address: "12 rue des Lilas, 69001 Lyon", email: "contact@comptoir.example" },
  shopName: "Comptoir",
  siteUrl: "https://comptoir.example",
  paymentProvider: "stripe",
};

describe("the CGV rendered for a snapshot", () => {
  const blocks = renderCgvBlocks(facts);

  it("is the /legal page's CGV section: its heading, every article, the seller and the withdrawal form", () => {
    expect(blocks[0]).toEqual({ kind: "h2", text: "2. Conditions générales de vente" });
    const headings = blocks.filter((block) => block.kind === "h3").map((block) => block.text);
    expect(headings).toHaveLength(13);
    expect(headings[0]).toBe("Article 1 – Objet et champ d'application");
    expect(headings.at(-1)).toBe("Article 13 – Archivage du contrat");
    const text = blocks.map((block) => block.text).join("\n");
    expect(text).toContain("régissent les ventes conclues sur le site Comptoir (https://comptoir.example)");
    expect(text).toContain("Le paiement est traité par Stripe");
    expect(text).toContain("— À l'attention de Comptoir SAS, 12 rue des Lilas, 69001 Lyon");
    // A field the seller has not given reads as on the page.
    expect(text).toContain("À compléter par le vendeur");
  });

  it("has a stable hash: the same facts give the same version, other facts another", () => {
    expect(cgvHash(renderCgvBlocks(facts))).toBe(cgvHash(blocks));
    expect(cgvHash(blocks)).toMatch(/^[0-9a-f]{64}$/);
    expect(cgvHash(renderCgvBlocks({ ...facts, identity: { ...facts.identity, address: "3 place du Marché, 69002 Lyon" } }))).not.toBe(cgvHash(blocks));
    expect(cgvHash(renderCgvBlocks({ ...facts, paymentProvider: "test" }))).not.toBe(cgvHash(blocks));
  });

  it("has the section for professional buyers only while the seller sells to them, as another version", () => {
    const withPros = renderCgvBlocks({ ...facts, sellToBusinesses: true });
    const text = withPros.map((block) => block.text).join("\n");
    expect(withPros.map((block) => block.text)).toContain("Dispositions propres aux acheteurs professionnels");
    expect(text).toContain("au taux de trois fois le taux d'intérêt légal");
    expect(text).toContain("une indemnité de 40\u00a0euros");
    expect(text).toContain("ne vise que les contrats conclus hors établissement");
    expect(cgvHash(withPros)).not.toBe(cgvHash(blocks));
    expect(blocks.map((block) => block.text).join("\n")).not.toContain("acheteurs professionnels");
    expect(cgvHash(renderCgvBlocks({ ...facts, sellToBusinesses: false }))).toBe(cgvHash(blocks));
  });

  it("is the hash of the blocks' canonical form, fixed for a given text", () => {
    // sha256 of [["p","Le prix est TTC."]]: a change of the serialisation would re-version every order's CGV.
    expect(cgvHash([{ kind: "p", text: "Le prix est TTC." }])).toBe("075fac5f970a585a5700bde5c2b0aade3d24775d5261808387f333184388ad97");
  });
});
