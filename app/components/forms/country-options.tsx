import { SHIPPING_COUNTRIES } from "~/domain/shipping-countries";

/** The `<option>`s of every country select (delivery, billing, a company's country): the countries the shop ships to. */
export function CountryOptions() {
  return SHIPPING_COUNTRIES.map(([code, name]) => (
    <option key={code} value={code}>
      {name}
    </option>
  ));
}
