import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FRANCHISE_MENTION, type InvoiceSnapshot, MARGIN_SCHEME_MENTION } from "~/domain/invoice";
import { type InvoiceSource, buildInvoiceSnapshot } from "~/domain/invoice-snapshot";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { allocateVat } from "~/domain/vat-allocation";
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
/** The text as pdftotext lays the page out (a table's row on one line), every run of spaces as one. */
const layoutTextOf = (pdf: Uint8Array) => run("pdftotext", ["-layout", "-enc", "UTF-8", saved(pdf), "-"]).replace(/\s+/g, " ");
/** As the PDF's text has it: formatEuros's and formatVatRate's no-break spaces read as spaces. */
const plain = (text: string) => text.replace(/\s+/g, " ");

/**
 * A document issued before issue 51 (no layout in its snapshot), as it was stored: two mangas at
 * 5,5 %, three boosters at 20 %, a second-hand card under the margin scheme, 10 % off (code
 * BIENVENUE) and delivery with insurance, the amounts the rule of then gave, "Total HT" with
 * the margin-scheme card in it. It must print as it always did.
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

  it("prints a document issued before layout 2 to the bytes it printed to then", async () => {
    // The SHA-256 of these two PDFs as the renderer of before issue 51 made them (same pdfkit,
    // same DejaVu files): an issued invoice not downloaded yet is made on its first download, and
    // must read as the one issued. A change of pdfkit or of the fonts changes them too: check
    // that the old documents still read the same, then write the new sums here.
    const sha256 = async (snapshot: InvoiceSnapshot) => createHash("sha256").update(await renderInvoicePdf(snapshot)).digest("hex");
    expect(await sha256(INVOICE)).toBe("c4272cd769f35533bf6a2fa0a0fd54d85cc835243005daed9564546768b8790a");
    expect(await sha256(CREDIT_NOTE)).toBe("52cabd3e75c5892fd8fb38b11b3f8274e88f28e9a69dcad52fff40bb4c58368b");
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
      // The layout it was issued in: prices TTC per line, no date of sale.
      expect(layoutTextOf(pdf)).toContain("Désignation Qté PU TTC TVA Total TTC");
      expect(text).not.toContain("Date de la vente");
      expect(text).not.toContain("PU HT");
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

/**
 * Documents issued now (layout 2), made as the shop makes them: the checkout's allocateVat, its
 * figures stored on the order, buildInvoiceSnapshot. The order of the fixture above: two mangas
 * (2 × 7,20 € at 5,5 %), three boosters (3 × 6,50 € at 20 %), a second-hand card (25 €), 5,89 €
 * off, delivery 6,90 € and insurance 1,20 €: 61,11 €. Worked out by hand:
 * - goods after the discount: 12,96 €, 17,55 €, 22,50 €; the 8,10 € of charges over 17,55 € /
 *   12,96 €: 4,66 € at 20 % and 3,44 € at 5,5 %;
 * - 20 %: 22,21 € / 1,2 = 18,508 €: base 18,51 €, VAT 3,70 €; the boosters 14,63 € of it (the
 *   larger remainder of 1 462,63 / 388,37), the charges 3,88 €, the delivery's 3,97 € TTC 3,31 €
 *   and the insurance's 0,69 € 0,57 €;
 * - 5,5 %: 16,40 € / 1,055 = 15,545 €: base 15,55 €, VAT 0,85 €; the mangas 12,29 €, the charges
 *   3,26 €: delivery 2,93 € TTC, 2,78 €, insurance 0,51 €, 0,48 €;
 * - Total HT 34,06 € + TVA 4,55 € + second-hand goods 22,50 € = 61,11 €.
 */
function issuedNow(options: { franchise?: boolean; vatNumber?: string; goods?: "all" | "boosters"; kind?: "invoice" | "credit_note"; relayWithBilling?: boolean } = {}): InvoiceSnapshot {
  const all = [
    { name: "One Piece – Tome 104", quantity: 2, unitPriceCents: 720, vatRateBp: 550 as const, vatScheme: "normal" as const },
    { name: "Booster Écarlate et Violet", quantity: 3, unitPriceCents: 650, vatRateBp: 2000 as const, vatScheme: "normal" as const },
    { name: "Dracaufeu ex 199/165 (occasion)", quantity: 1, unitPriceCents: 2500, vatRateBp: 2000 as const, vatScheme: "margin" as const },
  ];
  const goods = options.goods === "boosters" ? [all[1]!] : all;
  const discountCents = options.goods === "boosters" ? 0 : 589;
  const insuranceCents = options.goods === "boosters" ? 0 : 120;
  const franchise = options.franchise ?? false;
  const vat = allocateVat(
    goods.map((good) => ({ totalCents: good.unitPriceCents * good.quantity, vatRateBp: good.vatRateBp, vatScheme: good.vatScheme })),
    discountCents,
    690 + insuranceCents,
    franchise,
  );
  const source: InvoiceSource = {
    order: {
      number: "CMD-2026-1187",
      createdAt: new Date("2026-11-22T22:40:00Z"),
      paidAt: new Date("2026-11-22T22:41:00Z"),
      customerName: "Élodie Lefèvre",
      customerEmail: "elodie.lefevre@example.fr",
      paymentProvider: "stripe",
      shippingMethodName: "Colissimo suivi",
      shippingCents: 690,
      insuranceCents,
      discountCents,
      discountCode: discountCents > 0 ? "BIENVENUE" : null,
      totalCents: goods.reduce((sum, good) => sum + good.unitPriceCents * good.quantity, 0) - discountCents + 690 + insuranceCents,
      shippingAddress: options.relayWithBilling
        ? { method: "relay", fullName: "Élodie Lefèvre", relayPointName: "Tabac de la Gare", relayPointId: "123", line1: "2 place de la Gare", postalCode: "69003", city: "Lyon", country: "FR" }
        : { method: "home", fullName: "Élodie Lefèvre", line1: "8 allée des Châtaigniers", postalCode: "69003", city: "Lyon", country: "FR" },
      ...(options.relayWithBilling ? { billingAddress: { fullName: "Pierre Lefèvre", line1: "14 rue Mercière", line2: "3e étage", postalCode: "69002", city: "Lyon", country: "FR" } } : {}),
      vatRegime: franchise ? "franchise" : "normal",
      vatBreakdown: vat.breakdown,
    },
    lines: goods.map((good, i) => ({ ...good, discountShareCents: vat.lines[i]!.discountShareCents, vatCents: vat.lines[i]!.vatCents })),
    seller: {
      ...EMPTY_IDENTITY,
      companyName: "Comptoir des Cartes",
      legalForm: "SASU",
      shareCapital: "1 000 €",
      rcsCity: "Paris",
      rcsNumber: "123 456 782",
      siren: "123 456 782",
      vatNumber: options.vatNumber ?? "FR32123456782",
      address: "12 rue des Collectionneurs, 75011 Paris",
      email: "contact@comptoir.fr",
      phone: "01 23 45 67 89",
    },
  };
  return options.kind === "credit_note"
    ? buildInvoiceSnapshot(source, { kind: "credit_note", number: "A-2026-000007", issuedAt: new Date("2026-12-02T14:00:00Z"), cancelsInvoice: "F-2026-000042" })
    : buildInvoiceSnapshot(source, { kind: "invoice", number: "F-2026-000042", issuedAt: new Date("2026-11-23T09:15:00Z") });
}

describe.skipIf(!hasPoppler)("renderInvoicePdf, layout 2 (issued since issue 51)", () => {
  it("prints per line the unit price and total before VAT and the rate, the charges by rate, the second-hand goods apart, HT + TVA + occasion = TTC", async () => {
    const snapshot = issuedNow();
    expect(snapshot.layout).toBe(2);
    expect(snapshot.totals).toEqual({ exclVatCents: 3406, vatCents: 455, marginSchemeCents: 2250, inclVatCents: 6111 });
    const pdf = await renderInvoicePdf(snapshot);
    const text = layoutTextOf(pdf);
    for (const expected of [
      "Date d'émission : 23 novembre 2026",
      // The payment, 23:41 in Paris on the 22nd.
      "Date de la vente : 22 novembre 2026",
      "Désignation Qté PU HT TVA Total HT",
      "One Piece – Tome 104 2 6,82 € 5,5 % 12,29 €",
      "Booster Écarlate et Violet 3 5,42 € 20 % 14,63 €",
      // The delivery and the signature delivery follow the goods: a line per rate, each saying its part.
      "Livraison – Colissimo suivi 1 3,31 € 20 % 3,31 € Part à 20 % (prorata des articles) : 3,97 € TTC",
      "Livraison – Colissimo suivi 1 2,78 € 5,5 % 2,78 € Part à 5,5 % (prorata des articles) : 2,93 € TTC",
      "Remise contre signature 1 0,57 € 20 % 0,57 € Part à 20 % (prorata des articles) : 0,69 € TTC",
      "Remise contre signature 1 0,48 € 5,5 % 0,48 € Part à 5,5 % (prorata des articles) : 0,51 € TTC",
      // The second-hand card: its TTC price, "Occasion", under its own heading and subtotal.
      "Régime particulier – Biens d'occasion : prix TTC, TVA sur la marge non apparente (art. 297 E du CGI)",
      "Dracaufeu ex 199/165 (occasion) 1 25,00 € Occasion 22,50 €",
      "Sous-total biens d'occasion (TTC) 22,50 €",
      "Remise « BIENVENUE » : -5,89 € TTC",
      // The VAT of each rate's total.
      "20 % 18,51 € 3,70 € 22,21 €",
      "5,5 % 15,55 € 0,85 € 16,40 €",
      "Total HT 34,06 €",
      "TVA 4,55 €",
      "Biens d'occasion 22,50 €",
      "Total TTC 61,11 €",
      "TVA intracommunautaire FR32123456782",
      "Régime particulier – Biens d'occasion (articles marqués « Occasion »)",
    ]) {
      expect(text).toContain(plain(expected));
    }
    expect(text).not.toContain("PU TTC");
    // Three goods, two rates, the charges split over both: still one page.
    expect(pagesOf(pdf)).toBe(1);
    // "Total HT" without the second-hand card (the layout before put it in: 56,54 €).
    expect(text).not.toContain(plain("Total HT 56,54 €"));
  });

  it("prints the billing address under « Facturé à » and the relay point apart under « Livraison » (issue 51)", async () => {
    const pdf = await renderInvoicePdf(issuedNow({ relayWithBilling: true }));
    const text = textOf(pdf);
    // Two blocks side by side (their headings read first): the billing name once (the block's lead,
    // not repeated from the address), its address and the e-mail; then the relay point in its own.
    expect(text).toContain(
      plain("FACTURÉ À LIVRAISON Pierre Lefèvre 14 rue Mercière 3e étage 69002 Lyon France elodie.lefevre@example.fr Colissimo suivi Point relais : Tabac de la Gare (n° 123) 2 place de la Gare 69003 Lyon France"),
    );
    expect(text).not.toContain("Élodie Lefèvre");
  });

  it("prints a delivery at one rate as a line with its rate", async () => {
    const text = layoutTextOf(await renderInvoicePdf(issuedNow({ goods: "boosters" })));
    // 19,50 € of boosters and 6,90 € of delivery, all at 20 %: 26,40 € / 1,2 = 22,00 €.
    expect(text).toContain(plain("Booster Écarlate et Violet 3 5,42 € 20 % 16,25 €"));
    expect(text).toContain(plain("Livraison – Colissimo suivi 1 5,75 € 20 % 5,75 €"));
    expect(text).not.toContain("Part à");
    expect(text).toContain(plain("20 % 22,00 € 4,40 € 26,40 €"));
    expect(text).toContain(plain("Total HT 22,00 €"));
    expect(text).not.toContain("Biens d'occasion");
  });

  it("prints a credit note of the whole order in the same layout, every amount negated", async () => {
    const text = layoutTextOf(await renderInvoicePdf(issuedNow({ kind: "credit_note" })));
    for (const expected of [
      "AVOIR",
      "Annule la facture F-2026-000042",
      "Date de la vente : 22 novembre 2026",
      "Désignation Qté PU HT TVA Total HT",
      "One Piece – Tome 104 2 -6,82 € 5,5 % -12,29 €",
      "Livraison – Colissimo suivi 1 -3,31 € 20 % -3,31 €",
      "Dracaufeu ex 199/165 (occasion) 1 -25,00 € Occasion -22,50 €",
      "20 % -18,51 € -3,70 € -22,21 €",
      "Total HT -34,06 €",
      "TVA -4,55 €",
      "Biens d'occasion -22,50 €",
      "Total TTC -61,11 €",
    ]) {
      expect(text).toContain(plain(expected));
    }
  });

  it("under the franchise: no VAT column, no Total HT, the 293 B mention, no VAT number when the seller has none", async () => {
    const text = layoutTextOf(await renderInvoicePdf(issuedNow({ franchise: true, vatNumber: "" })));
    for (const expected of [
      FRANCHISE_MENTION,
      "Date de la vente : 22 novembre 2026",
      "Désignation Qté Prix unitaire Total",
      "One Piece – Tome 104 2 7,20 € 12,96 €",
      "Dracaufeu ex 199/165 (occasion) 1 25,00 € 22,50 €",
      "Livraison – Colissimo suivi 1 6,90 € 6,90 €",
      "Remise contre signature 1 1,20 € 1,20 €",
      "Remise « BIENVENUE » : -5,89 €",
      "Total 61,11 €",
    ]) {
      expect(text).toContain(plain(expected));
    }
    expect(text).not.toMatch(/\bHT\b/);
    expect(text).not.toContain("TTC");
    expect(text).not.toMatch(/\d %/);
    expect(text).not.toContain("Occasion");
    expect(text).not.toContain("DÉTAIL DE LA TVA");
    expect(text).not.toContain("TVA intracommunautaire");
    expect(text).not.toContain(MARGIN_SCHEME_MENTION);
  });

  it("goes on over pages with its own table's header", async () => {
    const snapshot = issuedNow();
    const long: InvoiceSnapshot = { ...snapshot, lines: Array.from({ length: 45 }, (_, i) => ({ ...snapshot.lines[i % 3]!, name: `Article n° ${i + 1}` })) };
    const pdf = await renderInvoicePdf(long);
    const pages = pagesOf(pdf);
    expect(pages).toBeGreaterThanOrEqual(2);
    const file = saved(pdf);
    for (let page = 1; page < pages; page++) {
      const text = run("pdftotext", ["-layout", "-enc", "UTF-8", "-f", String(page), "-l", String(page), file, "-"]).replace(/\s+/g, " ");
      expect(text, `page ${page}`).toContain("Désignation Qté PU HT TVA Total HT");
    }
    const text = layoutTextOf(pdf);
    for (let i = 1; i <= 45; i++) expect(text).toContain(`Article n° ${i} `);
    expect(text).toContain(plain("Total TTC 61,11 €"));
  });

  it("under the franchise, prints the seller's VAT number when it has one", async () => {
    const text = layoutTextOf(await renderInvoicePdf(issuedNow({ franchise: true, vatNumber: "FR32123456782" })));
    expect(text).toContain("TVA intracommunautaire FR32123456782");
    expect(text).toContain(FRANCHISE_MENTION);
    expect(text).not.toMatch(/\bHT\b/);
  });
});
