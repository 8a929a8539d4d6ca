import { and, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { emailOptOuts } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { type EmailChoices, OPTIONAL_EMAIL_KINDS, type OptionalEmailKind, emailChoiceKey, oneClickUnsubscribeHeaders } from "~/domain/email-choices";
import type { EmailContent, MailShop } from "~/domain/email-templates";
import { readToken, signToken } from "~/lib/signed-token.server";
import { absoluteUrl } from "~/lib/seo";
import { queueEmail } from "./mail.server";

/**
 * The optional e-mails an address receives (issue 56, point 4): the switches of
 * /account/notifications, the one-click link of every optional e-mail (RFC 8058), and the one
 * way such an e-mail is queued, which sends nothing to an address that switched its kind off.
 */

const UNSUBSCRIBE_PURPOSE = "desabonnement";
const unsubscribePayload = z.object({ p: z.literal(UNSUBSCRIBE_PURPOSE), e: z.string().min(3).max(320), k: z.enum(OPTIONAL_EMAIL_KINDS) });

/** The link's proof: the address and the kind, signed. It never expires: an old e-mail's link still unsubscribes. */
export function unsubscribeToken(secret: string, email: string, kind: OptionalEmailKind): string {
  return signToken({ p: UNSUBSCRIBE_PURPOSE, e: emailChoiceKey(email), k: kind }, secret);
}

/** The address and kind of a link's token, or null when it is forged, edited or malformed. */
export function readUnsubscribeToken(secret: string, token: string): { email: string; kind: OptionalEmailKind } | null {
  const payload = unsubscribePayload.safeParse(readToken(token, secret));
  return payload.success ? { email: payload.data.e, kind: payload.data.k } : null;
}

export function unsubscribeUrl(shop: MailShop, secret: string, email: string, kind: OptionalEmailKind): string {
  return `${absoluteUrl(shop.publicUrl, "/desabonnement")}?jeton=${unsubscribeToken(secret, email, kind)}`;
}

const optedOut = (email: string, kind: OptionalEmailKind) => and(eq(emailOptOuts.email, emailChoiceKey(email)), eq(emailOptOuts.kind, kind));

/** Every optional kind, on unless this address switched it off. */
export async function emailChoicesOf(db: Db, email: string): Promise<EmailChoices> {
  const rows = await db.select({ kind: emailOptOuts.kind }).from(emailOptOuts).where(eq(emailOptOuts.email, emailChoiceKey(email)));
  const off = new Set(rows.map((row) => row.kind));
  return Object.fromEntries(OPTIONAL_EMAIL_KINDS.map((kind) => [kind, !off.has(kind)])) as EmailChoices;
}

/** Switches one kind on or off for the address; doing it twice changes nothing more. */
export async function setEmailChoice(db: Db | Tx, email: string, kind: OptionalEmailKind, on: boolean): Promise<void> {
  if (on) await db.delete(emailOptOuts).where(optedOut(email, kind));
  else await db.insert(emailOptOuts).values({ email: emailChoiceKey(email), kind }).onConflictDoNothing();
}

export async function saveEmailChoices(db: Db, email: string, choices: EmailChoices): Promise<void> {
  await db.transaction(async (tx) => {
    for (const kind of OPTIONAL_EMAIL_KINDS) await setEmailChoice(tx, email, kind, choices[kind]);
  });
}

/** For a sender's query: true when the address in `emailColumn` switched `kind` off. */
export function hasOptedOut(emailColumn: AnyPgColumn, kind: OptionalEmailKind) {
  return sql`exists (select 1 from ${emailOptOuts} where ${emailOptOuts.email} = lower(trim(${emailColumn})) and ${emailOptOuts.kind} = ${kind})`;
}

type OptionalEmail = { to: string; kind: string; optional: OptionalEmailKind; content: (unsubscribeUrl: string) => EmailContent };

/**
 * Queues an optional e-mail: its body gets the visible unsubscribe link, its headers the same
 * link for mail clients' one-click button. Null, and nothing queued, when the address switched
 * this kind off.
 */
export async function queueOptionalEmail(db: Db | Tx, deps: { shop: MailShop; secret: string }, email: OptionalEmail): Promise<{ id: string } | null> {
  const [refused] = await db.select({ kind: emailOptOuts.kind }).from(emailOptOuts).where(optedOut(email.to, email.optional));
  if (refused) return null;
  const link = unsubscribeUrl(deps.shop, deps.secret, email.to, email.optional);
  return queueEmail(db, { to: email.to, kind: email.kind, content: email.content(link), headers: oneClickUnsubscribeHeaders(link) });
}
