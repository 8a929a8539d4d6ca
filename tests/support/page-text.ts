/**
 * A text as the pages' server renderer (preact-render-to-string, decision 022) writes it into
 * HTML: `&`, `<` and `"` escaped, nothing else. Tests look for a seller's or customer's text
 * with it, and for the raw markup's absence.
 */
export function asPageText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}
