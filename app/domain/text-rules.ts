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

/** The characters one can see: spaces, controls and zero-width format characters left out. */
export function visibleLength(value: string): number {
  return value.replace(INVISIBLE, "").length;
}
