import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A small signed token: the payload as base64url JSON, a dot, its HMAC-SHA256. Whoever holds
 * the secret can make one; anyone else's edit or invention is refused by readToken.
 */
function mac(body: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(body).digest();
}

export function signToken(payload: unknown, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(body, secret).toString("base64url")}`;
}

/** The payload of a token signed with `secret`, or null (forged, edited, malformed). */
export function readToken(token: string, secret: string): unknown {
  const dot = token.indexOf(".");
  if (dot <= 0 || token.length > 2048) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = mac(body, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}
