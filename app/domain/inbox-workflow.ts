import { INBOX_STATUS_LABELS, type InboxKind, type InboxStatus } from "./catalog-values";
import { formatEuros } from "./money";

/**
 * Where a request can go from each status. Contact: nouveau → lu → traite. Buy-back:
 * nouveau → en_estimation → offre_envoyee (only with an amount: the offer form) → acceptee or
 * refusee; acceptee → payee. Final statuses go nowhere.
 */
const NEXT: Record<InboxKind, Partial<Record<InboxStatus, readonly InboxStatus[]>>> = {
  contact: { nouveau: ["lu"], lu: ["traite"] },
  rachat: { nouveau: ["en_estimation"], en_estimation: ["offre_envoyee"], offre_envoyee: ["acceptee", "refusee"], acceptee: ["payee"] },
};

/** The statuses of each kind, in workflow order (the filters list them so). */
export const KIND_STATUSES: Record<InboxKind, readonly InboxStatus[]> = {
  contact: ["nouveau", "lu", "traite"],
  rachat: ["nouveau", "en_estimation", "offre_envoyee", "acceptee", "refusee", "payee"],
};

export function nextStatuses(kind: InboxKind, from: InboxStatus): readonly InboxStatus[] {
  return NEXT[kind][from] ?? [];
}

/** The statuses a plain button reaches: an offer needs its amount, so it has its own form. */
export function buttonStatuses(kind: InboxKind, from: InboxStatus): readonly InboxStatus[] {
  return nextStatuses(kind, from).filter((to) => to !== "offre_envoyee");
}

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
  payee: "Marquer comme payée",
};

/** The tone of a status badge (Badge's tones). */
export const STATUS_TONES: Record<InboxStatus, "accent" | "info" | "neutral" | "success" | "warning" | "destructive"> = {
  nouveau: "accent",
  lu: "neutral",
  traite: "success",
  en_estimation: "info",
  offre_envoyee: "warning",
  acceptee: "success",
  refusee: "neutral",
  payee: "success",
};

export type InboxEventView = {
  type: "status" | "reply" | "offer";
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
    case "status":
      return event.fromStatus && event.toStatus
        ? `Statut : ${INBOX_STATUS_LABELS[event.fromStatus]} → ${INBOX_STATUS_LABELS[event.toStatus]}`
        : "Statut modifié";
  }
}
