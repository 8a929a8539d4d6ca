import type { Logger } from "pino";
import type { Db } from "~/db/types";
import type { Auth } from "~/lib/auth.server";
import type { ShopIdentity } from "~/lib/shop";
import type { PaymentProvider } from "~/services/payments/types";
import type { FileStore, Storage } from "~/services/storage.server";

/** What the Express server hands to every loader and action (see server/app.ts). */
export type AppContext = {
  db: Db;
  shop: ShopIdentity;
  /** Where product images are stored (admin uploads) and the URL prefix browsers use. */
  storage: Storage;
  /** Customers' private files (buy-back photos): no public URL, shown to admins by a route. */
  privateFiles: FileStore;
  publicUrl: string;
  nonce: string;
  logger: Logger;
  auth: Auth;
  /** The client's address: the socket's, or the proxy's X-Forwarded-For only when TRUST_PROXY says so. */
  clientIp: string;
  /** Tells the mail worker an e-mail was just queued (no-op without SMTP_URL). */
  kickMail: () => void;
  /** Sends one e-mail at once through the mail worker's SMTP transport (the e-mail test); null without SMTP_URL. */
  sendMailNow: SendMailNow | null;
  /** The payment provider: Stripe when configured, else the built-in test page. */
  payments: PaymentProvider;
  checkout: { orderPrefix: string; reservationMinutes: number; sellerEmail: string };
  /**
   * Signs what a drop hands out: admissions (services/waiting-room.server.ts) and alert links
   * (services/stock-alerts.server.ts); /merci's receipt cookie is signed with a key derived from it.
   */
  dropSecret: string;
  /** E_REPORTING_TOKEN: the bearer token of GET /api/e-reporting; absent, an admin session only. */
  eReportingToken?: string | null;
  /**
   * Says this answer depends on who asks (getViewer calls it): the page cache then never stores
   * it and it goes out `private, no-store`, whatever the route's headers say.
   */
  markPersonal?: () => void;
  /**
   * One object per HTTP request. React Router hands each loader its own copy of the Request, so
   * what is read once per request (the viewer) is kept against this instead.
   */
  requestScope?: object;
};

export type SendMailNow = (email: { to: string; subject: string; html: string; text: string }) => Promise<{ messageId: string }>;

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
