import { z } from "zod";
import { type FrenchVatRateBp, VAT_RATES_BP } from "./vat";
import { formatVatRate } from "./vat-allocation";

/**
 * The seller's chart of accounts for the FEC (docs/decisions/052): which account each kind of
 * amount goes to. Defaults follow the Plan comptable général (411 clients, 707 ventes de
 * marchandises, 7085 ports et frais accessoires facturés, 44571 TVA collectée, 512 banque, 467
 * autres comptes débiteurs ou créditeurs for the money Stripe holds before it pays out); the seller's
 * accountant maps them to the sub-accounts of the firm's file.
 */
export type FecAccounts = {
  customers: string;
  /** Goods sold at each French rate. */
  sales: Record<FrenchVatRateBp, string>;
  /** The VAT collected at each French rate (one account for all, or a sub-account per rate). */
  vat: Record<FrenchVatRateBp, string>;
  /** Delivery and the "Remise contre signature" option. */
  delivery: string;
  /** Second-hand goods under the margin scheme (CGI art. 297 A), TTC. */
  marginSales: string;
  /** Sales under the franchise en base (CGI art. 293 B): no VAT. */
  franchiseSales: string;
  /** Distance sales taxed in the buyer's member state (OSS, docs/decisions/046), and their VAT. */
  ossSales: string;
  ossVat: string;
  /** Exempt intra-EU supplies to businesses of another member state (CGI art. 262 ter I, docs/decisions/054): no VAT. */
  intraEuSales: string;
  /** Card payments through Stripe, until its payout reaches the bank. */
  stripe: string;
  /** The test payment provider's payments (a shop not yet live): the bank. */
  bank: string;
  /** Store credit (issue 54): a debt of the shop to its customers, not a sale (« Clients – avances et acomptes reçus »). */
  storeCredit: string;
};

export const DEFAULT_FEC_ACCOUNTS: FecAccounts = {
  customers: "411",
  sales: { 2000: "7071", 550: "7072", 1000: "7074", 210: "7075" },
  vat: { 2000: "44571", 1000: "44571", 550: "44571", 210: "44571" },
  delivery: "7085",
  marginSales: "7073",
  franchiseSales: "7070",
  ossSales: "7076",
  ossVat: "44572",
  intraEuSales: "7077",
  stripe: "467",
  bank: "512",
  storeCredit: "4191",
};

/** The account families a FEC line belongs to: their label, and the class an account number must start with. */
const FAMILIES = {
  customers: { label: "Clients", prefixes: ["411"], rule: "commence par 411" },
  sales: { label: "Ventes de marchandises", prefixes: ["70"], rule: "commence par 70" },
  vat: { label: "TVA collectée", prefixes: ["4457"], rule: "commence par 4457" },
  payment: { label: "Encaissements", prefixes: ["46", "5"], rule: "commence par 46 ou 5" },
  advances: { label: "Clients – avances et acomptes reçus", prefixes: ["419"], rule: "commence par 419" },
} as const;
type Family = keyof typeof FAMILIES;

/** One account of the mapping: its form field, the family it belongs to and its own label. */
export type FecAccountRole = { field: string; family: Family; label: string; get: (accounts: FecAccounts) => string };

export const FEC_ACCOUNT_ROLES: FecAccountRole[] = [
  { field: "customers", family: "customers", label: "Clients", get: (a) => a.customers },
  ...VAT_RATES_BP.map((rate): FecAccountRole => ({ field: `sales${rate}`, family: "sales", label: `Ventes de marchandises TVA ${formatVatRate(rate)}`, get: (a) => a.sales[rate] })),
  ...VAT_RATES_BP.map((rate): FecAccountRole => ({ field: `vat${rate}`, family: "vat", label: `TVA collectée ${formatVatRate(rate)}`, get: (a) => a.vat[rate] })),
  { field: "delivery", family: "sales", label: "Ports et frais accessoires facturés", get: (a) => a.delivery },
  { field: "marginSales", family: "sales", label: "Ventes de biens d'occasion (régime de la marge)", get: (a) => a.marginSales },
  { field: "franchiseSales", family: "sales", label: "Ventes en franchise en base de TVA", get: (a) => a.franchiseSales },
  { field: "ossSales", family: "sales", label: "Ventes à distance UE (guichet unique OSS)", get: (a) => a.ossSales },
  { field: "ossVat", family: "vat", label: "TVA collectée OSS (autres États membres)", get: (a) => a.ossVat },
  { field: "intraEuSales", family: "sales", label: "Ventes de marchandises – livraisons intracommunautaires", get: (a) => a.intraEuSales },
  { field: "stripe", family: "payment", label: "Stripe (paiements à recevoir)", get: (a) => a.stripe },
  { field: "bank", family: "payment", label: "Banque", get: (a) => a.bank },
  { field: "storeCredit", family: "advances", label: "Avoirs clients (avances et acomptes reçus)", get: (a) => a.storeCredit },
];

/**
 * Each account's label (CompteLib): its role's, or its family's when the seller gave one account
 * several roles (all rates' VAT on 44571): a number carries one label throughout the file.
 */
export function accountLabels(accounts: FecAccounts): Map<string, string> {
  const roles = new Map<string, FecAccountRole[]>();
  for (const role of FEC_ACCOUNT_ROLES) roles.set(role.get(accounts), [...(roles.get(role.get(accounts)) ?? []), role]);
  return new Map([...roles].map(([number, shared]) => [number, shared.length === 1 ? shared[0]!.label : FAMILIES[shared[0]!.family].label]));
}

function accountField(family: Family) {
  const { prefixes, rule } = FAMILIES[family];
  const message = `Numéro de compte invalide : des chiffres seulement (3 à 12), qui ${rule}.`;
  return z
    .string({ error: message })
    .trim()
    .regex(/^\d{3,12}$/, message)
    .refine((value) => prefixes.some((prefix) => value.startsWith(prefix)), message);
}

/** The form of /admin/exports (its field names are FEC_ACCOUNT_ROLES' `field`), checked the same on the server. */
export const fecAccountsSchema = z
  .object(Object.fromEntries(FEC_ACCOUNT_ROLES.map((role) => [role.field, accountField(role.family)])) as Record<string, ReturnType<typeof accountField>>)
  .transform(
    (form): FecAccounts => ({
      customers: form.customers!,
      sales: Object.fromEntries(VAT_RATES_BP.map((rate) => [rate, form[`sales${rate}`]!])) as FecAccounts["sales"],
      vat: Object.fromEntries(VAT_RATES_BP.map((rate) => [rate, form[`vat${rate}`]!])) as FecAccounts["vat"],
      delivery: form.delivery!,
      marginSales: form.marginSales!,
      franchiseSales: form.franchiseSales!,
      ossSales: form.ossSales!,
      ossVat: form.ossVat!,
      intraEuSales: form.intraEuSales!,
      stripe: form.stripe!,
      bank: form.bank!,
      storeCredit: form.storeCredit!,
    }),
  );

/**
 * The stored mapping (kept as the form's fields), field by field over the defaults: a field added
 * later, or one that no longer passes the rules, takes its default.
 */
export function resolveFecAccounts(stored: unknown): FecAccounts {
  const saved = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const form = Object.fromEntries(
    FEC_ACCOUNT_ROLES.map((role) => {
      const value = saved[role.field];
      return [role.field, typeof value === "string" && accountField(role.family).safeParse(value).success ? value : role.get(DEFAULT_FEC_ACCOUNTS)];
    }),
  );
  return fecAccountsSchema.parse(form);
}

/** The mapping as the form's fields. */
export function fecAccountsForm(accounts: FecAccounts): Record<string, string> {
  return Object.fromEntries(FEC_ACCOUNT_ROLES.map((role) => [role.field, role.get(accounts)]));
}
