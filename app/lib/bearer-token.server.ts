import { timingSafeEqual } from "node:crypto";

/**
 * Whether an `Authorization` header is `Bearer <token>`, compared in constant time: a script
 * guessing the token learns nothing from how long the refusal took.
 */
export function bearerTokenMatches(authorization: string | null | undefined, token: string): boolean {
  const given = Buffer.from(authorization ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
