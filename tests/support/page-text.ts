/**
 * A text as React's server renderer writes it into HTML (`&`, `<`, `>`, `"` and `'` escaped).
 * Tests look for a seller's or customer's text with it, and for the raw markup's absence.
 */
export function asPageText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}
