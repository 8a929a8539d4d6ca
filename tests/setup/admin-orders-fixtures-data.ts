/** What tests/setup/admin-orders-fixtures.ts puts in the admin orders spec's database. */
export const ADMIN_ORDERS_FIXTURES = {
  product: { title: "Display test commandes", priceCents: 4_990, stock: 10 },
  customer: { email: "collectionneuse@example.com", password: "collection-e2e-mot-de-passe", name: "Camille Collection" },
  /** The relay point both orders go to (the default "Point relais" method, 120 g an accessory). */
  relayPoint: { name: "Tabac de la Gare", id: "020145", line1: "3 place de la Gare", postalCode: "69007", city: "Lyon" },
  /**
   * Two paid orders, the first older: 49,90 € + 3,99 € of relay delivery (up to 500 g) = 53,89 €,
   * then 2 × 49,90 € + 10,00 € of insurance = 109,80 €, the relay free from 60 € of goods.
   */
  orders: [
    { quantity: 1, insuranceSelected: false, shippingCents: 399, totalCents: 5_389 },
    { quantity: 2, insuranceSelected: true, shippingCents: 0, totalCents: 10_980 },
  ],
} as const;
