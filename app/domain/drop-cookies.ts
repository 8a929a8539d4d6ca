/**
 * The cookies of a drop's waiting room, named per product: the browser's ticket (its place) and
 * its admission (signed, used once by the checkout).
 */
export const TICKET_COOKIE_PREFIX = "drop_ticket_";
export const ADMISSION_COOKIE_PREFIX = "drop_admission_";
export const ticketCookie = (productId: number) => `${TICKET_COOKIE_PREFIX}${productId}`;
export const admissionCookie = (productId: number) => `${ADMISSION_COOKIE_PREFIX}${productId}`;
const ADMISSION_COOKIE = /^drop_admission_(\d{1,9})$/;

/** Every admission a Cookie header carries, by product. */
export function admissionsFromCookies(cookies: Record<string, string | undefined>): Map<number, string> {
  const found = new Map<number, string>();
  for (const [name, value] of Object.entries(cookies)) {
    const match = ADMISSION_COOKIE.exec(name);
    if (match && value) found.set(Number(match[1]), value);
  }
  return found;
}
