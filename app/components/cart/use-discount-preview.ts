import { useCallback, useEffect, useMemo, useRef } from "react";
import { useFetcher } from "react-router";
import type { Cart } from "~/domain/cart";
import { normaliseDiscountCode } from "~/domain/discount-code";
import type { DiscountPreview } from "~/domain/discounts";
import { applyDiscountCode, refuseDiscountCode, useDiscountCode } from "~/lib/cart-store";

/** What the summary shows of the applied code: the server's figures, or "being computed". */
export type DiscountLine = { code: string; pending: boolean; figures: Extract<DiscountPreview, { ok: true }> | null };

/**
 * The cart's discount code, priced by the server: "Appliquer" asks the cart route's action for
 * the cart as it is (ids and quantities; the server reads the prices and decides), and so does
 * every change of the cart while a code is applied. An accepted code is kept with the cart; a
 * refused one is taken off with its reason (cart-store), for the field to show.
 */
export function useDiscountPreview(cart: Cart) {
  const { code, refusal } = useDiscountCode();
  const fetcher = useFetcher<DiscountPreview>();
  const send = fetcher.submit;
  const handled = useRef<DiscountPreview | null>(null);
  const items = useMemo(() => cart.items.map((line) => ({ productId: line.product.id, quantity: line.quantity })), [cart.items]);
  const insuranceSelected = cart.insuranceSelected;
  const cartKey = useMemo(() => JSON.stringify([items, insuranceSelected]), [items, insuranceSelected]);
  // What the last question was about (code and cart): asked once per change.
  const asked = useRef<string | null>(null);

  const apply = useCallback(
    (typed: string) => {
      asked.current = `${normaliseDiscountCode(typed)}|${cartKey}`;
      // The answer changes nothing the page's loaders show: no revalidation.
      void send({ code: typed, items, insuranceSelected }, { method: "post", action: "/cart", encType: "application/json", defaultShouldRevalidate: false });
    },
    [send, items, insuranceSelected, cartKey],
  );

  // The cart changed under an applied code: its discount is asked again (the submission starts
  // right after this render, so the old figures show for one frame at most, dimmed after).
  useEffect(() => {
    if (code && items.length > 0 && asked.current !== `${code}|${cartKey}`) apply(code);
  }, [code, items.length, cartKey, apply]);

  // Each answer is read once: kept, or taken off with its reason.
  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || answer === handled.current) return;
    handled.current = answer;
    if (answer.ok) applyDiscountCode(answer.code);
    else refuseDiscountCode({ code: answer.code, message: answer.error, fromCheckout: false, reason: answer.reason });
  }, [fetcher.state, fetcher.data]);

  // A code refused because the cart was under its minimum is asked again as the cart changes:
  // its message keeps saying what is missing, and it applies once the cart reaches it.
  useEffect(() => {
    if (!code && refusal?.reason === "minimum" && items.length > 0 && asked.current !== `${normaliseDiscountCode(refusal.code)}|${cartKey}`) apply(refusal.code);
  }, [code, refusal, items.length, cartKey, apply]);

  const checking = fetcher.state !== "idle";
  const answer = fetcher.data;
  const line: DiscountLine | null = code
    ? { code, figures: answer?.ok && answer.code === code ? answer : null, pending: checking }
    : null;
  return { code, refusal, line, checking, apply };
}
