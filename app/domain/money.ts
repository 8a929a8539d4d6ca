/** Money is integer cents everywhere; these are the only conversions. */

const euro = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

/** 1299 → "12,99 €" (with the narrow no-break space French uses). */
export function formatEuros(cents: number): string {
  return euro.format(cents / 100);
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
