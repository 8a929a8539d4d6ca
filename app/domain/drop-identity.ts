import { z } from "zod";

/**
 * Who holds a ticket in a fair start (issue 50, point 3): a collector, not a browser or a
 * network. A collector is a mailbox, keyed as the drop's limits key it (emailKey: case, +tag and
 * Gmail's dots folded), proven by a confirmed account or by a one-time code e-mailed at join.
 * One ticket per collector per opening, so the draw is among collectors; the bound per network
 * stays only against floods.
 */

/** How a collector proved their mailbox: an account (confirmed at sign-up), or a code sent at join. */
export type CollectorProof = "account" | "email";
export type Collector = { key: string; proof: CollectorProof };

/** What a join without the identity the drop asks for must bring first. */
export type IdentityNeeded = "account" | "email";

/** Digits of the e-mailed code: 10^6 codes against CODE_ATTEMPTS tries. */
export const CODE_DIGITS = 6;
/** A code's life: long enough to open a mail on a phone. */
export const CODE_MINUTES = 15;
/** Wrong codes before a code is dead (a new one must be asked for). */
export const CODE_ATTEMPTS = 5;
/** A confirmed mailbox is remembered by the browser this long (a signed cookie): a fair start's window and its opening. */
export const COLLECTOR_HOURS = 12;

export const collectorEmailSchema = z.object({
  email: z.string().trim().max(254, "Adresse e-mail trop longue").pipe(z.email({ message: "Adresse e-mail invalide" })),
});

export const collectorCodeSchema = collectorEmailSchema.extend({
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${CODE_DIGITS}}$`), `Le code reçu par e-mail a ${CODE_DIGITS} chiffres`),
});

/** The cookie that carries a browser's confirmed mailbox (signed; one for every drop). */
export const COLLECTOR_COOKIE = "drop_collector";

/** The French message of a join refused for want of identity. */
export function identityNeededMessage(needed: IdentityNeeded): string {
  return needed === "account"
    ? "Cette sortie est réservée aux clients connectés : connectez-vous pour rejoindre la file d'attente."
    : "Une place par collectionneur : confirmez votre adresse e-mail pour rejoindre la file d'attente.";
}

/**
 * Whether this join must first prove an identity, and which: only a fair start asks (its draw is
 * among collectors); a drop reserved to accounts asks for an account, else a mailbox will do.
 */
export function identityNeeded(room: { startMode: string; accountRequired: boolean }, collector: Collector | null): IdentityNeeded | null {
  if (room.startMode !== "fair_start") return null;
  if (room.accountRequired) return collector?.proof === "account" ? null : "account";
  return collector ? null : "email";
}
