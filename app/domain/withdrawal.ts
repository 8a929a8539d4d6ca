import type { FieldErrors } from "./field-errors";
import type { OrderStatus, WithdrawalSource } from "./catalog-values";
import { formatParisDate, formatParisTime } from "./paris-time";

/**
 * The withdrawal function (Directive (EU) 2023/2673, Code de la consommation L221-21-1): who may
 * use it, the public form's schema, and the e-mails it sends (the customer's acknowledgement on
 * a durable medium with the date and time of the request, and the seller's notice).
 */

// ---------------------------------------------------------------------------------------------
// Who may withdraw

/**
 * A contract exists once the order is paid, and stays open to withdrawal while it is paid or
 * shipped. The 14 days run from delivery, which the shop does not record: rather than refuse a
 * customer still within their time, the function never refuses on the date. The seller judges
 * a late request from the acknowledgement's date; an order ended otherwise (never paid,
 * cancelled, refunded) has nothing left to withdraw from.
 */
export const WITHDRAWABLE_STATUSES = ["paid", "shipped"] as const satisfies readonly OrderStatus[];

const REFUSALS: Record<Exclude<OrderStatus, (typeof WITHDRAWABLE_STATUSES)[number]>, string> = {
  pending_payment: "Cette commande n'est pas payée : il n'y a pas de contrat dont vous rétracter. Sans paiement, elle s'annule d'elle-même.",
  cancelled: "Cette commande a été annulée : il n'y a plus de contrat dont vous rétracter.",
  expired: "Cette commande n'a pas été payée à temps et a été annulée : il n'y a pas de contrat dont vous rétracter.",
  refund_pending: "Cette commande est déjà en cours de remboursement : vous n'avez rien d'autre à faire.",
  refunded: "Cette commande a déjà été remboursée : vous n'avez rien d'autre à faire.",
};

/** Why an order in this status cannot be withdrawn from, in French; null when it can. */
export function withdrawalRefusal(status: OrderStatus): string | null {
  return (WITHDRAWABLE_STATUSES as readonly OrderStatus[]).includes(status) ? null : REFUSALS[status as keyof typeof REFUSALS];
}

/** What an order shows about withdrawal: the button, the request already made, or nothing. */
export type WithdrawalState = { kind: "available" } | { kind: "requested"; requestedAt: string } | { kind: "unavailable" };

export function withdrawalState(status: OrderStatus, requestedAt: string | null): WithdrawalState {
  if (requestedAt) return { kind: "requested", requestedAt };
  return withdrawalRefusal(status) === null ? { kind: "available" } : { kind: "unavailable" };
}

// ---------------------------------------------------------------------------------------------
// Dates, in Paris time

/** "21 juin 2026" and "14:05", in Paris time. */
export function requestMoment(at: Date | string): { date: string; time: string } {
  const when = new Date(at);
  return { date: formatParisDate(when), time: formatParisTime(when) };
}

/** "Rétractation demandée le 21 juin 2026 à 14:05" (the account and the seller's order page). */
export function requestedLabel(at: Date | string): string {
  const { date, time } = requestMoment(at);
  return `Rétractation demandée le ${date} à ${time}`;
}

const REFUND_DAYS = 14;

/** The last day to refund: 14 days after the request (L221-24). */
export function refundDeadline(at: Date | string): string {
  return formatParisDate(new Date(new Date(at).getTime() + REFUND_DAYS * 24 * 60 * 60 * 1000));
}

export const WITHDRAWAL_SOURCE_LABELS: Record<WithdrawalSource, string> = {
  account: "depuis son compte client",
  guest: "avec le formulaire public (numéro de commande et e-mail)",
};

// ---------------------------------------------------------------------------------------------
// The public form

/** The name field's maximum: room for several buyers' names ("Nom du (des) consommateur(s)"). */
export const WITHDRAWAL_NAME_MAX = 200;

/** The quantity field of an article on the confirmation: "quantite_<order item id>" (withdrawalConfirmSchema reads them). */
export const QUANTITY_FIELD_PREFIX = "quantite_";
export const quantityField = (lineId: string) => `${QUANTITY_FIELD_PREFIX}${lineId}`;

/** "CPT-123456-0042": what the customer sees in their confirmation e-mail. */
export function orderNumberExample(prefix: string): string {
  return `${prefix}-123456-0042`;
}

/** Same answer for an unknown number and a wrong e-mail: the form tells nobody which orders exist. */
export const WITHDRAWAL_NOT_FOUND = {
  title: "Commande introuvable",
  description: "Aucune commande ne correspond à ce numéro et à cette adresse e-mail. Recopiez-les tels qu'ils figurent dans l'e-mail de confirmation de votre commande.",
};

export const WITHDRAWAL_REFUSED_TITLE = "Rétractation impossible";

// ---------------------------------------------------------------------------------------------
// What the page shows at each step (loader and action answers)

/** The order as the withdrawal pages show it: no address, only what identifies the purchase. */
export type WithdrawalOrder = {
  number: string;
  status: OrderStatus;
  createdAt: string;
  /** `id`: the order item, whose quantity field the confirmation names. */
  lines: { id: string; name: string; quantity: number }[];
  totalCents: number;
};

/** An article withdrawn: `quantity` units of the `bought` ones. */
export type WithdrawnLine = { orderItemId: string; name: string; quantity: number; bought: number };

/** The articles a request withdraws, in the order's order: its stored lines, or every unit when it has none (a request made before the choice existed). */
export function withdrawnLines(stored: readonly { orderItemId: string; quantity: number }[] | null, items: readonly { id: string; name: string; quantity: number }[]): WithdrawnLine[] {
  return items.flatMap((item) => {
    const quantity = stored ? stored.filter((line) => line.orderItemId === item.id).reduce((total, line) => total + line.quantity, 0) : item.quantity;
    return quantity > 0 ? [{ orderItemId: item.id, name: item.name, quantity, bought: item.quantity }] : [];
  });
}

/** Whether a withdrawal covers every unit of the order (its standard delivery is then refunded too, L221-24). */
export function withdrawsWholeOrder(lines: readonly WithdrawnLine[], items: readonly { id: string; quantity: number }[]): boolean {
  return items.every((item) => lines.find((line) => line.orderItemId === item.id)?.quantity === item.quantity);
}

/** "Booster Écarlate (2 sur 3)", "Display (1)": an article withdrawn, for the e-mails and the seller's page. */
export function withdrawnLineLabel(line: WithdrawnLine): string {
  return line.quantity === line.bought ? `${line.name} (× ${line.quantity})` : `${line.name} (${line.quantity} sur ${line.bought})`;
}

/**
 * Step 3: the request is recorded (now, or before: `alreadyRequested`); the status says whether
 * anything goes back. `customerName` is the name the form took (null: a request made before it asked).
 */
export type WithdrawalReceipt = { number: string; status: OrderStatus; requestedAt: string; email: string; customerName: string | null; alreadyRequested: boolean };

export type WithdrawalFailure = { title: string; description: string };

/**
 * What /retractation shows, from its loader or from its action's answer: the guest form (step 1),
 * the confirmation (step 2: the order, the consumer's name to give or confirm, the address the
 * acknowledgement goes to, with what identifies the order sent again with the button), an order
 * that cannot be withdrawn from, or the acknowledgement (step 3).
 */
export type WithdrawalView =
  | { step: "form"; values: { orderNumber?: string; email?: string }; failure?: WithdrawalFailure; fieldErrors?: FieldErrors }
  | {
      step: "confirm";
      order: WithdrawalOrder;
      source: WithdrawalSource;
      /** Where the acknowledgement goes: the account's address, or the order's (the one the guest typed, in any case). */
      email: string;
      /** The name field's value: the account's name at first, then what was typed. */
      customerName: string;
      /** The quantities typed, by field name, shown again with an error (absent: every unit). */
      quantities?: Record<string, string>;
      fieldErrors?: FieldErrors;
    }
  | { step: "refused"; number: string; source: WithdrawalSource; failure: WithdrawalFailure }
  | { step: "done"; receipt: WithdrawalReceipt };
