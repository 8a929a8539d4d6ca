/** Whole numbers as French text, without Intl: see formatEuros (decision 025). */

const GROUP = "\u202f"; // narrow no-break space between groups of three digits

/** 1000 → "1 000", as `Intl.NumberFormat("fr-FR")` writes a whole number. */
export function groupThousands(n: number): string {
  const digits = String(Math.floor(Math.abs(n))).replace(/\B(?=(\d{3})+$)/g, GROUP);
  return n < 0 ? `-${digits}` : digits;
}

/** "1 produit", "0 produit", "1 000 produits": French puts the plural from 2 on. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${groupThousands(n)} ${Math.abs(n) >= 2 ? plural : singular}`;
}
