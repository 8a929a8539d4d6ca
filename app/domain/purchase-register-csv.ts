import { csvAmount } from "./accounting-export";
import { PAYMENT_MEANS_LABELS } from "./buyback-offer";
import { serializeCsv, toSpreadsheetText } from "./catalog-csv";
import { type RegisterEntry, correctionText, idDocumentLabel, isoDateFr, registerDateTime } from "./purchase-register";

/** The register's CSV, apart from its page's helpers: the page's browser code never loads it. */
export const REGISTER_CSV_HEADER = [
  "N°",
  "Date",
  "Vendeur",
  "Adresse",
  "Pièce d'identité",
  "Numéro de la pièce",
  "Délivrée par",
  "Délivrée le",
  "Désignation",
  "Quantité",
  "Prix unitaire",
  "Prix total",
  "Paiement",
  "Rectification",
];

/** The register of a period as CSV (`;`, decimal commas, what a person typed neutralised for spreadsheets). */
export function registerCsv(entries: readonly RegisterEntry[]): string {
  const text = (value: string) => toSpreadsheetText(value);
  return serializeCsv([
    REGISTER_CSV_HEADER,
    ...entries.map((entry) => [
      String(entry.number),
      registerDateTime(entry.recordedAt),
      text(entry.sellerName),
      text(entry.sellerAddress),
      idDocumentLabel(entry.idType),
      text(entry.idNumber),
      text(entry.idAuthority),
      isoDateFr(entry.idIssuedOn),
      text(entry.description),
      String(entry.quantity),
      csvAmount(entry.unitPriceCents),
      csvAmount(entry.totalCents),
      PAYMENT_MEANS_LABELS[entry.paymentMeans],
      text(correctionText(entry)),
    ]),
  ]);
}

