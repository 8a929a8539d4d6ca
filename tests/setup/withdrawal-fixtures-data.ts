/** What tests/setup/withdrawal-fixtures.ts puts in the withdrawal spec's database. */
export const WITHDRAWAL_FIXTURES = {
  product: { title: "Booster test rétractation", priceCents: 1_490, stock: 10 },
  customer: { email: "romane.retractation@example.com", password: "retractation-e2e-mot-de-passe", name: "Romane Rétractation" },
  /** A guest's paid order (two boosters), to withdraw from with the public form. */
  guestOrder: { number: "CPT-424242-0042", email: "Gaston.Invite@example.com", name: "Gaston Invité", quantity: 2, totalCents: 2_980 },
  /** A guest's shipped order of two articles (a booster and a display, plus delivery): one withdrawn, the other kept. */
  shippedGuestOrder: {
    number: "CPT-424243-0043",
    email: "lea.partielle@example.com",
    name: "Léa Partielle",
    display: { title: "Display test rétractation", priceCents: 4_990, stock: 3 },
    shippingCents: 490,
    totalCents: 1_490 + 4_990 + 490,
  },
} as const;
