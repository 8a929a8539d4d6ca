/** The inbox's kinds, statuses and events (the seller's pages only: apart from catalog-values, which every page loads). */

/** Contact requests and buy-back requests (inbox_messages.kind). */
export const INBOX_KINDS = ["contact", "rachat"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export const INBOX_KIND_LABELS: Record<InboxKind, string> = { contact: "Contact", rachat: "Rachat" };

/**
 * Every status of a request. Contact: nouveau → lu → traite. Buy-back: nouveau → en_estimation →
 * offre_envoyee → acceptee or refusee → payee (domain/inbox-workflow.ts has the transitions).
 */
export const INBOX_STATUSES = ["nouveau", "lu", "traite", "en_estimation", "offre_envoyee", "acceptee", "recue", "a_virer", "refusee", "payee"] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

export const INBOX_STATUS_LABELS: Record<InboxStatus, string> = {
  nouveau: "Nouveau",
  lu: "Lu",
  traite: "Traité",
  en_estimation: "En estimation",
  offre_envoyee: "Offre envoyée",
  acceptee: "Acceptée",
  recue: "Cartes reçues",
  a_virer: "Virement à faire",
  refusee: "Refusée",
  payee: "Payée",
};

/** What a request's timeline records: the seller's steps and the customer's answers to an offer. */
export const INBOX_EVENT_TYPES = ["status", "reply", "offer", "accepted", "declined", "received", "adjusted", "completed"] as const;
export type InboxEventType = (typeof INBOX_EVENT_TYPES)[number];
