/** What tests/setup/invoice-fixtures.ts puts in the delivery, VAT and invoice spec's database. */
export const INVOICE_FIXTURES = {
  /** The seller's identity as /admin/settings stores it (legalIdentitySchema's forms): the invoice and the confirmation name it. */
  identity: {
    companyName: "Comptoir des Collectionneurs",
    legalForm: "SASU",
    shareCapital: "2\u202f500\u00a0€",
    rcsCity: "Lyon",
    rcsNumber: "123 456 782",
    siren: "123 456 782",
    vatNumber: "FR11123456782",
    address: "12 rue des Collectionneurs, 69002 Lyon",
    email: "bonjour@comptoir-collection.fr",
    phone: "04 78 00 00 00",
    publicationDirector: "Camille Martin",
    hostName: "Hébergeur Exemple SAS",
    hostPhone: "09 72 00 00 00",
    hostAddress: "2 rue de l'Hébergement, 59100 Roubaix",
    mediatorName: "Médiation Exemple",
    mediatorUrl: "https://www.mediation-exemple.fr/",
  },
} as const;
