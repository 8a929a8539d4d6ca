import { z } from "zod";
import { DROP_LIMIT_MAX, wholeNumber } from "./drop-form";

/**
 * The seller's pre-order settings of a product (issue 55, decision 059), on the product's edit
 * page: one schema for the browser and the server action. Dates are Paris calendar days
 * ("2026-12-12", a date input's value). zod only: this file ships to the browser.
 */

export const PREORDER_QUANTITY_MAX = 1_000_000;

const calendarDay = (subject: string) =>
  z
    .string({ message: `${subject} est obligatoire` })
    .trim()
    .min(1, { message: `${subject} est obligatoire`, abort: true })
    .refine(isCalendarDay, `${subject} n'est pas une date valide`);

/** A real "YYYY-MM-DD" day (not 2026-02-31). */
function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const day = new Date(
    Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])),
  );
  return day.toISOString().slice(0, 10) === text;
}

/**
 * `today`: the Paris day of the server's clock (domain/paris-time parisWallTime). A release must
 * be to come, except the one already saved (a pre-order edited after its release keeps it).
 * `orderedUnits`: the units already pre-ordered; the quantity cannot go under them.
 */
export function preorderFormSchema(options: {
  today: string;
  currentReleaseOn?: string | null;
  orderedUnits?: number;
}) {
  const ordered = options.orderedUnits ?? 0;
  return z
    .object({
      releaseOn: calendarDay("La date de sortie"),
      estimatedDeliveryOn: calendarDay("La date de livraison estimée"),
      quantity: wholeNumber(
        "La quantité en précommande",
        1,
        PREORDER_QUANTITY_MAX,
      ),
      perCustomerLimit: wholeNumber("La limite par client", 1, DROP_LIMIT_MAX),
    })
    .superRefine((values, ctx) => {
      // ISO days compare as text.
      if (
        values.releaseOn !== options.currentReleaseOn &&
        values.releaseOn <= options.today
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["releaseOn"],
          message: "La date de sortie doit être dans le futur",
        });
      }
      if (values.estimatedDeliveryOn < values.releaseOn) {
        ctx.addIssue({
          code: "custom",
          path: ["estimatedDeliveryOn"],
          message:
            "La date de livraison estimée ne peut pas précéder la date de sortie",
        });
      }
      if (values.quantity < ordered) {
        ctx.addIssue({
          code: "custom",
          path: ["quantity"],
          message: `La quantité ne peut pas être inférieure aux ${ordered} exemplaires déjà précommandés`,
        });
      }
    });
}
export type PreorderFormValues = z.output<
  ReturnType<typeof preorderFormSchema>
>;

/** A pre-order takes orders until its release day (Paris), not on it: from then it ships. */
export function preorderIsOpen(
  preorder: { releaseOn: string },
  today: string,
): boolean {
  return today < preorder.releaseOn;
}
