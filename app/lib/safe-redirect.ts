/** A redirect target taken from a form: only a path of this site, never another origin. */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return fallback;
  return target;
}
