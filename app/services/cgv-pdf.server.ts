import { LRUCache } from "lru-cache";
import PDFDocument from "pdfkit";
import { type CgvBlock, cgvVersionLabel } from "~/domain/cgv-snapshot";
import { formatParisDate } from "~/domain/paris-time";
import { fontFile, pdfBytes } from "./invoice-pdf.server";

const MARGIN = 56;
const INK = "#1c1917";
const MUTED = "#6b6660";
const STYLE: Record<CgvBlock["kind"], { font: "Regular" | "Bold"; size: number; above: number; indent?: number; color?: string }> = {
  h2: { font: "Bold", size: 16, above: 0 },
  h3: { font: "Bold", size: 12, above: 14 },
  h4: { font: "Bold", size: 10, above: 9 },
  p: { font: "Regular", size: 9.5, above: 6 },
  li: { font: "Regular", size: 9.5, above: 4, indent: 14 },
  quote: { font: "Regular", size: 9.5, above: 6, indent: 14, color: MUTED },
};

// Laying out six pages costs one to a few seconds of CPU, and /cgv/{hash}.pdf is public: a
// version's bytes never change, so each is made once per process (a handful of versions).
const made = new LRUCache<string, Promise<Uint8Array>>({ max: 8 });

/** A CGV version as a PDF, made once per process and version (see renderCgvPdfNow). */
export function renderCgvPdf(snapshot: { hash: string; blocks: CgvBlock[]; createdAt: Date }, shopName: string): Promise<Uint8Array> {
  const key = `${snapshot.hash} ${shopName}`;
  let pdf = made.get(key);
  if (!pdf) {
    pdf = renderCgvPdfNow(snapshot, shopName);
    made.set(key, pdf);
    pdf.catch(() => made.delete(key));
  }
  return pdf;
}

/**
 * A CGV version as a PDF (A4, DejaVu Sans as the invoices), made from its snapshot and nothing
 * else: the blocks in order, then on every page the version and its date. The same snapshot
 * gives the same bytes (the document's dates are the version's).
 */
function renderCgvPdfNow(snapshot: { hash: string; blocks: CgvBlock[]; createdAt: Date }, shopName: string): Promise<Uint8Array> {
  const version = `Version ${cgvVersionLabel(snapshot.hash)} du ${formatParisDate(snapshot.createdAt.toISOString())}`;
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + 14 },
    bufferPages: true,
    font: fontFile("DejaVuSans"),
    lang: "fr-FR",
    displayTitle: true,
    info: {
      Title: `Conditions générales de vente – ${shopName}`,
      Subject: version,
      Author: shopName,
      Creator: shopName,
      Producer: shopName,
      CreationDate: snapshot.createdAt,
      ModDate: snapshot.createdAt,
    },
  });
  doc.registerFont("Regular", fontFile("DejaVuSans"));
  doc.registerFont("Bold", fontFile("DejaVuSans-Bold"));
  const done = pdfBytes(doc);
  const width = doc.page.width - 2 * MARGIN;

  doc.font("Bold").fontSize(9).fillColor(MUTED).text(`${shopName} · ${version}`, { width });
  doc.moveDown(1);
  for (const block of snapshot.blocks) {
    const style = STYLE[block.kind];
    const indent = style.indent ?? 0;
    // A heading is not left alone at the foot of a page.
    if (block.kind !== "p" && block.kind !== "li" && block.kind !== "quote" && doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
    doc.y += style.above;
    doc
      .font(style.font)
      .fontSize(style.size)
      .fillColor(style.color ?? INK)
      .text(block.text, MARGIN + indent, doc.y, { width: width - indent, lineGap: 1.5 });
  }

  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: with it at 0, pdfkit writes there instead of starting a page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Regular").fontSize(7.5).fillColor(MUTED).text(`Conditions générales de vente · ${version} · page ${i - start + 1}/${count}`, MARGIN, doc.page.height - MARGIN + 8, { width, align: "center" });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
