/** What tests/setup/account-orders-fixtures.ts puts in the account orders spec's database. */
export const ACCOUNT_ORDERS_FIXTURES = {
  customer: { email: "historique@example.com", password: "historique-e2e-mot-de-passe", name: "Hugo Historique" },
  /** The product of most orders, and the one of the oldest order alone (found by its name). */
  display: { title: "Display Flammes Obsidiennes", priceCents: 1_490, stock: 50 },
  coffret: { title: "Coffret Dracaufeu Ultra Premium", priceCents: 11_990, stock: 5 },
  /** Orders in all: a full page of 10, and the oldest on page 2. */
  orderCount: 11,
  /** Newest first: the 3rd is shipped (Colissimo, this number), the 5th refunded in part (one display of its two). */
  shipped: { index: 2, trackingNumber: "6A12345678901" },
  refunded: { index: 4, quantity: 2, refundedCents: 1_490 },
} as const;
