/**
 * What a discount code looks like, for the cart's field and the admin form alike. Apart from
 * discounts.ts (the schemas) so the cart page does not load zod (decision 023).
 */

export const CODE_MIN_LENGTH = 3;
export const CODE_MAX_LENGTH = 32;
const CODE_PATTERN = /^[A-Z0-9_-]+$/;

/** Codes are compared and stored in upper case, without surrounding spaces. */
export function normaliseDiscountCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Whether a typed code can exist at all (the same rule as the admin form). */
export function isWellFormedCode(code: string): boolean {
  return code.length >= CODE_MIN_LENGTH && code.length <= CODE_MAX_LENGTH && CODE_PATTERN.test(code);
}
