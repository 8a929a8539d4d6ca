import type { InboxStatus } from "./inbox-values";

/**
 * How long personal data is kept before the retention job (app/services/retention.server.ts)
 * clears it; documented in docs/privacy.md. Orders, their amounts and invoices are kept 10
 * years by law and never touched here.
 */
export const RETENTION = {
  /** An e-mail's subject and content, after it was sent (or, failed, after it was written). */
  outboxBodyDays: 90,
  /** Buy-back photos of a closed request, after its last change. */
  closedBuybackPhotoMonths: 12,
  /** Rate-limit counters, sessions and sign-in or reset links, after they expired. */
  expiredRowsGraceDays: 1,
  /** The client's network an order was placed from (a drop's bound on unpaid orders), after the order was placed; a waiting room's tickets (with their network), after they were taken. */
  orderNetworkDays: 30,
  /** Contact and buy-back requests, after their last change: then anonymised (CNIL, référentiel « gestion commerciale »: three years after the last contact). */
  inboxRequestYears: 3,
  /** A customer account nobody signed in to (nor used a session of): then erased as the admin erases it, unless an order of it is open. */
  inactiveAccountYears: 3,
  /** How long before that erasure its owner is warned by e-mail (once; signing in cancels it). */
  inactiveAccountWarningDays: 30,
  /** An order's delivery address (but its method and country) and phone, after it was shipped (or placed, never shipped): the legal guarantee of conformity's two years from delivery (L217-3), plus a month for the delivery and the claim to arrive. The invoice keeps the billing address 10 years. */
  orderContactMonths: 25,
  /** What stays of an e-mail once its content is cleared (recipient, kind, status, dates), after it was sent (or written): then deleted; the order confirmation stays with the order. */
  outboxTraceYears: 3,
  /**
   * The register of second-hand purchases (registre des objets mobiliers): kept 10 years from
   * each entry's recording (art. R321-6-1 Code pénal), never cleared by the retention job nor
   * by an erasure (a legal obligation; docs/decisions/056).
   */
  purchaseRegisterYears: 10,
  /** "Prévenez-moi" alerts once sent, withdrawn or left unconfirmed, after that: then deleted. */
  stockAlertClosedDays: 30,
} as const;

/** A request the seller is done with: its photos are no longer needed once the period is over. */
export const CLOSED_INBOX_STATUSES = ["traite", "refusee", "payee"] as const satisfies readonly InboxStatus[];

/**
 * E-mails kept whole with their order (10 years, as orders are): the order confirmation is the
 * contract's confirmation on a durable medium (L221-13), which the seller keeps and lets the
 * buyer reach for an order of 120 € or more (L213-1, D213-1). The CGV version it carries is kept
 * with the order too (cgv_snapshots).
 */
export const EMAIL_KINDS_KEPT_WITH_ORDER = ["order-confirmation"] as const;

/** What an e-mail's subject and bodies become once their period is over. */
export const RETAINED_EMAIL_TEXT = "[contenu effacé : conservé 90 jours]";

const DAY_MS = 24 * 60 * 60 * 1000;

const monthsBefore = (now: Date, months: number) => {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date;
};

/** The instants of the contact and account periods at `now` (the job's second part, runContactRetention). */
export function contactRetentionCutoffs(now: Date) {
  const inactive = monthsBefore(now, RETENTION.inactiveAccountYears * 12);
  return {
    inboxRequests: monthsBefore(now, RETENTION.inboxRequestYears * 12),
    /** Accounts inactive since before this are erased (once warned long enough ago). */
    inactiveAccounts: inactive,
    /** Accounts inactive since before this are warned. */
    inactiveAccountWarning: new Date(inactive.getTime() + RETENTION.inactiveAccountWarningDays * DAY_MS),
    /** A warning sent before this has given its month. */
    warningGiven: new Date(now.getTime() - RETENTION.inactiveAccountWarningDays * DAY_MS),
    orderContact: monthsBefore(now, RETENTION.orderContactMonths),
    stockAlerts: new Date(now.getTime() - RETENTION.stockAlertClosedDays * DAY_MS),
    outboxTraces: monthsBefore(now, RETENTION.outboxTraceYears * 12),
  };
}

/** The instant before which data of each kind is past its period, at `now`. */
export function retentionCutoffs(now: Date) {
  const photos = new Date(now);
  photos.setUTCMonth(photos.getUTCMonth() - RETENTION.closedBuybackPhotoMonths);
  return {
    outboxBody: new Date(now.getTime() - RETENTION.outboxBodyDays * DAY_MS),
    closedBuybackPhotos: photos,
    expiredRows: new Date(now.getTime() - RETENTION.expiredRowsGraceDays * DAY_MS),
    orderNetwork: new Date(now.getTime() - RETENTION.orderNetworkDays * DAY_MS),
  };
}
