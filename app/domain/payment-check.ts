/**
 * What a provider says was paid against what the order asks: a paid event for another amount or
 * currency (a session tampered with, an order changed after its session was made) is not
 * fulfilled. Null when it matches, or when the provider did not say (the order's own figures
 * then stand). The shop sells in euros only.
 */
export type PaymentMismatch = { expectedCents: number; receivedCents: number | null; currency: string | null };

export function paymentMismatch(order: { totalCents: number }, paid: { amountTotalCents: number | null; currency?: string | null }): PaymentMismatch | null {
  const currency = paid.currency?.toLowerCase() ?? null;
  const wrongAmount = paid.amountTotalCents !== null && paid.amountTotalCents !== order.totalCents;
  const wrongCurrency = currency !== null && currency !== "eur";
  if (!wrongAmount && !wrongCurrency) return null;
  return { expectedCents: order.totalCents, receivedCents: paid.amountTotalCents, currency };
}
