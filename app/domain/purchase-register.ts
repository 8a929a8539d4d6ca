import { z } from "zod";
import type { AccountingPeriod } from "./accounting-period";
import { ID_DOCUMENT_LABELS, type PaymentMeans } from "./buyback-offer";
import { parseEurosToCents } from "./money";
import { parisWallClock } from "./paris-time";

/**
 * The register of second-hand goods bought from individuals, « registre des objets mobiliers »
 * (art. 321-7 and R321-3 ff. Code pénal; docs/decisions/056): its columns, as the page, the CSV
 * and the PDF show them.
 */

export type RegisterEntry = {
  number: number;
  recordedAt: Date;
  sellerName: string;
  sellerAddress: string;
  idType: string;
  idNumber: string;
  idAuthority: string;
  /** YYYY-MM-DD. */
  idIssuedOn: string;
  description: string;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
  paymentMeans: PaymentMeans;
  correctsNumber: number | null;
  correctionReason: string | null;
};

export function idDocumentLabel(type: string): string {
  return ID_DOCUMENT_LABELS[type as keyof typeof ID_DOCUMENT_LABELS] ?? type;
}

const two = (n: number) => String(n).padStart(2, "0");

/** "29/11/2026 11:00", Paris time: a date spreadsheets read as one. */
export function registerDateTime(at: Date): string {
  const { year, month, day, hour, minute } = parisWallClock(at);
  return `${two(day)}/${two(month)}/${year} ${two(hour)}:${two(minute)}`;
}

/** "14/03/2026" from "2026-03-14". */
export function isoDateFr(date: string): string {
  const [year, month, day] = date.split("-");
  return `${day}/${month}/${year}`;
}

/** "Carte nationale d'identité n° 123456, délivrée le 14/03/2020 par Préfecture du Rhône". */
export function identityText(entry: Pick<RegisterEntry, "idType" | "idNumber" | "idAuthority" | "idIssuedOn">): string {
  return `${idDocumentLabel(entry.idType)} n° ${entry.idNumber}, délivrée le ${isoDateFr(entry.idIssuedOn)} par ${entry.idAuthority}`;
}

export function correctionText(entry: Pick<RegisterEntry, "correctsNumber" | "correctionReason">): string {
  return entry.correctsNumber === null ? "" : `Rectifie l'entrée n° ${entry.correctsNumber} : ${entry.correctionReason ?? ""}`;
}

/** "registre-objets-mobiliers-2026-11.csv" / ".pdf". */
export function registerFileName({ year, month }: AccountingPeriod, extension: "csv" | "pdf"): string {
  return `registre-objets-mobiliers-${year}${month === null ? "" : `-${String(month).padStart(2, "0")}`}.${extension}`;
}

/** The register's correction form: the entry corrected, the right values, and why. */
export const registerCorrectionSchema = z.object({
  correctsNumber: z.coerce.number({ error: "Indiquez le numéro de l'entrée à rectifier" }).int("Indiquez le numéro de l'entrée à rectifier").positive("Indiquez le numéro de l'entrée à rectifier"),
  description: z.string().trim().min(2, "Décrivez l'objet (au moins 2 caractères)").max(200, "La désignation doit contenir au plus 200 caractères"),
  quantity: z.coerce.number({ error: "Indiquez une quantité" }).int("La quantité doit être un nombre entier").min(1, "La quantité doit être au moins 1").max(999, "La quantité ne peut pas dépasser 999"),
  unitPrice: z
    .string()
    .trim()
    .transform((value, ctx) => {
      const cents = parseEurosToCents(value);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: "Indiquez le prix unitaire en euros, par exemple 12,50" });
        return z.NEVER;
      }
      return cents;
    }),
  reason: z.string().trim().min(5, "Dites pourquoi l'entrée est rectifiée (au moins 5 caractères)").max(500, "La raison doit contenir au plus 500 caractères"),
});
export type RegisterCorrection = z.output<typeof registerCorrectionSchema>;
