import { INBOX_STATUS_LABELS, type InboxEventType, type InboxKind, type InboxStatus } from "./inbox-values";
import { formatEuros } from "./money";

/**
 * Where a request can go from each status. Contact: nouveau → lu → traite. Buy-back:
 * nouveau → en_estimation → offre_envoyee (the offer form: its lines) → acceptee (by the customer,
 * on the offer page) or refusee; acceptee → recue (the cards and the identity document received)
 * → payee (completed: credit given) or a_virer (completed, the transfer still to make) → payee.
 * The cards may still come back (refusee) until the purchase is completed. Final statuses go nowhere.
 */
const NEXT: Record<InboxKind, Partial<Record<InboxStatus, readonly InboxStatus[]>>> = {
  contact: { nouveau: ["lu"], lu: ["traite"] },
  rachat: {
    nouveau: ["en_estimation"],
    en_estimation: ["offre_envoyee"],
    offre_envoyee: ["acceptee", "refusee"],
    acceptee: ["recue", "refusee"],
    recue: ["payee", "a_virer", "refusee"],
    a_virer: ["payee"],
  },
};

/** The statuses of each kind, in workflow order (the filters list them so). */
export const KIND_STATUSES: Record<InboxKind, readonly InboxStatus[]> = {
  contact: ["nouveau", "lu", "traite"],
  rachat: ["nouveau", "en_estimation", "offre_envoyee", "acceptee", "recue", "a_virer", "refusee", "payee"],
};

export function nextStatuses(kind: InboxKind, from: InboxStatus): readonly InboxStatus[] {
  return NEXT[kind][from] ?? [];
}

/**
 * The statuses a plain button reaches. The others have their own form: the offer (its lines),
 * the acceptance (the customer's, with the payment means), the reception (the identity document)
 * and the completion (register, credit, stock); only a transfer already recorded is paid by button.
 */
export function buttonStatuses(kind: InboxKind, from: InboxStatus): readonly InboxStatus[] {
  return nextStatuses(kind, from).filter((to) => !FORM_ONLY.includes(to) && !(to === "payee" && from !== "a_virer"));
}
const FORM_ONLY: readonly InboxStatus[] = ["offre_envoyee", "acceptee", "recue", "a_virer"];

export type TransitionCheck = { ok: true } | { ok: false; status: 409; message: string };

const quoted = (status: InboxStatus) => `« ${INBOX_STATUS_LABELS[status]} »`;

/** Said when a request changed status since the seller's page was shown. */
export function movedOnMessage(current: InboxStatus): string {
  return `Cette demande est passée au statut ${quoted(current)} entre-temps : rechargez la page et vérifiez avant de continuer.`;
}

/**
 * Whether `kind` may go from `current` to `to`, given the status the seller saw (`expected`).
 * A request that moved on since (another tab, a second click) is a conflict, not an error.
 */
export function checkTransition(kind: InboxKind, current: InboxStatus, expected: InboxStatus, to: InboxStatus): TransitionCheck {
  if (current !== expected) return { ok: false, status: 409, message: movedOnMessage(current) };
  if (!nextStatuses(kind, current).includes(to)) {
    return { ok: false, status: 409, message: `Une demande au statut ${quoted(current)} ne peut pas passer au statut ${quoted(to)}.` };
  }
  return { ok: true };
}

/** The label of the button that moves a request to a status. */
export const MOVE_LABELS: Partial<Record<InboxStatus, string>> = {
  lu: "Marquer comme lu",
  traite: "Marquer comme traité",
  en_estimation: "Passer en estimation",
  acceptee: "L'offre est acceptée",
  refusee: "L'offre est refusée",
  payee: "Virement effectué",
};

/** The tone of a status badge (Badge's tones). */
export const STATUS_TONES: Record<InboxStatus, "accent" | "info" | "neutral" | "success" | "warning" | "destructive"> = {
  nouveau: "accent",
  lu: "neutral",
  traite: "success",
  en_estimation: "info",
  offre_envoyee: "warning",
  acceptee: "success",
  recue: "info",
  a_virer: "warning",
  refusee: "neutral",
  payee: "success",
};

export type InboxEventView = {
  type: InboxEventType;
  fromStatus: InboxStatus | null;
  toStatus: InboxStatus | null;
  amountCents: number | null;
};

/** One line of a request's timeline, in French. */
export function describeEvent(event: InboxEventView): string {
  switch (event.type) {
    case "reply":
      return "Réponse envoyée par e-mail";
    case "offer":
      return `Offre envoyée par e-mail : ${event.amountCents === null ? "montant inconnu" : formatEuros(event.amountCents)}`;
    case "accepted":
      return `Offre acceptée par le client${event.amountCents === null ? "" : ` : ${formatEuros(event.amountCents)}`}`;
    case "declined":
      return "Offre refusée par le client";
    case "received":
      return "Cartes reçues, pièce d'identité relevée";
    case "adjusted":
      return `Offre ajustée, envoyée au client pour accord${event.amountCents === null ? "" : ` : ${formatEuros(event.amountCents)}`}`;
    case "completed":
      return `Rachat terminé${event.amountCents === null ? "" : ` : ${formatEuros(event.amountCents)}`}`;
    case "status":
      return event.fromStatus && event.toStatus
        ? `Statut : ${INBOX_STATUS_LABELS[event.fromStatus]} → ${INBOX_STATUS_LABELS[event.toStatus]}`
        : "Statut modifié";
  }
}
