/** What tests/setup/admin-orders-fixtures.ts puts in the admin orders spec's database. */
export const ADMIN_ORDERS_FIXTURES = {
  product: { title: "Display test commandes", priceCents: 4_990, stock: 10 },
  customer: { email: "collectionneuse@example.com", password: "collection-e2e-mot-de-passe", name: "Camille Collection" },
  /** Two paid orders, the first older: 49,90 €, then 2 × 49,90 € + 10,00 € of insurance = 109,80 €. */
  orders: [
    { quantity: 1, insuranceSelected: false, totalCents: 4_990 },
    { quantity: 2, insuranceSelected: true, totalCents: 10_980 },
  ],
} as const;
