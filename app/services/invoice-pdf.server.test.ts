import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FRANCHISE_MENTION, type InvoiceSnapshot, MARGIN_SCHEME_MENTION } from "~/domain/invoice";
import { renderInvoicePdf } from "./invoice-pdf.server";

/**
 * The PDF is read back as a person's PDF reader would: its text by pdftotext, its pages by
 * pdfinfo, its fonts by pdffonts (poppler-utils). On CI a missing poppler fails the run (.ci/run installs it);
 * elsewhere the checks that need it say they skip.
 */
const hasPoppler = spawnSync("pdftotext", ["-v"], { stdio: "ignore" }).status === 0 && spawnSync("pdfinfo", ["-v"], { stdio: "ignore" }).status === 0;
if (!hasPoppler && process.env.CI) throw new Error("pdftotext/pdfinfo are missing: the invoice PDF tests need them on CI (.ci/run installs poppler-utils)");
if (!hasPoppler) console.warn("invoice-pdf: no pdftotext/pdfinfo on this machine (Debian: poppler-utils), the PDF's text and pages are not checked");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-invoice-pdf-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
function saved(pdf: Uint8Array): string {
  const file = path.join(dir, `document-${++files}.pdf`);
  fs.writeFileSync(file, pdf);
  return file;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** The PDF's text, every run of spaces (no-break ones included) as one space. */
const textOf = (pdf: Uint8Array) => run("pdftotext", ["-enc", "UTF-8", saved(pdf), "-"]).replace(/\s+/g, " ");
const pagesOf = (pdf: Uint8Array) => Number(/^Pages:\s+(\d+)$/m.exec(run("pdfinfo", [saved(pdf)]))?.[1]);
/** As the PDF's text has it: formatEuros's and formatVatRate's no-break spaces read as spaces. */
const plain = (text: string) => text.replace(/\s+/g, " ");

/**
 * Two mangas at 5,5 %, three boosters at 20 %, a second-hand card under the margin scheme, 10 %
 * off (code BIENVENUE) and delivery with insurance: the amounts allocateVat gives for this order.
 */
const INVOICE: InvoiceSnapshot = {
  kind: "invoice",
  number: "F-2026-000042",
  issuedAt: "2026-11-23T09:15:00.000Z",
  cancelsInvoice: null,
  orderNumber: "CMD-2026-1187",
  orderedAt: "2026-11-22T22:40:00.000Z",
  paidAt: "2026-11-22T22:41:00.000Z",
  paymentMethod: "Carte bancaire",
  seller: {
    name: "Comptoir des Cartes",
    legalForm: "SASU",
    shareCapital: "1 000 €",
    address: "12 rue des Collectionneurs, 75011 Paris",
    siren: "123 456 782",
    rcs: "Paris B 123 456 782",
    vatNumber: "FR32123456782",
    email: "contact@comptoir.fr",
    phone: "01 23 45 67 89",
  },
  buyer: { name: "Élodie Lefèvre", email: "elodie.lefevre@example.fr", addressLines: ["Élodie Lefèvre", "8 allée des Châtaigniers", "69003 Lyon", "France"] },
  delivery: { methodName: "Colissimo suivi", addressLines: ["Élodie Lefèvre", "8 allée des Châtaigniers", "69003 Lyon", "France"] },
  lines: [
    { name: "One Piece – Tome 104", quantity: 2, unitPriceCents: 720, totalCents: 1296, vatRateBp: 550, vatScheme: "normal" },
    { name: "Booster Écarlate et Violet – Évolutions à Paldea", quantity: 3, unitPriceCents: 650, totalCents: 1755, vatRateBp: 2000, vatScheme: "normal" },
    { name: "Dracaufeu ex 199/165 (occasion, très bon état)", quantity: 1, unitPriceCents: 2500, totalCents: 2250, vatRateBp: null, vatScheme: "margin" },
  ],
  charges: [
    { label: "Livraison : Colissimo suivi", totalCents: 690 },
    { label: "Assurance du colis", totalCents: 120 },
  ],
  discount: { code: "BIENVENUE", cents: 589 },
  vatBreakdown: [
    { rateBp: 2000, baseCents: 1850, vatCents: 371, totalCents: 2221 },
    { rateBp: 550, baseCents: 1554, vatCents: 86, totalCents: 1640 },
  ],
  totals: { exclVatCents: 5654, vatCents: 457, inclVatCents: 6111, marginSchemeCents: 2250 },
  vatRegime: "normal",
  mentions: [MARGIN_SCHEME_MENTION, "Facture acquittée le 22 novembre 2026 par carte bancaire."],
};

const negate = (cents: number) => -cents;
const CREDIT_NOTE: InvoiceSnapshot = {
  ...INVOICE,
  kind: "credit_note",
  number: "A-2026-000007",
  issuedAt: "2026-12-02T14:00:00.000Z",
  cancelsInvoice: "F-2026-000042",
  lines: INVOICE.lines.map((line) => ({ ...line, unitPriceCents: negate(line.unitPriceCents), totalCents: negate(line.totalCents) })),
  charges: INVOICE.charges.map((charge) => ({ ...charge, totalCents: negate(charge.totalCents) })),
  discount: { code: "BIENVENUE", cents: -589 },
  vatBreakdown: INVOICE.vatBreakdown.map((row) => ({ ...row, baseCents: negate(row.baseCents), vatCents: negate(row.vatCents), totalCents: negate(row.totalCents) })),
  totals: { exclVatCents: -5654, vatCents: -457, inclVatCents: -6111, marginSchemeCents: -2250 },
  mentions: [MARGIN_SCHEME_MENTION, "Avoir remboursé le 2 décembre 2026 par carte bancaire."],
};

describe("renderInvoicePdf", () => {
  it("makes a PDF, the same bytes for the same snapshot", async () => {
    const pdf = await renderInvoicePdf(INVOICE);
    expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(Buffer.from(await renderInvoicePdf(INVOICE)).equals(Buffer.from(pdf))).toBe(true);
  });

  describe.skipIf(!hasPoppler)("read back", () => {
    it("prints an invoice's number, parties, lines, VAT by rate, totals and mentions", async () => {
      const pdf = await renderInvoicePdf(INVOICE);
      const text = textOf(pdf);
      for (const expected of [
        "FACTURE",
        "F-2026-000042",
        "Date d'émission : 23 novembre 2026",
        // The seller.
        "Comptoir des Cartes",
        "SASU au capital de 1 000 €",
        "12 rue des Collectionneurs, 75011 Paris",
        "SIREN 123 456 782 · RCS Paris B 123 456 782",
        "TVA intracommunautaire FR32123456782",
        "contact@comptoir.fr · 01 23 45 67 89",
        // The buyer, the order, the delivery.
        "Élodie Lefèvre",
        "8 allée des Châtaigniers",
        "elodie.lefevre@example.fr",
        "CMD-2026-1187",
        "22 novembre 2026 à 23:40",
        "Carte bancaire",
        "Colissimo suivi",
        // The lines, charges and discount.
        "One Piece – Tome 104",
        "Booster Écarlate et Violet – Évolutions à Paldea",
        "7,20 €",
        "12,96 €",
        "6,50 €",
        "17,55 €",
        "Occasion",
        "22,50 €",
        "Livraison : Colissimo suivi 6,90 €",
        "Assurance du colis 1,20 €",
        "Remise « BIENVENUE »",
        "-5,89 €",
        // VAT by rate, totals.
        "20 %",
        "5,5 %",
        "18,50 €",
        "3,71 €",
        "22,21 €",
        "15,54 €",
        "0,86 €",
        "16,40 €",
        "Total HT 56,54 €",
        "TVA 4,57 €",
        "Total TTC 61,11 €",
        // The mentions.
        "Régime particulier – Biens d'occasion",
        "Facture acquittée le 22 novembre 2026 par carte bancaire.",
      ]) {
        expect(text).toContain(plain(expected));
      }
      expect(text).not.toContain("Annule");
      expect(pagesOf(pdf)).toBe(1);
      // Its own font, embedded and subset, not a standard PDF font (whose encoding has no U+202F).
      const fonts = run("pdffonts", [saved(pdf)]);
      expect(fonts).toMatch(/DejaVuSans\s.*\byes\s+yes\s+yes\b/);
      expect(fonts).toMatch(/DejaVuSans-Bold\s.*\byes\s+yes\s+yes\b/);
      expect(fonts).not.toMatch(/Helvetica/);
    });

    it("prints a credit note's amounts as given, negative, and the invoice it cancels", async () => {
      const text = textOf(await renderInvoicePdf(CREDIT_NOTE));
      for (const expected of [
        "AVOIR",
        "A-2026-000007",
        "Date d'émission : 2 décembre 2026",
        "Annule la facture F-2026-000042",
        "-7,20 €",
        "-12,96 €",
        "-22,50 €",
        "Livraison : Colissimo suivi -6,90 €",
        "-18,50 €",
        "-3,71 €",
        "Total HT -56,54 €",
        "TVA -4,57 €",
        "Total TTC -61,11 €",
        "Avoir remboursé le 2 décembre 2026 par carte bancaire.",
      ]) {
        expect(text).toContain(plain(expected));
      }
      expect(text).not.toContain("FACTURE ");
    });

    it("shows no rate under the franchise, only its mention", async () => {
      const franchise: InvoiceSnapshot = {
        ...INVOICE,
        seller: { ...INVOICE.seller, vatNumber: "" },
        lines: INVOICE.lines.slice(0, 2).map((line) => ({ ...line, vatRateBp: null })),
        discount: null,
        vatBreakdown: [],
        totals: { exclVatCents: 3861, vatCents: 0, inclVatCents: 3861, marginSchemeCents: 0 },
        vatRegime: "franchise",
        mentions: [FRANCHISE_MENTION],
      };
      const text = textOf(await renderInvoicePdf(franchise));
      expect(text).toContain("TVA non applicable, art. 293 B du CGI");
      expect(text).toContain(plain("Total TTC 38,61 €"));
      expect(text).not.toMatch(/\d %/);
      expect(text).not.toContain("TVA intracommunautaire");
      expect(text).not.toContain("DÉTAIL DE LA TVA");
    });

    it("goes on over pages for a long order, the table's header on each", async () => {
      const long: InvoiceSnapshot = {
        ...INVOICE,
        lines: Array.from({ length: 60 }, (_, i) => ({ ...INVOICE.lines[i % 2]!, name: `Article n° ${i + 1} – ${INVOICE.lines[i % 2]!.name}` })),
      };
      const pdf = await renderInvoicePdf(long);
      const pages = pagesOf(pdf);
      expect(pages).toBeGreaterThanOrEqual(2);
      const file = saved(pdf);
      for (let page = 1; page <= pages; page++) {
        const text = run("pdftotext", ["-enc", "UTF-8", "-f", String(page), "-l", String(page), file, "-"]).replace(/\s+/g, " ");
        expect(text, `page ${page}`).toContain(`page ${page}/${pages}`);
        if (page < pages) expect(text, `page ${page}`).toContain("Désignation Qté PU TTC TVA Total TTC");
      }
      const text = textOf(pdf);
      for (let i = 1; i <= 60; i++) expect(text).toContain(`Article n° ${i} –`);
      expect(text).toContain(plain("Total TTC 61,11 €"));
      expect(text).toContain("Régime particulier – Biens d'occasion");
    });
  });
});
