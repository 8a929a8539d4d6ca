import type { LegalIdentity } from "~/domain/shop-identity";

/** The public identity of the shop (from configuration), safe to send to the browser. */
export type ShopIdentity = {
  name: string;
  email: string;
  socials: { label: string; url: string }[];
  /** The legal identity's first values; /admin/settings may have stored others (services/shop-identity.server.ts). */
  legal: LegalIdentity;
};
