/** What tests/setup/wishlist-demand-fixtures.ts puts in the seller's demand spec's database. */
export const WISHLIST_DEMAND_FIXTURES = {
  admin: { email: "admin-demande@comptoir.test", password: "admin-demande-mot-de-passe" },
  /** Sold out, waited for by three customers' lists and a fourth address's confirmed alert; the second by one list. */
  products: [
    { title: "Display Flammes Fantasmagoriques", priceCents: 21_990, stock: 0, waiting: 4 },
    { title: "Coffret Dresseur d'élite Évolutions", priceCents: 5_990, stock: 0, waiting: 1 },
  ],
} as const;
