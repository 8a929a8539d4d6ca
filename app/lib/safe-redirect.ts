/**
 * A redirect target taken from a form: only a path of this site, never another origin. No
 * backslash and no control character: browsers drop tabs and line breaks from a URL (so
 * "/\t/evil.example" is "//evil.example"), and a line break is refused in a header anyway.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || [...target].some(unsafe)) return fallback;
  return target;
}

function unsafe(character: string): boolean {
  const code = character.charCodeAt(0);
  return character === "\\" || code < 0x20 || code === 0x7f;
}
