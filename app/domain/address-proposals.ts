/**
 * The address book's names the payment page's fields need (docs/decisions/064), apart from its
 * schemas (customer-addresses.ts): the page's components import no zod or checkout rules for them.
 */

export const ADDRESS_BOOK_KINDS = ["delivery", "billing", "relay"] as const;
export type AddressBookKind = (typeof ADDRESS_BOOK_KINDS)[number];

/** The box « Enregistrer cette adresse dans mon compte » of each address the payment page asks. */
export const SAVE_ADDRESS_FIELDS: Record<AddressBookKind, string> = { delivery: "saveDeliveryAddress", billing: "saveBillingAddress", relay: "saveRelayPoint" };

/** A saved address the payment page proposes: its one-line label and its fields, by the form's names. */
export type AddressProposal = { id: number; label: string; isDefault: boolean; values: Record<string, string> };
export type CheckoutProposals = { delivery: AddressProposal[]; billing: AddressProposal[]; relaySaved: boolean };
