import { z } from "zod";

/**
 * The seller's form of a drop (/admin/drops "Sorties"): one schema for the browser and the
 * server action. zod only: this file ships to the browser.
 */

export const DROP_START_MODES = ["first_come", "fair_start"] as const;
export type DropStartMode = (typeof DROP_START_MODES)[number];

export const START_MODE_LABELS: Record<DropStartMode, string> = {
  first_come: "Premier arrivé, premier servi",
  fair_start: "Départ équitable (tirage au sort des arrivées avant l'ouverture)",
};

export const DROP_LIMIT_MAX = 99;
export const DROP_HOLD_MINUTES_DEFAULT = 10;
export const DROP_HOLD_MINUTES_MIN = 2;
export const DROP_HOLD_MINUTES_MAX = 30;
export const FAIR_WINDOW_MINUTES_DEFAULT = 10;
export const FAIR_WINDOW_MINUTES_MAX = 60;

/** A whole number typed in a field, between `min` and `max`, with the field's French name. */
export const wholeNumber = (subject: string, min: number, max: number) =>
  z
    .string({ message: `${subject} est obligatoire` })
    .trim()
    .min(1, { message: `${subject} est obligatoire`, abort: true })
    .regex(/^\d+$/, `${subject} doit être un nombre entier`)
    .transform(Number)
    .pipe(z.number().min(min, `${subject} doit être d'au moins ${min}`).max(max, `${subject} ne peut pas dépasser ${max}`));

export const dropFormSchema = z.object({
  productId: z.string({ message: "Choisissez un produit" }).regex(/^\d{1,9}$/, "Choisissez un produit").transform(Number),
  perCustomerLimit: wholeNumber("La limite par client", 1, DROP_LIMIT_MAX),
  holdMinutes: wholeNumber("La durée de réservation", DROP_HOLD_MINUTES_MIN, DROP_HOLD_MINUTES_MAX),
  // A checkbox posts "on" when ticked and nothing otherwise.
  accountRequired: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true"),
  startMode: z.enum(DROP_START_MODES, { message: "Choisissez comment la sortie commence" }),
  fairWindowMinutes: wholeNumber("La fenêtre du départ équitable", 1, FAIR_WINDOW_MINUTES_MAX),
});
export type DropFormValues = z.output<typeof dropFormSchema>;

/** The seller's words for each reason a drop's checkout was refused (the fairness summary). */
export const DROP_REFUSAL_LABELS: Record<string, string> = {
  DROP_LIMIT: "limite par client",
  DROP_PENDING: "commande déjà en attente",
  DROP_EMAIL: "adresse e-mail manquante",
  DROP_ACCOUNT: "compte requis",
  DROP_NETWORK: "trop de commandes depuis une connexion",
  DROP_ADMISSION: "hors de son tour",
  DROP_ADMISSION_FORGED: "admission falsifiée ou échue",
  DROP_ADMISSION_USED: "admission déjà utilisée",
};
