import { useSyncExternalStore } from "react";
import type { RelayPoint } from "~/domain/checkout";
import { CART_DELIVERY_KEY } from "~/domain/browser-storage";
import { storedValue } from "./stored-value";

/**
 * The delivery chosen in the cart (its own localStorage key beside the cart's, whose format is
 * SPEC.md's): country, method and, for a relay point, the point. The server prices it again at
 * checkout and refuses a method that no longer fits.
 */
export type StoredDelivery = { country: string; methodId: number | null; relayPoint: Partial<RelayPoint> };

const DEFAULT: StoredDelivery = { country: "FR", methodId: null, relayPoint: {} };

function parse(raw: string | null): StoredDelivery {
  if (!raw) return DEFAULT;
  try {
    const value = JSON.parse(raw) as Partial<StoredDelivery>;
    const relay = value.relayPoint && typeof value.relayPoint === "object" ? value.relayPoint : {};
    const texts = Object.fromEntries(Object.entries(relay).filter(([, v]) => typeof v === "string")) as Partial<RelayPoint>;
    return {
      country: typeof value.country === "string" && /^[A-Z]{2}$/.test(value.country) ? value.country : "FR",
      methodId: typeof value.methodId === "number" && Number.isInteger(value.methodId) ? value.methodId : null,
      relayPoint: texts,
    };
  } catch {
    return DEFAULT;
  }
}

const delivery = storedValue(CART_DELIVERY_KEY, parse, DEFAULT);

export const getDelivery = (): StoredDelivery => delivery.read();

export function useDelivery(): StoredDelivery {
  return delivery.use();
}

export function chooseDelivery(change: Partial<StoredDelivery>) {
  delivery.write({ ...delivery.read(), ...change });
}

/*
 * The relay point's field errors from the last checkout attempt (the shared zod schema's, or the
 * server's): in memory only, for the delivery fields to show under each input.
 */
let errors: Record<string, string> = {};
const errorListeners = new Set<() => void>();

export function setDeliveryErrors(next: Record<string, string>) {
  errors = next;
  errorListeners.forEach((listener) => listener());
}

export function useDeliveryErrors(): Record<string, string> {
  return useSyncExternalStore(
    (listener) => {
      errorListeners.add(listener);
      return () => errorListeners.delete(listener);
    },
    () => errors,
    () => errors,
  );
}
