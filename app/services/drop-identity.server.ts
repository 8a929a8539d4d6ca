import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, lt, or, sql } from "drizzle-orm";
import { dropIdentityCodes, productDrops, products } from "~/db/schema";
import type { Db } from "~/db/types";
import { dropCodeEmail } from "~/domain/alert-emails";
import { CODE_ATTEMPTS, CODE_DIGITS, CODE_MINUTES, type Collector, COLLECTOR_HOURS } from "~/domain/drop-identity";
import { emailKey } from "~/domain/drop-rules";
import type { MailShop } from "~/domain/email-templates";
import { tooManyAttemptsMessage } from "~/domain/rate-limits";
import { readToken, signToken } from "~/lib/signed-token.server";
import { queueEmail } from "./mail.server";
import { consumeRateLimit } from "./rate-limit.server";

/**
 * A collector's identity for a fair start (issue 50, point 3; rules in domain/drop-identity.ts):
 * a code e-mailed to the mailbox given at join, then a signed cookie that names the mailbox's
 * key. Only the code's HMAC is stored, for CODE_MINUTES and CODE_ATTEMPTS tries.
 */

export type CodeRequestResult = { ok: true } | { ok: false; status: 404 | 409 | 429; error: string };

/** The fair start a code may be asked for: a drop with a waiting room, started fairly, open to guests. */
async function fairStartOf(db: Db, productId: number) {
  const [row] = await db
    .select({ title: products.title, dropTime: products.dropTime, startMode: productDrops.startMode, accountRequired: productDrops.accountRequired })
    .from(productDrops)
    .innerJoin(products, eq(products.id, productDrops.productId))
    .where(eq(productDrops.productId, productId));
  return row?.dropTime && row.startMode === "fair_start" ? row : null;
}

function codeHash(secret: string, id: string, code: string): Buffer {
  return createHmac("sha256", secret).update(`drop-code:${id}:${code}`).digest();
}

/**
 * E-mails a new code to `email` for this drop's waiting room; an earlier code of the mailbox
 * stops working. Limited per network and per mailbox (domain/rate-limits.ts).
 */
export async function requestCollectorCode(
  db: Db,
  deps: { shop: MailShop; secret: string },
  request: { productId: number; email: string; clientIp: string; now: Date },
): Promise<CodeRequestResult> {
  const drop = await fairStartOf(db, request.productId);
  if (!drop) return { ok: false, status: 404, error: "Ce produit n'a pas de file d'attente à départ équitable." };
  if (drop.accountRequired) return { ok: false, status: 409, error: "Cette sortie est réservée aux clients connectés : connectez-vous pour rejoindre la file d'attente." };
  const identity = emailKey(request.email);
  for (const [name, subject] of [
    ["dropCodePerIp", request.clientIp],
    ["dropCodePerEmail", identity],
  ] as const) {
    const limit = await consumeRateLimit(db, name, subject, request.now);
    if (limit.blocked) return { ok: false, status: 429, error: tooManyAttemptsMessage(limit.retryAfterMs) };
  }
  const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
  await db.transaction(async (tx) => {
    // One live code per mailbox; the expired ones of anybody go at the same time.
    await tx.delete(dropIdentityCodes).where(or(eq(dropIdentityCodes.identity, identity), lt(dropIdentityCodes.expiresAt, request.now)));
    const id = randomUUID();
    await tx.insert(dropIdentityCodes).values({
      id,
      identity,
      codeHash: codeHash(deps.secret, id, code).toString("base64url"),
      createdAt: request.now,
      expiresAt: new Date(request.now.getTime() + CODE_MINUTES * 60_000),
    });
    await queueEmail(tx, { to: request.email, kind: "drop-code", content: dropCodeEmail({ shop: deps.shop, product: drop.title, code, minutes: CODE_MINUTES }) });
  });
  return { ok: true };
}

export type CodeCheckResult = { ok: true; collector: Collector; token: string; expiresAt: Date } | { ok: false; status: 422; error: string };

const WRONG_CODE = "Code incorrect ou expiré. Vérifiez le dernier e-mail reçu, ou demandez un nouveau code.";

/**
 * Checks the code typed for `email`: right, it is spent and the browser gets the collector's
 * signed token; wrong, one of its tries is spent (the last one kills it).
 */
export async function confirmCollectorCode(db: Db, secret: string, input: { email: string; code: string; now: Date }): Promise<CodeCheckResult> {
  const identity = emailKey(input.email);
  const [live] = await db
    .select({ id: dropIdentityCodes.id, codeHash: dropIdentityCodes.codeHash })
    .from(dropIdentityCodes)
    .where(and(eq(dropIdentityCodes.identity, identity), gt(dropIdentityCodes.expiresAt, input.now), lt(dropIdentityCodes.attempts, CODE_ATTEMPTS)))
    .orderBy(desc(dropIdentityCodes.createdAt))
    .limit(1);
  if (!live) return { ok: false, status: 422, error: WRONG_CODE };
  const given = codeHash(secret, live.id, input.code);
  const stored = Buffer.from(live.codeHash, "base64url");
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) {
    await db.update(dropIdentityCodes).set({ attempts: sql`${dropIdentityCodes.attempts} + 1` }).where(eq(dropIdentityCodes.id, live.id));
    return { ok: false, status: 422, error: WRONG_CODE };
  }
  // Spent by whoever deletes it first: two tabs posting the same code get one token each at most once.
  const spent = await db.delete(dropIdentityCodes).where(eq(dropIdentityCodes.id, live.id)).returning({ id: dropIdentityCodes.id });
  if (spent.length === 0) return { ok: false, status: 422, error: WRONG_CODE };
  const expiresAt = new Date(input.now.getTime() + COLLECTOR_HOURS * 3_600_000);
  return { ok: true, collector: { key: identity, proof: "email" }, token: collectorToken(identity, expiresAt, secret), expiresAt };
}

type CollectorPayload = { k: "collector"; c: string; e: number };

export function collectorToken(identity: string, expiresAt: Date, secret: string): string {
  return signToken({ k: "collector", c: identity, e: expiresAt.getTime() } satisfies CollectorPayload, secret);
}

/** The collector a cookie names, if this shop signed it and it has not ended. */
export function collectorFromToken(token: string | undefined, secret: string, now: Date): Collector | null {
  if (!token) return null;
  const payload = readToken(token, secret) as Partial<CollectorPayload> | null;
  if (!payload || payload.k !== "collector" || typeof payload.c !== "string" || typeof payload.e !== "number" || payload.e <= now.getTime()) return null;
  return { key: payload.c, proof: "email" };
}

/** A signed-in account's collector: its address is confirmed (better-auth refuses sign-in before). */
export function collectorOfAccount(email: string): Collector {
  return { key: emailKey(email), proof: "account" };
}
