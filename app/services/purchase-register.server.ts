import { and, asc, eq, gte, lt } from "drizzle-orm";
import PDFDocument from "pdfkit";
import { purchaseRegisterEntries } from "~/db/schema";
import type { Db } from "~/db/types";
import { type AccountingPeriod, periodBounds, periodLabel } from "~/domain/accounting-period";
import { PAYMENT_MEANS_LABELS } from "~/domain/buyback-offer";
import { formatEuros } from "~/domain/money";
import { formatParisDateTime } from "~/domain/paris-time";
import { type RegisterCorrection, type RegisterEntry, correctionText, identityText } from "~/domain/purchase-register";
import { fontFile, pdfBytes } from "./invoice-pdf.server";
import { nextNumber } from "./invoices.server";

/** The register of second-hand purchases (docs/decisions/056): read per period, corrected by new entries only. */

export async function registerEntries(db: Db, period: AccountingPeriod): Promise<RegisterEntry[]> {
  const { from, to } = periodBounds(period);
  const rows = await db
    .select()
    .from(purchaseRegisterEntries)
    .where(and(gte(purchaseRegisterEntries.recordedAt, from), lt(purchaseRegisterEntries.recordedAt, to)))
    .orderBy(asc(purchaseRegisterEntries.number));
  return rows.map(({ messageId: _m, authorId: _a, ...entry }) => entry);
}

export type CorrectionOutcome = { ok: true; number: number } | { ok: false; status: number; message: string };

/**
 * A correction is a new entry, next in the sequence, copying the seller and their identity
 * document from the entry it corrects and naming it; the corrected entry never changes.
 */
export async function correctRegisterEntry(db: Db, input: RegisterCorrection & { actorId: string; now?: Date }): Promise<CorrectionOutcome> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx): Promise<CorrectionOutcome> => {
    const [old] = await tx.select().from(purchaseRegisterEntries).where(eq(purchaseRegisterEntries.number, input.correctsNumber));
    if (!old) return { ok: false, status: 404, message: `L'entrée n° ${input.correctsNumber} n'existe pas.` };
    const { sequence, issuedAt } = await nextNumber(tx, "purchase_register", now);
    await tx.insert(purchaseRegisterEntries).values({
      ...old,
      number: sequence,
      recordedAt: issuedAt,
      description: input.description,
      quantity: input.quantity,
      unitPriceCents: input.unitPrice,
      totalCents: input.quantity * input.unitPrice,
      correctsNumber: old.number,
      correctionReason: input.reason,
      authorId: input.actorId,
    });
    return { ok: true, number: sequence };
  });
}

const MARGIN = 36;
const INK = "#1c1917";
const MUTED = "#6b6660";

/** The register of a period as a printable PDF: A4 landscape, one block per entry, numbered pages. */
export async function registerPdf(entries: readonly RegisterEntry[], period: AccountingPeriod, shopName: string, now = new Date()): Promise<Uint8Array> {
  const title = `Registre des objets mobiliers – ${periodLabel(period)}`;
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + 14 },
    bufferPages: true,
    font: fontFile("DejaVuSans"),
    lang: "fr-FR",
    displayTitle: true,
    info: { Title: `${title} – ${shopName}`, Author: shopName, Creator: shopName, Producer: shopName, CreationDate: now, ModDate: now },
  });
  doc.registerFont("Regular", fontFile("DejaVuSans"));
  doc.registerFont("Bold", fontFile("DejaVuSans-Bold"));
  const done = pdfBytes(doc);
  const width = doc.page.width - 2 * MARGIN;

  doc.font("Bold").fontSize(14).fillColor(INK).text(title, { width });
  doc.font("Regular").fontSize(8.5).fillColor(MUTED).text(`${shopName} · art. 321-7 et R321-3 et suivants du Code pénal · édité le ${formatParisDateTime(now)}`, { width });
  doc.moveDown(1);
  if (entries.length === 0) doc.font("Regular").fontSize(10).fillColor(INK).text("Aucune entrée sur cette période.", { width });
  for (const entry of entries) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 70) doc.addPage();
    doc.font("Bold").fontSize(10).fillColor(INK).text(`N° ${entry.number} · ${formatParisDateTime(entry.recordedAt)} · ${entry.description}`, { width });
    doc
      .font("Regular")
      .fontSize(8.5)
      .text(
        `Quantité ${entry.quantity} × ${formatEuros(entry.unitPriceCents)} = ${formatEuros(entry.totalCents)} · ${PAYMENT_MEANS_LABELS[entry.paymentMeans]}`,
        { width },
      )
      .text(`Vendeur : ${entry.sellerName}, ${entry.sellerAddress}`, { width })
      .text(identityText(entry), { width });
    if (entry.correctsNumber !== null) doc.fillColor(MUTED).text(correctionText(entry), { width });
    doc.moveDown(0.6);
  }

  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: with it at 0, pdfkit writes there instead of starting a page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Regular").fontSize(7.5).fillColor(MUTED).text(`${title} · page ${i - start + 1}/${count}`, MARGIN, doc.page.height - MARGIN + 8, { width, align: "center" });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
