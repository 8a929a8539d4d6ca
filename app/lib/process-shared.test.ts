import { describe, expect, it, vi } from "vitest";

/** Two copies of a module, as the server's two bundles hold them (decision 019). */
async function twoCopies<T>(load: () => Promise<T>): Promise<[T, T]> {
  const first = await load();
  vi.resetModules();
  const second = await load();
  return [first, second];
}

describe("what must be one per process across copies of a module", () => {
  it("recognises a payment error thrown by the other copy, and only that error", async () => {
    const [a, b] = await twoCopies(() => import("~/services/payments/types"));
    expect(b.WebhookSignatureError).not.toBe(a.WebhookSignatureError);
    expect(new b.WebhookSignatureError() instanceof a.WebhookSignatureError).toBe(true);
    expect(new b.PaymentProviderError("Stripe : 500") instanceof a.PaymentProviderError).toBe(true);
    expect(new b.PaymentProviderError("Stripe : 500") instanceof a.WebhookSignatureError).toBe(false);
    expect(new Error("Signature invalide") instanceof a.WebhookSignatureError).toBe(false);
    expect((null as unknown) instanceof a.PaymentProviderError).toBe(false);
    // Still errors, with their names.
    expect(new b.WebhookSignatureError()).toBeInstanceOf(Error);
    expect(new b.WebhookSignatureError().name).toBe("WebhookSignatureError");
  });

  it("forgets the site caches of every copy when one copy is told of a change", async () => {
    const [a, b] = await twoCopies(() => import("~/services/site-cache.server"));
    expect(b.invalidateSiteCaches).not.toBe(a.invalidateSiteCaches);
    let reads = 0;
    const cache = a.siteCache(async () => ++reads);
    const db = {} as Parameters<typeof cache.get>[0];
    expect(await cache.get(db)).toBe(1);
    expect(await cache.get(db)).toBe(1);
    b.invalidateSiteCaches();
    expect(await cache.get(db)).toBe(2);
  });
});
