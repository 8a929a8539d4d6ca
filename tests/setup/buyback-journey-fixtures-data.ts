/** The buy-back journey's collector (tests/setup/buyback-journey-fixtures.ts writes them; the spec signs in as them). */
export const BUYBACK_COLLECTOR = { email: "collection.rachat@example.com", password: "collection-mot-de-passe", name: "Léa Martin", firstName: "Léa", lastName: "Martin" };
