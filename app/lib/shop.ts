/** The public identity of the shop (from configuration), safe to send to the browser. */
export type ShopIdentity = {
  name: string;
  email: string;
  socials: { label: string; url: string }[];
  legal: { companyName: string; siren: string; address: string; host: string };
};
