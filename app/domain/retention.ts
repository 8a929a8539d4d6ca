import type { InboxStatus } from "./catalog-values";

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
