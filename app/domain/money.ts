/** Money is integer cents everywhere; these are the only conversions. */

import { groupThousands } from "./numbers";

const BEFORE_SYMBOL = "\u00a0"; // no-break space before €

/**
 * 1299 → "12,99 €": the text of `Intl.NumberFormat("fr-FR", { style: "currency", currency:
 * "EUR" })`, which money.test.ts holds it to over a million amounts, written out here
 * (decision 025). A browser's first Intl formatter costs 30–100 ms of main thread while it
 * loads the locale data, and every listing formats prices while it hydrates; the text also no
 * longer depends on the ICU version of the browser, which must match the server's.
 */
export function formatEuros(cents: number): string {
  const rounded = Math.round(Math.abs(cents));
  const whole = groupThousands(Math.floor(rounded / 100));
  const sign = cents < 0 && rounded > 0 ? "-" : "";
  return `${sign}${whole},${String(rounded % 100).padStart(2, "0")}${BEFORE_SYMBOL}€`;
}

/** Parses a price typed by a person ("12,99", "12.99", "12") into cents, or null. */
export function parseEurosToCents(input: string): number | null {
  const normalised = input.trim().replace(/\s/g, "").replace("€", "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(normalised)) return null;
  const [whole = "0", fraction = ""] = normalised.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** For places that must hand a decimal to the outside world (JSON-LD, payment providers). */
export function centsToDecimalString(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** The French way to write it without a currency sign ("12,50"): a form's euro field, a CSV's amount. */
export function centsToFrenchDecimal(cents: number): string {
  return centsToDecimalString(cents).replace(".", ",");
}
