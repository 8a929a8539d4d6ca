/** What tests/setup/exports-fixtures.ts puts in the accounting exports spec's database. */
export const EXPORTS_FIXTURES = {
  admin: { email: "admin-exports@comptoir.test", password: "admin-exports-mot-de-passe" },
  /** The shop's SIREN (a valid one: Luhn), saved in its settings after the orders. */
  siren: "732829320",
  /** An accessory: 20 % VAT, 120 g, sent by the default "Point relais" method. */
  product: { title: "Classeur test exports", priceCents: 4_990, stock: 10 },
  relayPoint: { name: "Tabac de la Gare", id: "020145", line1: "3 place de la Gare", postalCode: "69007", city: "Lyon" },
  /**
   * Two orders paid a few minutes ago, the second cancelled and refunded since. VAT taken out of
   * the rate's total (docs/decisions/032): 49,90 € of goods and 3,99 € of relay delivery, 53,89 €
   * at 20 %, hold a base of 44,91 € (44,9083 rounded), so 8,98 € of VAT; 99,80 € (relay free from
   * 60 €) a base of 83,17 €, so 16,63 €. The first customer's name is a formula, which the CSV
   * must neutralise.
   */
  orders: [
    { customer: '=HYPERLINK("http://evil.example","Cliquez")', quantity: 1, totalCents: 5_389, vatCents: 898, refunded: false },
    { customer: "Camille Compta", quantity: 2, totalCents: 9_980, vatCents: 1_663, refunded: true },
  ],
} as const;
