import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import { type InvoiceLine, type InvoiceSnapshot, MARGIN_SCHEME_MENTION } from "~/domain/invoice";
import { formatEuros } from "~/domain/money";
import { formatParisDate, formatParisDateTime } from "~/domain/paris-time";
import { formatVatRate } from "~/domain/vat-allocation";
import { FACTUR_X_PDF_OPTIONS, embedFacturX } from "./facturx.server";

/**
 * The PDF of an invoice or a credit note, made from its frozen snapshot (domain/invoice.ts) and
 * nothing else: A4, the seller and the buyer, the order, the lines, the VAT by rate, the totals
 * and the legal mentions. Amounts are printed as the snapshot gives them (negative on a credit
 * note), each through formatEuros; dates are Paris dates. The same snapshot gives the same bytes:
 * the document's dates and identifier come from its issue date.
 *
 * Two layouts, as the snapshot says (docs/decisions/032): layout 2, the documents issued since
 * issue 51 (per line the unit price and the total before VAT and the rate, the charges by rate,
 * the margin-scheme goods in a subtotal of their own outside "Total HT", the date of the sale;
 * under the franchise no VAT column and no "Total HT"); a snapshot without a layout, issued
 * before, is printed as it always was (prices TTC per line).
 */

type Pdf = PDFKit.PDFDocument;

/**
 * DejaVu Sans (the `dejavu-fonts-ttf` package), embedded and subset by pdfkit: static TrueType
 * files that cover French, "€", "–", the no-break spaces Intl writes (U+00A0, U+202F) and the
 * other Latin, Greek and Cyrillic letters a buyer's name may hold. (Inter's static WOFF2 files
 * make fontkit fail when it subsets them, and its variable font is not for pdfkit.) The path is
 * resolved at call time from this module: from app/services in the sources (vitest, tsx) and from
 * build/server in the built server, whose bundles import their packages from node_modules.
 */
export function fontFile(name: "DejaVuSans" | "DejaVuSans-Bold"): string {
  return createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`);
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
/** Room kept at the foot of each page for its footer. */
const BOTTOM = 70;
const CONTENT_WIDTH = A4.width - 2 * MARGIN;
const RIGHT = A4.width - MARGIN;

const INK = "#1c1917";
const MUTED = "#6b6660";
const RULE = "#e0dcd6";
const SHADE = "#f6f4f1";
const ACCENT = "#e5a823";

const REGULAR = "Regular";
const BOLD = "Bold";

/** `oneLine`: an amount or a rate, made smaller rather than broken over two lines if it must. */
type TextStyle = { font?: string; size?: number; color?: string; align?: "left" | "right" | "center"; width?: number; oneLine?: boolean };

function write(doc: Pdf, text: string, x: number, y: number, style: TextStyle = {}): number {
  const width = style.width ?? CONTENT_WIDTH;
  let size = style.size ?? 9;
  doc.font(style.font ?? REGULAR).fontSize(size);
  if (style.oneLine) {
    while (size > 5 && doc.widthOfString(text) > width - 0.5) doc.fontSize((size -= 0.5));
  }
  doc.fillColor(style.color ?? INK).text(text, x, y, { width, align: style.align ?? "left", lineGap: 1.5 });
  return doc.y;
}

function heightOf(doc: Pdf, text: string, style: TextStyle & { width: number }): number {
  doc.font(style.font ?? REGULAR).fontSize(style.size ?? 9);
  return doc.heightOfString(text, { width: style.width, lineGap: 1.5 });
}

function rule(doc: Pdf, y: number, x1 = MARGIN, x2 = RIGHT, color = RULE) {
  doc.moveTo(x1, y).lineTo(x2, y).lineWidth(0.6).strokeColor(color).stroke();
}

const present = (value: string) => value.trim() !== "";

function sellerLines(seller: InvoiceSnapshot["seller"]): string[] {
  const lines: string[] = [];
  const form = [seller.legalForm, present(seller.shareCapital) ? `au capital de ${seller.shareCapital}` : ""].filter(present).join(" ");
  if (present(form)) lines.push(form);
  lines.push(...seller.address.split(/\r?\n/).filter(present));
  const ids = [present(seller.siren) ? `SIREN ${seller.siren}` : "", present(seller.rcs) ? (/^(RCS|Registre)\b/i.test(seller.rcs.trim()) ? seller.rcs : `RCS ${seller.rcs}`) : ""];
  if (ids.some(present)) lines.push(ids.filter(present).join(" · "));
  if (present(seller.vatNumber)) lines.push(`TVA intracommunautaire ${seller.vatNumber}`);
  const contact = [seller.email, seller.phone].filter(present).join(" · ");
  if (present(contact)) lines.push(contact);
  return lines;
}

function businessIdLines(business: NonNullable<InvoiceSnapshot["buyer"]["business"]>): string[] {
  return [business.siren ? `SIREN ${business.siren}` : "", business.vatNumber ? `TVA intracommunautaire ${business.vatNumber}` : ""];
}

function lineRate(line: InvoiceLine): string {
  if (line.vatScheme === "margin") return "Occasion";
  return line.vatRateBp === null ? "—" : formatVatRate(line.vatRateBp);
}

type Column = { key: "name" | "quantity" | "unit" | "rate" | "total"; label: string; width: number; align: "left" | "right" };
// Lines table: description, quantity, unit price, VAT rate, total. A snapshot without a layout: TTC.
const COLUMNS_TTC: readonly Column[] = [
  { key: "name", label: "Désignation", width: 260, align: "left" },
  { key: "quantity", label: "Qté", width: 35, align: "right" },
  { key: "unit", label: "PU TTC", width: 70, align: "right" },
  { key: "rate", label: "TVA", width: 55, align: "right" },
  { key: "total", label: "Total TTC", width: 75, align: "right" },
];
// Layout 2: before VAT (a margin-scheme line's TTC price under its own heading).
const COLUMNS_HT: readonly Column[] = [
  { key: "name", label: "Désignation", width: 225, align: "left" },
  { key: "quantity", label: "Qté", width: 35, align: "right" },
  { key: "unit", label: "PU HT", width: 75, align: "right" },
  { key: "rate", label: "TVA", width: 65, align: "right" },
  { key: "total", label: "Total HT", width: 95, align: "right" },
];
// Layout 2 under the franchise: no VAT, so no rate and nothing "HT".
const COLUMNS_FRANCHISE: readonly Column[] = [
  { key: "name", label: "Désignation", width: 275, align: "left" },
  { key: "quantity", label: "Qté", width: 35, align: "right" },
  { key: "unit", label: "Prix unitaire", width: 85, align: "right" },
  { key: "total", label: "Total", width: 100, align: "right" },
];
/** `heading`: a band across the table (a section's title); `wide`: a text across the table; `strong`: a subtotal. */
type Row = { name: string; note?: string; quantity?: string; unit?: string; rate?: string; total?: string; muted?: boolean; heading?: boolean; wide?: boolean; strong?: boolean };
/** A cell's inner margin: across, and above and below. */
const PAD = 6;
const PAD_Y = 5;

function columnX(columns: readonly Column[], index: number): number {
  return MARGIN + columns.slice(0, index).reduce((sum, column) => sum + column.width, 0);
}

/** Lays the document out top to bottom, starting a page (with its table header) when one is full. */
class Layout {
  y = MARGIN;
  private inTable = false;

  constructor(
    private readonly doc: Pdf,
    private readonly snapshot: InvoiceSnapshot,
    private readonly title: string,
    private readonly columns: readonly Column[],
    /** A row's padding above and below: layout 2's rows are a little tighter (more of them: the charges by rate). */
    private readonly padY = PAD_Y,
  ) {}

  /** Makes room for `height`, on a new page if this one has not enough left. */
  ensure(height: number) {
    if (this.y + height <= A4.height - BOTTOM) return;
    this.doc.addPage();
    this.y = MARGIN;
    write(this.doc, `${this.title} ${this.snapshot.number} (suite)`, MARGIN, this.y, { font: BOLD, size: 10 });
    this.y += 24;
    if (this.inTable) this.tableHeader();
  }

  tableHeader() {
    this.inTable = true;
    const doc = this.doc;
    doc.rect(MARGIN, this.y, CONTENT_WIDTH, 20).fill(SHADE);
    this.columns.forEach((column, i) =>
      write(doc, column.label, columnX(this.columns, i) + PAD, this.y + 6, { font: BOLD, size: 8, color: MUTED, width: column.width - 2 * PAD, align: column.align }),
    );
    this.y += 20;
  }

  row(row: Row) {
    const doc = this.doc;
    // A heading runs across the table; a row's name has its column.
    const nameWidth = (row.heading || row.wide ? CONTENT_WIDTH : this.columns[0]!.width) - 2 * PAD;
    const nameFont = row.heading || row.strong ? BOLD : REGULAR;
    const nameSize = row.heading ? 8 : 9;
    const nameHeight = heightOf(doc, row.name, { width: nameWidth, font: nameFont, size: nameSize }) + (row.note ? heightOf(doc, row.note, { width: nameWidth, size: 7.5 }) + 1 : 0);
    const height = Math.max(nameHeight, 11) + 2 * this.padY;
    this.ensure(height);
    if (row.heading) doc.rect(MARGIN, this.y, CONTENT_WIDTH, height).fill(SHADE);
    const color = row.muted || row.heading ? MUTED : INK;
    const top = this.y + this.padY;
    const after = write(doc, row.name, MARGIN + PAD, top, { width: nameWidth, color, font: nameFont, size: nameSize });
    if (row.note) write(doc, row.note, MARGIN + PAD, after + 1, { width: nameWidth, size: 7.5, color: MUTED });
    this.columns.forEach((column, i) => {
      if (column.key === "name") return;
      const value = row[column.key];
      if (value) write(doc, value, columnX(this.columns, i) + PAD, top, { width: column.width - 2 * PAD, align: column.align, color, font: column.key === "total" && !row.muted ? BOLD : REGULAR, oneLine: true });
    });
    this.y += height;
    rule(doc, this.y);
  }

  endTable() {
    this.inTable = false;
  }
}

/** The document's bytes once it is ended. */
export function pdfBytes(doc: Pdf): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });
}

/** `facturX`: a B2B document's CII XML (facturx.server.ts): the PDF is then a Factur-X, PDF/A-3b with the XML embedded. */
export function renderInvoicePdf(snapshot: InvoiceSnapshot, facturX?: { xml: string }): Promise<Uint8Array> {
  const creditNote = snapshot.kind === "credit_note";
  const title = creditNote ? "Avoir" : "Facture";
  const issuedAt = new Date(snapshot.issuedAt);
  const doc: Pdf = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM },
    bufferPages: true,
    font: fontFile("DejaVuSans"),
    lang: "fr-FR",
    displayTitle: true,
    ...(facturX ? FACTUR_X_PDF_OPTIONS : {}),
    info: {
      Title: `${title} ${snapshot.number}`,
      Author: snapshot.seller.name,
      Subject: `${title} ${snapshot.number} – commande ${snapshot.orderNumber}`,
      Creator: snapshot.seller.name,
      Producer: snapshot.seller.name,
      CreationDate: issuedAt,
      ModDate: issuedAt,
    },
  });
  doc.registerFont(REGULAR, fontFile("DejaVuSans"));
  doc.registerFont(BOLD, fontFile("DejaVuSans-Bold"));

  const done = pdfBytes(doc);

  const byRate = snapshot.layout === 2;
  const franchise = snapshot.vatRegime === "franchise";
  const layout = new Layout(doc, snapshot, title, !byRate ? COLUMNS_TTC : franchise ? COLUMNS_FRANCHISE : COLUMNS_HT, byRate ? PAD_Y - 1 : PAD_Y);
  header(doc, layout, snapshot, title);
  parties(doc, layout, snapshot);
  orderStrip(doc, layout, snapshot);
  if (!byRate) {
    lines(layout, snapshot);
    summary(doc, layout, snapshot);
  } else if (franchise) {
    linesFranchise(layout, snapshot);
    summaryByRate(doc, layout, snapshot);
  } else {
    linesByRate(layout, snapshot);
    summaryByRate(doc, layout, snapshot);
  }
  mentions(doc, layout, snapshot);
  footers(doc, snapshot, title);
  if (facturX) embedFacturX(doc, facturX.xml, issuedAt);
  doc.end();
  return done;
}

function header(doc: Pdf, layout: Layout, snapshot: InvoiceSnapshot, title: string) {
  doc.rect(0, 0, A4.width, 6).fill(ACCENT);
  const leftWidth = 280;
  let left = write(doc, snapshot.seller.name, MARGIN, MARGIN, { font: BOLD, size: 15, width: leftWidth });
  left += 4;
  for (const line of sellerLines(snapshot.seller)) left = write(doc, line, MARGIN, left, { size: 8.5, color: MUTED, width: leftWidth });

  const rightX = MARGIN + leftWidth + 20;
  const rightWidth = RIGHT - rightX;
  let right = write(doc, title.toUpperCase(), rightX, MARGIN - 3, { font: BOLD, size: 22, width: rightWidth, align: "right" });
  right = write(doc, `N° ${snapshot.number}`, rightX, right + 2, { font: BOLD, size: 11, width: rightWidth, align: "right" });
  right = write(doc, `Date d'émission : ${formatParisDate(snapshot.issuedAt)}`, rightX, right + 3, { width: rightWidth, align: "right" });
  // The date of the sale, the payment's (CGI annexe II art. 242 nonies A, I-10°), beside the issue's.
  if (snapshot.layout === 2 && snapshot.paidAt) right = write(doc, `Date de la vente : ${formatParisDate(snapshot.paidAt)}`, rightX, right + 2, { width: rightWidth, align: "right" });
  if (snapshot.cancelsInvoice) {
    const refers = snapshot.partial ? `Avoir partiel sur la facture ${snapshot.cancelsInvoice}` : `Annule la facture ${snapshot.cancelsInvoice}`;
    right = write(doc, refers, rightX, right + 2, { font: BOLD, width: rightWidth, align: "right" });
  }
  layout.y = Math.max(left, right) + 22;
}

function parties(doc: Pdf, layout: Layout, snapshot: InvoiceSnapshot) {
  const gap = 15;
  const boxWidth = (CONTENT_WIDTH - gap) / 2;
  const inner = boxWidth - 24;
  const { buyer } = snapshot;
  const blocks: { label: string; lead: string; lines: string[] }[] = [
    buyer.business
      ? // A company (issue 53): its name leads, then the person's, the address and its identifiers.
        { label: "FACTURÉ À", lead: buyer.business.companyName, lines: [buyer.name, ...buyer.addressLines.filter((line, i) => i > 0 || line.trim() !== buyer.name.trim()), ...businessIdLines(buyer.business), buyer.email].filter(present) }
      : // The address's first line is usually the buyer's name again.
        { label: "FACTURÉ À", lead: buyer.name, lines: [...buyer.addressLines.filter((line, i) => i > 0 || line.trim() !== buyer.name.trim()), buyer.email].filter(present) },
  ];
  if (snapshot.delivery) blocks.push({ label: "LIVRAISON", lead: snapshot.delivery.methodName, lines: snapshot.delivery.addressLines.filter(present) });
  const heightOfBlock = (block: (typeof blocks)[number]) =>
    12 + heightOf(doc, block.lead, { font: BOLD, width: inner }) + block.lines.reduce((sum, line) => sum + heightOf(doc, line, { width: inner }), 0);
  const height = Math.max(...blocks.map(heightOfBlock)) + 24;
  layout.ensure(height);
  const top = layout.y;
  blocks.forEach((block, i) => {
    const x = MARGIN + i * (boxWidth + gap);
    doc.roundedRect(x, top, boxWidth, height, 4).fill(SHADE);
    let y = write(doc, block.label, x + 12, top + 11, { font: BOLD, size: 7.5, color: MUTED, width: inner });
    y = write(doc, block.lead, x + 12, y + 2, { font: BOLD, width: inner });
    for (const line of block.lines) y = write(doc, line, x + 12, y, { width: inner });
  });
  layout.y = top + height + 16;
}

function orderStrip(doc: Pdf, layout: Layout, snapshot: InvoiceSnapshot) {
  const items = [
    { label: "Commande", value: snapshot.orderNumber, width: 105 },
    { label: "Date de commande", value: formatParisDateTime(snapshot.orderedAt), width: 140 },
    { label: "Paiement", value: snapshot.paidAt ? `le ${formatParisDate(snapshot.paidAt)}` : "en attente", width: 120 },
    { label: "Moyen de paiement", value: snapshot.paymentMethod, width: 130 },
  ];
  const height = Math.max(...items.map((item) => heightOf(doc, item.value, { width: item.width - 10 }))) + 14;
  layout.ensure(height + 18);
  const top = layout.y;
  let x = MARGIN;
  for (const item of items) {
    write(doc, item.label.toUpperCase(), x, top, { font: BOLD, size: 7, color: MUTED, width: item.width - 10 });
    write(doc, item.value, x, top + 12, { width: item.width - 10 });
    x += item.width;
  }
  layout.y = top + height + 18;
}

function lines(layout: Layout, snapshot: InvoiceSnapshot) {
  layout.ensure(20 + 30);
  layout.tableHeader();
  for (const line of snapshot.lines) {
    layout.row({
      name: line.name,
      note: line.note,
      quantity: String(line.quantity),
      unit: formatEuros(line.unitPriceCents),
      rate: lineRate(line),
      total: formatEuros(line.totalCents),
    });
  }
  for (const charge of snapshot.charges) layout.row({ name: charge.label, total: formatEuros(charge.totalCents) });
  if (snapshot.discount) {
    const code = snapshot.discount.code ? ` « ${snapshot.discount.code} »` : "";
    layout.row({
      name: `Remise${code}`,
      note: "Déjà déduite des totaux des articles ci-dessus.",
      total: formatEuros(-snapshot.discount.cents),
      muted: true,
    });
  }
  layout.endTable();
}

function discountRow(layout: Layout, snapshot: InvoiceSnapshot) {
  if (!snapshot.discount) return;
  const code = snapshot.discount.code ? ` « ${snapshot.discount.code} »` : "";
  layout.row({
    // Under the franchise there is no VAT: an amount, neither HT nor TTC.
    name: `Remise${code} : ${formatEuros(-snapshot.discount.cents)}${snapshot.vatRegime === "franchise" ? "" : " TTC"}`,
    note: "Répartie sur les articles au prorata de leur prix, elle est déjà déduite de leurs totaux ci-dessus.",
    muted: true,
    wide: true,
  });
}

/** Layout 2: goods before VAT, the charges by rate, the margin-scheme goods apart (TTC), the discount. */
function linesByRate(layout: Layout, snapshot: InvoiceSnapshot) {
  layout.ensure(20 + 30);
  layout.tableHeader();
  const margin = snapshot.lines.filter((line) => line.vatScheme === "margin");
  for (const line of snapshot.lines) {
    if (line.vatScheme === "margin" || line.vatRateBp === null) continue;
    layout.row({
      name: line.name,
      note: line.note,
      quantity: String(line.quantity),
      unit: formatEuros(line.unitPriceExclVatCents ?? 0),
      rate: formatVatRate(line.vatRateBp),
      total: formatEuros(line.totalExclVatCents ?? 0),
    });
  }
  for (const charge of snapshot.charges) {
    const parts = charge.parts ?? [];
    // A charge of nothing (a free delivery): no rate.
    if (parts.length === 0) layout.row({ name: charge.label, quantity: "1", unit: formatEuros(0), rate: "—", total: formatEuros(0) });
    for (const part of parts) {
      layout.row({
        name: charge.label,
        // Split over the rates of the goods: each part says what it is.
        note: parts.length > 1 ? `Part à ${formatVatRate(part.rateBp)} (prorata des articles) : ${formatEuros(part.totalCents)} TTC` : undefined,
        quantity: "1",
        unit: formatEuros(part.exclVatCents),
        rate: formatVatRate(part.rateBp),
        total: formatEuros(part.exclVatCents),
      });
    }
  }
  if (margin.length > 0) {
    layout.row({ name: `${MARGIN_SCHEME_MENTION} : prix TTC, TVA sur la marge non apparente (art. 297 E du CGI)`, heading: true });
    for (const line of margin) {
      layout.row({ name: line.name, quantity: String(line.quantity), unit: formatEuros(line.unitPriceCents), rate: "Occasion", total: formatEuros(line.totalCents) });
    }
    layout.row({ name: "Sous-total biens d'occasion (TTC)", total: formatEuros(snapshot.totals.marginSchemeCents), strong: true });
  }
  discountRow(layout, snapshot);
  layout.endTable();
}

/** Layout 2 under the franchise (CGI art. 293 B): the prices as paid, no rate, nothing "HT". */
function linesFranchise(layout: Layout, snapshot: InvoiceSnapshot) {
  layout.ensure(20 + 30);
  layout.tableHeader();
  for (const line of snapshot.lines) layout.row({ name: line.name, quantity: String(line.quantity), unit: formatEuros(line.unitPriceCents), total: formatEuros(line.totalCents) });
  for (const charge of snapshot.charges) layout.row({ name: charge.label, quantity: "1", unit: formatEuros(charge.totalCents), total: formatEuros(charge.totalCents) });
  discountRow(layout, snapshot);
  layout.endTable();
}

// VAT breakdown (left) and totals (right), side by side.
const VAT_COLUMNS = [
  { label: "Taux", width: 70, align: "left" },
  { label: "Base HT", width: 70, align: "right" },
  { label: "TVA", width: 65, align: "right" },
  { label: "Total TTC", width: 75, align: "right" },
] as const;
const TOTALS_WIDTH = 195;

function summary(doc: Pdf, layout: Layout, snapshot: InvoiceSnapshot) {
  // Under the franchise there is no VAT at all: no breakdown and no VAT line in the totals.
  const franchise = snapshot.vatRegime === "franchise";
  const vatRows: string[][] = snapshot.vatBreakdown.map((row) => [formatVatRate(row.rateBp), formatEuros(row.baseCents), formatEuros(row.vatCents), formatEuros(row.totalCents)]);
  if (snapshot.totals.marginSchemeCents !== 0) vatRows.push(["Occasion", "—", "—", formatEuros(snapshot.totals.marginSchemeCents)]);
  if (franchise) vatRows.length = 0;
  const rowHeight = 17;
  const vatHeight = vatRows.length > 0 ? 16 + 18 + vatRows.length * rowHeight : 0;
  const totalsHeight = (franchise ? 1 : 2) * rowHeight + 30;
  layout.ensure(Math.max(vatHeight, totalsHeight) + 20);
  const top = layout.y + 16;

  if (vatRows.length > 0) drawVatTable(doc, vatRows, top, rowHeight);

  const x = RIGHT - TOTALS_WIDTH;
  let y = top;
  const totalRow = (label: string, cents: number) => {
    write(doc, label, x + 10, y + 4, { width: 100 });
    write(doc, formatEuros(cents), x + 10, y + 4, { width: TOTALS_WIDTH - 20, align: "right", oneLine: true });
    y += rowHeight;
    rule(doc, y, x, RIGHT);
  };
  totalRow("Total HT", snapshot.totals.exclVatCents);
  if (!franchise) totalRow("TVA", snapshot.totals.vatCents);
  y += 6;
  doc.roundedRect(x, y, TOTALS_WIDTH, 26, 3).fill(INK);
  write(doc, "Total TTC", x + 10, y + 7, { font: BOLD, size: 11, color: "#ffffff", width: 100 });
  write(doc, formatEuros(snapshot.totals.inclVatCents), x + 82, y + 7, { font: BOLD, size: 11, color: "#ffffff", width: TOTALS_WIDTH - 92, align: "right", oneLine: true });
  layout.y = top + Math.max(vatHeight, totalsHeight) + 10;
}

/**
 * Layout 2: the VAT of each rate (its base, its VAT, its total; no row for the margin-scheme
 * goods, which have none shown) and the totals: HT, TVA, the margin-scheme goods, TTC. Under the
 * franchise, only the total.
 */
function summaryByRate(doc: Pdf, layout: Layout, snapshot: InvoiceSnapshot) {
  const franchise = snapshot.vatRegime === "franchise";
  const vatRows: string[][] = franchise ? [] : snapshot.vatBreakdown.map((row) => [formatVatRate(row.rateBp), formatEuros(row.baseCents), formatEuros(row.vatCents), formatEuros(row.totalCents)]);
  const totals: [string, number][] = franchise
    ? []
    : [
        ["Total HT", snapshot.totals.exclVatCents],
        ["TVA", snapshot.totals.vatCents],
        ...(snapshot.totals.marginSchemeCents !== 0 ? [["Biens d'occasion", snapshot.totals.marginSchemeCents] as [string, number]] : []),
      ];
  const rowHeight = 17;
  const vatHeight = vatRows.length > 0 ? 16 + 18 + vatRows.length * rowHeight : 0;
  const totalsHeight = totals.length * rowHeight + 30;
  layout.ensure(Math.max(vatHeight, totalsHeight) + 20);
  const top = layout.y + 16;

  if (vatRows.length > 0) drawVatTable(doc, vatRows, top, rowHeight);

  const x = RIGHT - TOTALS_WIDTH;
  let y = top;
  for (const [label, cents] of totals) {
    write(doc, label, x + 10, y + 4, { width: 100 });
    write(doc, formatEuros(cents), x + 10, y + 4, { width: TOTALS_WIDTH - 20, align: "right", oneLine: true });
    y += rowHeight;
    rule(doc, y, x, RIGHT);
  }
  if (totals.length > 0) y += 6;
  doc.roundedRect(x, y, TOTALS_WIDTH, 26, 3).fill(INK);
  write(doc, franchise ? "Total" : "Total TTC", x + 10, y + 7, { font: BOLD, size: 11, color: "#ffffff", width: 100 });
  write(doc, formatEuros(snapshot.totals.inclVatCents), x + 82, y + 7, { font: BOLD, size: 11, color: "#ffffff", width: TOTALS_WIDTH - 92, align: "right", oneLine: true });
  layout.y = top + Math.max(vatHeight, totalsHeight) + 10;
}

function mentions(doc: Pdf, layout: Layout, snapshot: InvoiceSnapshot) {
  if (snapshot.mentions.length === 0) return;
  layout.y += 8;
  for (const mention of snapshot.mentions) {
    const height = heightOf(doc, mention, { width: CONTENT_WIDTH, size: 8.5 }) + 3;
    layout.ensure(height);
    write(doc, mention, MARGIN, layout.y, { size: 8.5, color: MUTED });
    layout.y += height;
  }
}

function footers(doc: Pdf, snapshot: InvoiceSnapshot, title: string) {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: with it at 0, pdfkit writes there instead of starting a page.
    doc.page.margins.bottom = 0;
    const y = A4.height - 42;
    rule(doc, y - 8);
    const left = [snapshot.seller.name, snapshot.seller.siren ? `SIREN ${snapshot.seller.siren}` : ""].filter(present).join(" · ");
    write(doc, left, MARGIN, y, { size: 7.5, color: MUTED, width: CONTENT_WIDTH - 170, oneLine: true });
    write(doc, `${title} ${snapshot.number} · page ${i - start + 1}/${count}`, RIGHT - 160, y, { size: 7.5, color: MUTED, width: 160, align: "right", oneLine: true });
    doc.page.margins.bottom = BOTTOM;
  }
}

/** « DÉTAIL DE LA TVA »: the VAT table under the lines, from `top`, in both layouts. */
function drawVatTable(doc: Pdf, vatRows: string[][], top: number, rowHeight: number) {
  write(doc, "DÉTAIL DE LA TVA", MARGIN, top, { font: BOLD, size: 7.5, color: MUTED });
  let y = top + 16;
  let x = MARGIN;
  const tableWidth = VAT_COLUMNS.reduce((sum, column) => sum + column.width, 0);
  doc.rect(MARGIN, y, tableWidth, 18).fill(SHADE);
  for (const column of VAT_COLUMNS) {
    write(doc, column.label, x + PAD, y + 5, { font: BOLD, size: 8, color: MUTED, width: column.width - 2 * PAD, align: column.align });
    x += column.width;
  }
  y += 18;
  for (const cells of vatRows) {
    x = MARGIN;
    cells.forEach((cell, i) => {
      const column = VAT_COLUMNS[i]!;
      write(doc, cell, x + PAD, y + 4, { size: 8.5, width: column.width - 2 * PAD, align: column.align, oneLine: true });
      x += column.width;
    });
    y += rowHeight;
    rule(doc, y, MARGIN, MARGIN + tableWidth);
  }
}
