import { z } from "zod";
import { addressKey, folded } from "./address-key";
import { BILLING_FIELDS, type BillingFormValues, billingAddressSchema, billingAsked } from "./billing-address";
import { relayPointSchema, type RelayPoint } from "./checkout";
import { checkDeliveryAddress, deliveryAddressShape, type PaymentDelivery } from "./delivery-address-form";
import type { BillingAddress, ShippingAddress } from "./order-view";
import { ADDRESS_BOOK_KINDS, type AddressBookKind, type AddressProposal, type CheckoutProposals, SAVE_ADDRESS_FIELDS } from "./address-proposals";
import { SHIPPING_COUNTRY_CODES } from "./shipping-countries";

/**
 * A signed-in customer's address book (issue 56, point 1, docs/decisions/064): delivery addresses,
 * billing addresses and relay points. Each kind is checked by the very schema of the form where
 * the checkout asks it (the payment page's delivery and billing fields, the cart's relay point),
 * so an address saved here is one the checkout takes.
 */

export { ADDRESS_BOOK_KINDS, type AddressBookKind, type AddressProposal, type CheckoutProposals, SAVE_ADDRESS_FIELDS };

export const ADDRESS_BOOK_TITLES: Record<AddressBookKind, string> = {
  delivery: "Adresses de livraison",
  billing: "Adresses de facturation",
  relay: "Points relais",
};

/** A customer keeps a book, not an archive: past this, one is deleted before another is added. */
export const MAX_ADDRESSES_PER_KIND = 20;

const LIMIT_NOUNS: Record<AddressBookKind, [string, string]> = { delivery: ["adresses de livraison", "une"], billing: ["adresses de facturation", "une"], relay: ["points relais", "un"] };

export function addressLimitMessage(kind: AddressBookKind): string {
  const [noun, one] = LIMIT_NOUNS[kind];
  return `Vous avez déjà ${MAX_ADDRESSES_PER_KIND} ${noun} : supprimez-en ${one} pour en ajouter ${one} autre.`;
}

export const DUPLICATE_ADDRESS_MESSAGE = "Cette adresse est déjà dans votre carnet.";

export type DeliveryBookAddress = { fullName: string; line1: string; line2?: string; postalCode: string; city: string; country: string; phone: string };
export type RelayBookAddress = RelayPoint & { country: string };
export type AddressBookEntry =
  | { kind: "delivery"; address: DeliveryBookAddress }
  | { kind: "billing"; address: BillingAddress }
  | { kind: "relay"; address: RelayBookAddress };
export type AddressBookAddress = AddressBookEntry["address"];

/** A home delivery in the address's own country: the payment page's fields, whatever the country. */
const deliveryBookSchema = z.object(deliveryAddressShape({ kind: "home", country: "FR", relayPoint: null })).superRefine((value, ctx) => {
  checkDeliveryAddress(value, ctx, { kind: "home", country: value.country ?? "", relayPoint: null });
});

/** The cart's relay point, with the country it is in. */
const relayBookSchema = relayPointSchema.extend({ country: z.enum(SHIPPING_COUNTRY_CODES, { message: "Choisissez un pays de livraison" }) }).superRefine((value, ctx) => {
  if (value.country === "FR" && !/^\d{5}$/.test(value.postalCode)) ctx.addIssue({ code: "custom", path: ["postalCode"], message: "Code postal invalide (5 chiffres)" });
});

/** The form of /account/adresses for one kind: the fields, by the names the checkout's forms use. */
export const ADDRESS_BOOK_SCHEMAS = { delivery: deliveryBookSchema, billing: billingAddressSchema, relay: relayBookSchema } as const;

const optionalLine = (line: string | undefined) => (line && line.trim() ? { line2: line.trim() } : {});

/**
 * The entry a form of one kind describes, its postcode in capitals as orders keep it; the zod
 * error otherwise, for the page to show beside each field.
 */
export function parseAddressBookForm(kind: AddressBookKind, values: Record<string, unknown>): { success: true; entry: AddressBookEntry } | { success: false; error: z.ZodError } {
  if (kind === "delivery") {
    const parsed = deliveryBookSchema.safeParse(values);
    if (!parsed.success) return parsed;
    const { fullName, line1 = "", line2, postalCode = "", city = "", country = "FR", phone } = parsed.data;
    return { success: true, entry: { kind, address: { fullName, line1, ...optionalLine(line2), postalCode: postalCode.toUpperCase(), city, country, phone } } };
  }
  if (kind === "billing") {
    const parsed = billingAddressSchema.safeParse(values);
    if (!parsed.success) return parsed;
    const { line2, ...rest } = parsed.data;
    return { success: true, entry: { kind, address: { ...rest, ...optionalLine(line2), postalCode: rest.postalCode.toUpperCase() } } };
  }
  const parsed = relayBookSchema.safeParse(values);
  if (!parsed.success) return parsed;
  return { success: true, entry: { kind, address: { ...parsed.data, postalCode: parsed.data.postalCode.toUpperCase() } } };
}

/**
 * One place, one key, however it is spelled (the street folded as a drop's limit folds it,
 * domain/address-key.ts): a relay point is the carrier's identifier; an address is the place and
 * the name it goes to, so two people at one address are two entries.
 */
export function addressBookKey(entry: AddressBookEntry): string {
  if (entry.kind === "relay") {
    const { id, name, ...place } = entry.address;
    return addressKey({ method: "relay", fullName: "", relayPointId: id, relayPointName: name, ...place });
  }
  return `${addressKey({ method: "home", ...entry.address })}|${folded(entry.address.fullName)}|${folded(entry.address.line2)}`;
}

/** How an entry reads in a list or a choice: one line. */
export function addressBookLabel(entry: AddressBookEntry): string {
  const { address } = entry;
  if (entry.kind === "relay") return `${entry.address.name} (n° ${entry.address.id}), ${address.line1}, ${address.postalCode} ${address.city}`;
  const line2 = "line2" in address && address.line2 ? `, ${address.line2}` : "";
  return `${"fullName" in address ? address.fullName : ""}, ${address.line1}${line2}, ${address.postalCode} ${address.city}`;
}


/**
 * The addresses a paid order adds to its signed-in buyer's book: each one whose box was ticked,
 * and only one the buyer typed (the home address, the billing address when not « identique »,
 * the relay point chosen in the cart).
 */
export function checkoutAddressesToSave(
  form: Record<string, unknown>,
  order: { delivery: PaymentDelivery; shipping: ShippingAddress; billing: BillingAddress; business: boolean },
): AddressBookEntry[] {
  const ticked = (kind: AddressBookKind) => form[SAVE_ADDRESS_FIELDS[kind]] === "on";
  const entries: AddressBookEntry[] = [];
  const { shipping } = order;
  if (shipping.method === "home" && ticked("delivery")) {
    const { fullName, line1, line2, postalCode, city, country, phone = "" } = shipping;
    entries.push({ kind: "delivery", address: { fullName, line1, ...optionalLine(line2), postalCode, city, country, phone } });
  }
  if (shipping.method === "relay" && ticked("relay") && shipping.relayPointId) {
    const { relayPointId = "", relayPointName = "", line1, postalCode, city, country } = shipping;
    entries.push({ kind: "relay", address: { id: relayPointId, name: relayPointName, line1, postalCode, city, country } });
  }
  if (ticked("billing") && billingAsked(form as BillingFormValues, order.delivery.kind === "relay" || order.business)) {
    entries.push({ kind: "billing", address: order.billing });
  }
  return entries;
}

type SavedEntry = AddressBookEntry & { id: number; isDefault: boolean };

/**
 * What the payment page proposes to a signed-in buyer, the default first: the delivery addresses in
 * the country the delivery was priced for in the cart (another would change its price), the
 * billing addresses (in the company's country for an "Achat professionnel"), and whether the relay
 * point chosen in the cart is already in the book (its box is then not offered).
 */
export function checkoutProposals(book: SavedEntry[], delivery: PaymentDelivery, businessCountry: string | null): CheckoutProposals {
  const proposal = (entry: SavedEntry, values: Record<string, string>): AddressProposal => ({ id: entry.id, label: addressBookLabel(entry), isDefault: entry.isDefault, values });
  const ordered = [...book].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  const relay = delivery.kind === "relay" && delivery.relayPoint ? delivery.relayPoint : null;
  const relayKey = relay
    ? addressBookKey({ kind: "relay", address: { id: relay.relayPointId ?? "", name: relay.relayPointName ?? "", line1: relay.line1, postalCode: relay.postalCode, city: relay.city, country: relay.country } })
    : null;
  return {
    delivery:
      delivery.kind === "home"
        ? ordered.flatMap((entry) => (entry.kind === "delivery" && entry.address.country === delivery.country ? [proposal(entry, { line2: "", ...entry.address })] : []))
        : [],
    billing: ordered.flatMap((entry) =>
      entry.kind === "billing" && (businessCountry === null || entry.address.country === businessCountry)
        ? [proposal(entry, Object.fromEntries(Object.entries(BILLING_FIELDS).map(([part, field]) => [field, (entry.address as Record<string, string>)[part] ?? ""])))]
        : [],
    ),
    relaySaved: relayKey !== null && ordered.some((entry) => entry.kind === "relay" && addressBookKey(entry) === relayKey),
  };
}

/** A relay point of the book, as the cart proposes it (its fields are the cart's own). */
export type SavedRelayPoint = RelayBookAddress & { isDefault: boolean };
