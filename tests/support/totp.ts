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

const STEP_MS = 30_000;

/** The steps (30-second periods) whose code a test already sent, per secret: the shop accepts each code once. */
export type UsedSteps = { has(step: number): boolean; add(step: number): void };
const stepsSentInThisProcess = new Map<string, Set<number>>();

/**
 * A right code the shop has not seen yet. The shop takes the code of the current step and of
 * the steps on either side, once each: this one takes the current step's, else the next one's,
 * else the previous one's while it has 10 s left; when the three were sent, it waits for the
 * next step to begin (a test that signs one admin in more than three times in 30 s).
 */
export async function unusedTotpCode(secret: string, used: UsedSteps = ledgerOf(secret)): Promise<string> {
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / STEP_MS);
    const left = STEP_MS - (now % STEP_MS);
    const sentCodes = new Set([-3, -2, -1, 0, 1].map((d) => current + d).filter((s) => used.has(s)).map((s) => totpCode(secret, s * STEP_MS)));
    const step = [current, current + 1, ...(left > 10_000 ? [current - 1] : [])].find(
      // Two steps may share a code (one chance in a million): the shop would see it twice.
      (s) => !used.has(s) && !sentCodes.has(totpCode(secret, s * STEP_MS)),
    );
    if (step !== undefined) {
      used.add(step);
      return totpCode(secret, step * STEP_MS);
    }
    await nextStep(left + 50);
  }
}

const waitForReal = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
let nextStep = waitForReal;

/**
 * For tests whose shop runs in their own process under a clock they control (vitest's fake
 * Date): moves that clock to the next step instead of waiting for it. `null` puts the real wait
 * back: call it when the clock is given back (the files of a worker share this module, and a
 * later file's `vi.setSystemTime` without fake timers would freeze its Date).
 */
export function advanceTotpClockWith(advance: ((ms: number) => void) | null): void {
  nextStep = advance ? async (ms) => advance(ms) : waitForReal;
}

function ledgerOf(secret: string): Set<number> {
  const steps = stepsSentInThisProcess.get(secret) ?? new Set<number>();
  stepsSentInThisProcess.set(secret, steps);
  return steps;
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
