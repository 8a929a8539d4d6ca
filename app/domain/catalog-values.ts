/** Value lists of SPEC.md section 3, shared by schema, forms and rules. */

export const MAIN_CATEGORIES = ["TCG", "Accessoires", "Gaming & Mangas"] as const;
export type MainCategory = (typeof MAIN_CATEGORIES)[number];

export const TCG_SUB_CATEGORIES = ["Scellés", "Cartes", "Autres Cartes"] as const;
export type TcgSubCategory = (typeof TCG_SUB_CATEGORIES)[number];

export const PRODUCT_STATUSES = ["en_ligne", "hors_ligne", "a_venir"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const CARD_TYPES = ["recent", "vintage"] as const;
export type CardType = (typeof CARD_TYPES)[number];

export const RARITIES = ["common", "uncommon", "rare", "ultra-rare", "secret-rare"] as const;
export type Rarity = (typeof RARITIES)[number];

export const RARITY_LABELS: Record<Rarity, string> = {
  common: "Commune",
  uncommon: "Peu commune",
  rare: "Rare",
  "ultra-rare": "Ultra rare",
  "secret-rare": "Secrète rare",
};

export const CONDITIONS = ["mint", "near-mint", "excellent", "good", "played"] as const;
export type Condition = (typeof CONDITIONS)[number];

export const CONDITION_LABELS: Record<Condition, string> = {
  mint: "Mint",
  "near-mint": "Near Mint",
  excellent: "Excellent",
  good: "Bon état",
  played: "Joué",
};

export const ORDER_STATUSES = [
  "pending_payment",
  "paid",
  "shipped",
  "cancelled",
  "expired",
  /** Paid after its reservation ended with the stock gone: the money goes back. */
  "refund_pending",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: "En attente de paiement",
  paid: "Payée",
  shipped: "Expédiée",
  cancelled: "Annulée",
  expired: "Expirée",
  refund_pending: "Remboursement en cours",
  refunded: "Remboursée",
};

export const SITE_MESSAGE_LOCATIONS = ["global", "home", "catalog", "product", "checkout"] as const;
export type SiteMessageLocation = (typeof SITE_MESSAGE_LOCATIONS)[number];

export const SITE_MESSAGE_LOCATION_LABELS: Record<SiteMessageLocation, string> = {
  global: "Site entier",
  home: "Page d'accueil",
  catalog: "Catalogue",
  product: "Pages produit",
  checkout: "Panier & Paiement",
};

/** What the order timeline records besides the order's own timestamps (order_events.type). */
export const ORDER_EVENT_TYPES = ["created", "paid", "shipped", "refund_requested", "refunded", "refund_failed", "cancelled", "email", "note", "withdrawal_requested", "payment_mismatch", "preorder_allocated", "preorder_cancelled"] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/** Why an order's money went back (orders.refund_reason). */
/** Why an order was refunded: paid after its stock was gone, cancelled by the seller, or the customer withdrew. */
export const REFUND_REASONS = ["late_payment", "seller_cancel", "withdrawal", "drop_limit", "preorder_shortage"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
/** The refunds of a paid order cancelled in the admin (its units went back): all but a late payment's. */
export const CANCELLATION_REFUND_REASONS = ["seller_cancel", "withdrawal"] as const satisfies readonly RefundReason[];

/** A discount code takes a percentage or a fixed amount off the subtotal. */
export const DISCOUNT_KINDS = ["percent", "amount"] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** Where a withdrawal was asked from: a signed-in customer's order, or the public form. */
export const WITHDRAWAL_SOURCES = ["account", "guest"] as const;
export type WithdrawalSource = (typeof WITHDRAWAL_SOURCES)[number];
