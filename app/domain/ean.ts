/**
 * EAN (GTIN-8 and GTIN-13) product codes: the identifier a product page shows for product safety
 * (GPSR art. 19 c) and gives search engines as gtin13 / gtin8. Pure: the form and the CSV import
 * check a code here.
 */

export type EanCheck = { ok: true; value: string } | { ok: false; message: string };

/** The check digit of a code's first digits (GS1: weights 3 and 1 from the right, mod 10). */
export function eanCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * A typed or imported code: spaces and hyphens dropped ("3 760 123 456 782"), then 8 or 13 digits
 * whose last one is the check digit. A spreadsheet that read a 13-digit code as a number writes it
 * back as "3,76E+12": that says so, with what to do.
 */
export function checkEan(text: string): EanCheck {
  const code = text.replace(/[\s\u00a0\u202f-]/g, "");
  if (/^\d+([.,]\d+)?E\+?\d+$/i.test(code)) {
    return { ok: false, message: "L'EAN a été converti en nombre par le tableur : mettez la colonne au format texte et recopiez le code" };
  }
  if (!/^\d+$/.test(code)) return { ok: false, message: "L'EAN ne doit contenir que des chiffres" };
  if (code.length !== 8 && code.length !== 13) return { ok: false, message: "L'EAN doit compter 8 ou 13 chiffres" };
  const expected = eanCheckDigit(code.slice(0, -1));
  if (Number(code.at(-1)) !== expected) return { ok: false, message: `Clé de contrôle de l'EAN invalide (le dernier chiffre devrait être ${expected})` };
  return { ok: true, value: code };
}
