/** What tests/setup/exports-fixtures.ts puts in the accounting exports spec's database. */
export const EXPORTS_FIXTURES = {
  admin: { email: "admin-exports@comptoir.test", password: "admin-exports-mot-de-passe" },
  /** An accessory: 20 % VAT, 120 g, sent by the default "Point relais" method. */
  product: { title: "Classeur test exports", priceCents: 4_990, stock: 10 },
  relayPoint: { name: "Tabac de la Gare", id: "020145", line1: "3 place de la Gare", postalCode: "69007", city: "Lyon" },
  /**
   * Two orders paid a few minutes ago, the second cancelled and refunded since. VAT taken out of
   * each line (docs/decisions/032): 49,90 € of goods hold 8,32 € and 3,99 € of relay delivery
   * 0,67 € (0,665 rounded); 99,80 € (relay free from 60 €) hold 16,63 €. The first customer's
   * name is a formula, which the CSV must neutralise.
   */
  orders: [
    { customer: '=HYPERLINK("http://evil.example","Cliquez")', quantity: 1, totalCents: 5_389, vatCents: 899, refunded: false },
    { customer: "Camille Compta", quantity: 2, totalCents: 9_980, vatCents: 1_663, refunded: true },
  ],
} as const;
