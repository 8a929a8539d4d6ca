/** The store-credit spec's customer (tests/setup/store-credit-fixtures.ts writes them; the spec signs in as them). */
export const STORE_CREDIT_CUSTOMER = { email: "avoir@comptoir.test", password: "avoir-mot-de-passe-client", name: "Camille Avoir" };

/** A product the credit covers with its home delivery (the spec pays it by credit alone, decision 060). */
export const STORE_CREDIT_PRODUCT = { title: "Classeur à cartes Avoir", priceCents: 19_90, stock: 4 };
