import type { OrderEventType, OrderStatus, RefundReason } from "./catalog-values";
import { formatEuros } from "./money";
import { carrierLabel } from "./order-workflow";

/**
 * The admin order page's "Historique": the order's own timestamps merged with its order_events
 * (who did what) and the e-mails each event queued. Orders older than the events table only
 * have their timestamps; newer ones have an event for each, which wins (it knows who acted).
 */

export type TimelineOrder = {
  status: OrderStatus;
  /** ISO date-times. */
  createdAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  refundedAt: string | null;
  updatedAt: string;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  refundReference: string | null;
  refundReason: RefundReason | null;
  totalCents: number;
};

export type TimelineEvent = { id: string; type: OrderEventType; details: Record<string, unknown>; actorName: string | null; createdAt: string };
export type TimelineEmail = { id: string; subject: string; to: string; status: "pending" | "sent" | "failed" };

export type TimelineEntry = {
  key: string;
  at: string;
  title: string;
  detail: string | null;
  actorName: string | null;
  link: { href: string; label: string } | null;
  tone: "neutral" | "success" | "warning" | "destructive";
  emails: TimelineEmail[];
};

/** The outbox e-mails an event queued (details.emailIds). */
export function emailIdsOf(details: Record<string, unknown>): string[] {
  const ids = details.emailIds;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value : null);

function shipmentDetail(carrier: string | null, trackingNumber: string | null): string | null {
  const parts = [carrierLabel(carrier), trackingNumber ? `n° ${trackingNumber}` : null].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : null;
}

function describe(type: OrderEventType, details: Record<string, unknown>, order: TimelineOrder): Pick<TimelineEntry, "title" | "detail" | "link" | "tone"> {
  switch (type) {
    case "created":
      return { title: "Commande créée", detail: "Articles réservés, en attente du paiement", link: null, tone: "neutral" };
    case "paid":
      return { title: "Paiement reçu", detail: text(details.paymentReference) ? `Référence ${details.paymentReference as string}` : null, link: null, tone: "success" };
    case "shipped": {
      const url = text(details.trackingUrl);
      return {
        title: "Commande expédiée",
        detail: shipmentDetail(text(details.carrier), text(details.trackingNumber)),
        link: url ? { href: url, label: "Suivre le colis" } : null,
        tone: "success",
      };
    }
    case "cancelled":
      return details.reason === "withdrawal"
        ? { title: "Commande annulée après la rétractation du client", detail: "Articles remis en stock, remboursement demandé", link: null, tone: "warning" }
        : { title: "Commande annulée par le vendeur", detail: "Articles remis en stock, remboursement demandé", link: null, tone: "warning" };
    case "refund_requested":
      return {
        title: "Paiement arrivé après la fin de la réservation",
        detail: "Les articles n'étaient plus disponibles\u00a0: remboursement demandé",
        link: null,
        tone: "warning",
      };
    case "refunded": {
      const amount = typeof details.amountCents === "number" ? formatEuros(details.amountCents) : formatEuros(order.totalCents);
      const reference = text(details.refundId);
      return { title: "Remboursement effectué", detail: reference ? `${amount} · référence ${reference}` : amount, link: null, tone: "success" };
    }
    case "refund_failed":
      return { title: "Échec du remboursement", detail: text(details.error), link: null, tone: "destructive" };
    case "email":
      return { title: "E-mail envoyé", detail: text(details.subject), link: null, tone: "neutral" };
    case "note":
      return { title: "Note", detail: text(details.text), link: null, tone: "neutral" };
    case "preorder_cancelled": {
      const units = typeof details.units === "number" ? details.units : 0;
      return { title: "Précommande annulée par le client", detail: `${units} article${units > 1 ? "s" : ""} rendu${units > 1 ? "s" : ""} à la précommande, remboursement demandé`, link: null, tone: "warning" };
    }
    case "withdrawal_requested":
      return { title: "Rétractation demandée par le client", detail: text(details.email), link: null, tone: "warning" };
    case "preorder_allocated": {
      const allocated = typeof details.allocated === "number" ? details.allocated : 0;
      const ordered = typeof details.ordered === "number" ? details.ordered : 0;
      return {
        title: allocated === ordered ? "Précommande servie" : allocated === 0 ? "Précommande non servie (livraison réduite)" : "Précommande servie en partie (livraison réduite)",
        detail: `${allocated} exemplaire${allocated > 1 ? "s" : ""} attribué${allocated > 1 ? "s" : ""} sur ${ordered}`,
        link: null,
        tone: allocated === ordered ? "success" : "warning",
      };
    }
    case "payment_mismatch": {
      const received = typeof details.receivedCents === "number" ? formatEuros(details.receivedCents) : "montant inconnu";
      const currency = text(details.currency);
      return {
        title: "Paiement refusé : montant différent de la commande",
        detail: `Reçu ${received}${currency && currency !== "eur" ? ` (${currency.toUpperCase()})` : ""} au lieu de ${formatEuros(order.totalCents)}\u00a0: commande non validée, à rembourser depuis le prestataire`,
        link: null,
        tone: "destructive",
      };
    }
  }
}

/** What the order's own columns say, for the steps that have no event (older orders). */
function fromTimestamps(order: TimelineOrder, recorded: Set<OrderEventType>): { type: OrderEventType; at: string; details: Record<string, unknown> }[] {
  const steps: { type: OrderEventType; at: string | null; details: Record<string, unknown> }[] = [
    { type: "created", at: order.createdAt, details: {} },
    { type: "paid", at: order.paidAt, details: {} },
    { type: "shipped", at: order.shippedAt, details: { carrier: order.carrier, trackingNumber: order.trackingNumber, trackingUrl: order.trackingUrl } },
    { type: "refunded", at: order.refundedAt, details: { refundId: order.refundReference } },
  ];
  return steps.filter((step): step is { type: OrderEventType; at: string; details: Record<string, unknown> } => step.at !== null && !recorded.has(step.type));
}

/** The timeline, oldest first. */
export function buildTimeline(order: TimelineOrder, events: TimelineEvent[], emails: TimelineEmail[]): TimelineEntry[] {
  const byId = new Map(emails.map((email) => [email.id, email]));
  const entries: TimelineEntry[] = [
    ...fromTimestamps(order, new Set(events.map((event) => event.type))).map((step) => ({
      key: `order-${step.type}`,
      at: step.at,
      actorName: null,
      emails: [],
      ...describe(step.type, step.details, order),
    })),
    ...events.map((event) => ({
      key: event.id,
      at: event.createdAt,
      actorName: event.actorName,
      emails: emailIdsOf(event.details).flatMap((id) => byId.get(id) ?? []),
      ...describe(event.type, event.details, order),
    })),
  ];
  // An order that ended unpaid says so; its last change is when.
  if (order.status === "expired") {
    entries.push({ key: "order-expired", at: order.updatedAt, title: "Réservation expirée", detail: "Non payée à temps\u00a0: articles remis en stock", actorName: null, link: null, tone: "neutral", emails: [] });
  } else if (order.status === "cancelled" && !events.some((event) => event.type === "cancelled")) {
    entries.push({ key: "order-cancelled", at: order.updatedAt, title: "Paiement abandonné", detail: "Articles remis en stock", actorName: null, link: null, tone: "neutral", emails: [] });
  }
  // Stable: steps of the same instant keep the order above (created, paid, shipped…).
  return entries.map((entry, index) => ({ entry, index })).sort((a, b) => Date.parse(a.entry.at) - Date.parse(b.entry.at) || a.index - b.index).map(({ entry }) => entry);
}

/**
 * The steps the customer's order page shows: what happened to their order, without who acted
 * for the shop, its e-mails, notes or a provider's errors.
 */
const CUSTOMER_EVENT_TYPES: ReadonlySet<OrderEventType> = new Set<OrderEventType>([
  "created",
  "paid",
  "shipped",
  "cancelled",
  "refund_requested",
  "refunded",
  "preorder_cancelled",
  "withdrawal_requested",
  "preorder_allocated",
]);

/** The customer's timeline of their order, oldest first. */
export function customerTimeline(order: TimelineOrder, events: TimelineEvent[]): TimelineEntry[] {
  return buildTimeline(
    order,
    events.filter((event) => CUSTOMER_EVENT_TYPES.has(event.type)).map((event) => ({ ...event, actorName: null })),
    [],
  );
}
