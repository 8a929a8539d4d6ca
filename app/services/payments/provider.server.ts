import type { Db } from "~/db/types";
import type { Env } from "~/lib/env.server";
import { resolveStoredSecret } from "~/lib/secrets.server";
import { createTestProvider } from "./test-provider.server";
import type { PaymentProvider } from "./types";

/** Stripe Checkout when STRIPE_SECRET_KEY is set, else the built-in test page. */
export async function createPaymentProvider(env: Env, db: Db, dataDir: string): Promise<PaymentProvider> {
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) {
    // The Stripe SDK (about 0.25 s of CPU to load) only when it is used.
    const { createStripeProvider } = await import("./stripe.server");
    return createStripeProvider({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiBase: env.STRIPE_API_BASE, termsOfService: env.STRIPE_TERMS_OF_SERVICE });
  }
  // Signs the test provider's webhooks; generated once and kept in DATA_DIR.
  return createTestProvider({ db, secret: resolveStoredSecret("payment-test-secret", undefined, dataDir) });
}
