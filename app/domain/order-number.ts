/**
 * Order numbers as SPEC.md section 3 writes them: the shop's prefix, the last 6 digits of the
 * timestamp (ms) and 4 random digits, zero-padded, joined by hyphens ("CPT-482913-0071").
 * Not secret and not unique by themselves: the database's unique index decides, and the
 * checkout draws again on a clash.
 */
export function formatOrderNumber(prefix: string, nowMs: number, random4: number): string {
  const stamp = String(Math.floor(nowMs)).slice(-6).padStart(6, "0");
  const random = String(Math.abs(Math.floor(random4)) % 10_000).padStart(4, "0");
  return `${prefix}-${stamp}-${random}`;
}

export const ORDER_NUMBER_PATTERN = /^[A-Z]{2,6}-\d{6}-\d{4}$/;
