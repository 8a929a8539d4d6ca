import { useSyncExternalStore } from "react";
import type { BusinessPurchaseInput } from "~/domain/business-purchase";

/**
 * The cart's "Achat professionnel": whether it is ticked, the company's fields as typed and the
 * errors the checkout found in them (its schema, or the server's answer), keyed as the server
 * names them ("business.siren"). Kept in memory only.
 */
export type BusinessPurchaseState = { selected: boolean; values: BusinessPurchaseInput; errors: Record<string, string> };

/** The id of each field of the form, where the checkout puts the focus on an error. */
export const businessFieldId = (key: keyof BusinessPurchaseInput) => `business-${key}`;

let state: BusinessPurchaseState = { selected: false, values: { companyName: "", siren: "", vatNumber: "", country: "" }, errors: {} };
const serverState = state;
const listeners = new Set<() => void>();

function update(next: Partial<BusinessPurchaseState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export function getBusinessPurchase(): BusinessPurchaseState {
  return state;
}

/** Ticked: the fields open, filled with `defaults` (the company of the customer's last professional order, the delivery's country) where still empty. */
export function selectBusinessPurchase(selected: boolean, defaults: Partial<BusinessPurchaseInput> = {}) {
  const values = { ...state.values };
  for (const [key, value] of Object.entries(defaults) as [keyof BusinessPurchaseInput, string][]) if (!values[key] && value) values[key] = value;
  update({ selected, values, errors: {} });
}

/** A field typed again: its error goes (the checkout checks it again). */
export function setBusinessValue(key: keyof BusinessPurchaseInput, value: string) {
  const errors = Object.fromEntries(Object.entries(state.errors).filter(([field]) => field !== `business.${key}`));
  update({ values: { ...state.values, [key]: value }, errors });
}

export function setBusinessErrors(errors: Record<string, string>) {
  update({ errors });
}

export function useBusinessPurchase(): BusinessPurchaseState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => serverState,
  );
}
