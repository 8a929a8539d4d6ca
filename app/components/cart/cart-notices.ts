import { toast } from "~/components/ui/toaster";
import { type CartChange, describeCartChanges } from "~/domain/cart";
import { refreshCartFromServer } from "~/lib/cart-store";

/** Says what a refresh changed in the cart (a toast), if anything; returns whether it did. */
export function announceCartChanges(changes: CartChange[] | null, suffix?: string): boolean {
  const message = describeCartChanges(changes ?? []);
  if (!message) return false;
  toast.info(message.title, { description: suffix ? `${message.description} ${suffix}` : message.description, duration: 8_000 });
  return true;
}

/** Checks the cart against the server (prices, stock, visibility now) and says what changed. */
export async function refreshCartAndAnnounce(): Promise<CartChange[] | null> {
  const changes = await refreshCartFromServer();
  announceCartChanges(changes);
  return changes;
}
