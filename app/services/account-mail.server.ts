import type { Db, Tx } from "~/db/types";
import { accountInactive, alreadyRegistered, type MailShop, resetPassword, type SecurityChange, securityChanged, verifyEmail } from "~/domain/email-templates";
import { formatParisDate, formatParisDateTime } from "~/domain/paris-time";
import { absoluteUrl } from "~/lib/seo";
import { queueEmail } from "./mail.server";

/**
 * The account e-mails, queued in the outbox with links to this shop's own pages. None repeats the
 * account's name: they go to addresses nobody may have confirmed (email-templates.ts).
 */
type Person = { email: string; name: string };

const link = (shop: MailShop, path: string, token?: string) =>
  `${absoluteUrl(shop.publicUrl, path)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;

export async function queueVerificationEmail(db: Db, shop: MailShop, user: Person, token: string): Promise<void> {
  await queueEmail(db, {
    to: user.email,
    kind: "verify-email",
    content: verifyEmail({ shop, url: link(shop, "/verify-email", token) }),
  });
}

export async function queuePasswordResetEmail(db: Db, shop: MailShop, user: Person, token: string): Promise<void> {
  await queueEmail(db, {
    to: user.email,
    kind: "reset-password",
    content: resetPassword({ shop, url: link(shop, "/reset-password", token) }),
  });
}

/** Someone signed up with the address of an existing account: tell its owner, nobody else. */
export async function queueAlreadyRegisteredEmail(db: Db, shop: MailShop, owner: Person): Promise<void> {
  await queueEmail(db, {
    to: owner.email,
    kind: "already-registered",
    content: alreadyRegistered({ shop, loginUrl: link(shop, "/login"), resetUrl: link(shop, "/forgot-password") }),
  });
}

/** The account's password or second factor changed: tell its owner, at its own address. */
export async function queueSecurityNoticeEmail(db: Db, shop: MailShop, to: string, change: SecurityChange, at = new Date()): Promise<void> {
  await queueEmail(db, {
    to,
    kind: change,
    content: securityChanged({ shop, change, at: formatParisDateTime(at), resetUrl: link(shop, "/forgot-password") }),
  });
}

/** The account will be erased for inactivity on `erasedOn` unless its owner signs in. */
export async function queueInactiveAccountEmail(db: Db | Tx, shop: MailShop, to: string, erasedOn: Date): Promise<void> {
  await queueEmail(db, {
    to,
    kind: "account-inactive",
    content: accountInactive({ shop, erasedOn: formatParisDate(erasedOn), loginUrl: link(shop, "/login") }),
  });
}
