import pino from "pino";
import type { Database } from "~/db/client.server";
import { createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";

/** better-auth as a route test needs it: the shop at `baseUrl`, a fixed secret, no e-mail sent. */
export function testAuth(db: Database["db"], baseUrl: string) {
  return createAuth({
    db,
    secret: "un-secret-de-test-assez-long-pour-better-auth-0123456789",
    baseUrl,
    mail: { verification: async () => {}, passwordReset: async () => {}, existingAccount: async () => {} },
  });
}

/**
 * What a checkout route reads from its context in a test: the shop (its legal identity filled in)
 * at `publicUrl`, silent logs, one client address, the CPT order prefix; `extra` adds the rest
 * (payments, auth…) or replaces a part.
 */
export function checkoutRouteContext(db: Database["db"], publicUrl: string, extra: Partial<AppContext> = {}): AppContext {
  return {
    db,
    shop: { name: "Comptoir", email: "contact@comptoir.example", socials: [], legal: { companyName: "Comptoir des Cartes", address: "12 rue des Lilas, 69001 Lyon" } },
    publicUrl,
    nonce: "",
    logger: pino({ level: "silent" }),
    clientIp: "203.0.113.1",
    kickMail: () => {},
    checkout: { orderPrefix: "CPT", reservationMinutes: 30, sellerEmail: "vendeur@comptoir.example" },
    ...extra,
  } as unknown as AppContext;
}
