import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The built-in test provider signs its webhooks the way Stripe does: a header
 * "t={unix seconds},v1={hex HMAC-SHA256 of `${t}.${body}`}", checked on the raw body with a
 * 5-minute tolerance (no replay of an old event).
 */
export const TEST_SIGNATURE_HEADER = "comptoir-signature";
const TOLERANCE_S = 300;

export function signPayload(body: string, secret: string, nowS = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac("sha256", secret).update(`${nowS}.${body}`).digest("hex");
  return `t=${nowS},v1=${mac}`;
}

export function verifySignature(body: string, header: string | null, secret: string, nowS = Math.floor(Date.now() / 1000)): boolean {
  if (!header) return false;
  const parts = new Map(header.split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const t = Number(parts.get("t"));
  const given = parts.get("v1") ?? "";
  if (!Number.isInteger(t) || Math.abs(nowS - t) > TOLERANCE_S || !/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}
