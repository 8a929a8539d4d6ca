/**
 * What a name may hold. PostgreSQL text cannot hold NUL, and no one types the other control
 * characters (a line break in a name would also break the e-mails that greet by it). Bidi
 * overrides turn text around on screen ("‮gpj.exe" reads "exe.jpg"), and a name made only of
 * zero-width characters shows as nothing.
 */
export const CONTROL = /\p{Cc}/u;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
const INVISIBLE = /[\s\p{Cc}\p{Cf}]/gu;

/** A control character or a bidi override: refused in names. */
export function hasForbiddenCharacters(value: string): boolean {
  return CONTROL.test(value) || BIDI_CONTROL.test(value);
}

/**
 * Text from elsewhere (the payment provider's address form) as the shop's own forms would have
 * taken it: control characters and bidi overrides dropped, not refused (nobody is there to retype).
 */
export function withoutForbiddenCharacters(value: string): string {
  return value.replace(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu, "").trim();
}

/** The characters one can see: spaces, controls and zero-width format characters left out. */
export function visibleLength(value: string): number {
  return value.replace(INVISIBLE, "").length;
}

/**
 * The first `max` UTF-16 units of a text, never half a character: an emoji cut in two (a lone
 * surrogate) shows as "�" in a page, an e-mail or a meta description.
 */
export function sliceText(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
