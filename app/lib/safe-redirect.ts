/** The origin a target is resolved against: only its path, query and fragment are kept. */
const HERE = "http://same-site.invalid";

/**
 * A redirect target taken from a form: only a path of this site, never another origin. No
 * backslash and no control character: browsers drop tabs and line breaks from a URL (so
 * "/\t/evil.example" is "//evil.example"), and a line break is refused in a header anyway.
 * The path comes back percent-encoded, as a browser sends it: a Location header carries ASCII
 * only ("/€" made setting it throw, a 500 after the sign-out had ended the session).
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || [...target].some(unsafe)) return fallback;
  let url: URL;
  try {
    url = new URL(target, HERE);
  } catch {
    return fallback;
  }
  return url.origin === HERE ? `${url.pathname}${url.search}${url.hash}` : fallback;
}

function unsafe(character: string): boolean {
  const code = character.charCodeAt(0);
  return character === "\\" || code < 0x20 || code === 0x7f;
}
