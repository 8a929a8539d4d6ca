/** The store-credit spec's customer (tests/setup/store-credit-fixtures.ts writes them; the spec signs in as them). */
export const STORE_CREDIT_CUSTOMER = { email: "avoir@comptoir.test", password: "avoir-mot-de-passe-client", name: "Camille Avoir" };
