/** Where the shop ships: France first, then the other EU countries (ISO 3166-1 alpha-2). */
export const SHIPPING_COUNTRIES = [
  ["FR", "France"],
  ["DE", "Allemagne"],
  ["AT", "Autriche"],
  ["BE", "Belgique"],
  ["BG", "Bulgarie"],
  ["CY", "Chypre"],
  ["HR", "Croatie"],
  ["DK", "Danemark"],
  ["ES", "Espagne"],
  ["EE", "Estonie"],
  ["FI", "Finlande"],
  ["GR", "Grèce"],
  ["HU", "Hongrie"],
  ["IE", "Irlande"],
  ["IT", "Italie"],
  ["LV", "Lettonie"],
  ["LT", "Lituanie"],
  ["LU", "Luxembourg"],
  ["MT", "Malte"],
  ["NL", "Pays-Bas"],
  ["PL", "Pologne"],
  ["PT", "Portugal"],
  ["CZ", "Tchéquie"],
  ["RO", "Roumanie"],
  ["SK", "Slovaquie"],
  ["SI", "Slovénie"],
  ["SE", "Suède"],
] as const;

export type ShippingCountry = (typeof SHIPPING_COUNTRIES)[number][0];
export const SHIPPING_COUNTRY_CODES = SHIPPING_COUNTRIES.map(([code]) => code) as [ShippingCountry, ...ShippingCountry[]];

export function countryName(code: string): string {
  return SHIPPING_COUNTRIES.find(([c]) => c === code)?.[1] ?? code;
}
