/** What tests/setup/checkout-fixtures.ts puts in the checkout spec's database. */
export const CHECKOUT_FIXTURES = {
  tier499: { title: "Coffret test 499,99", priceCents: 49_999, stock: 5 },
  tier500: { title: "Coffret test 500,01", priceCents: 50_001, stock: 5 },
  tier1000: { title: "Vitrine test 1 000,01", priceCents: 100_001, stock: 5 },
  buy: { title: "Booster test achat", priceCents: 1_250, stock: 10 },
  cancel: { title: "Booster test annulation", priceCents: 990, stock: 4 },
  customers: [
    { email: "acheteuse@example.com", password: "achat-e2e-mot-de-passe", name: "Alice Acheteuse" },
    { email: "autre@example.com", password: "autre-e2e-mot-de-passe", name: "Bob Autre" },
  ],
} as const;
