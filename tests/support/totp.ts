import { createHmac } from "node:crypto";

/**
 * TOTP (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) from a base32 secret, as an
 * authenticator app computes it: the tests' own implementation, independent of better-auth's.
 */
export function totpCode(base32Secret: string, at = Date.now()): string {
  const key = base32Decode(base32Secret);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, "0");
}

/** A code of another 30-second step than now (a wrong code that is still 6 digits). */
export function staleTotpCode(base32Secret: string): string {
  const now = totpCode(base32Secret);
  for (let steps = 10; ; steps++) {
    const code = totpCode(base32Secret, Date.now() - steps * 30_000);
    if (code !== now && code !== totpCode(base32Secret, Date.now() - 30_000) && code !== totpCode(base32Secret, Date.now() + 30_000)) return code;
  }
}

function base32Decode(input: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of input.toUpperCase().replace(/=+$/, "")) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The secret of an otpauth:// URI. */
export function secretOfOtpauth(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
}
