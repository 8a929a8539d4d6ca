import ipaddr from "ipaddr.js";
import { z } from "zod";
import { DEFAULT_LEGAL_FORM, IDENTITY_KEYS, type IdentityKey, type LegalIdentity, type LegalIdentityInput, withoutPlaceholders } from "~/domain/shop-identity";
import { legalIdentitySchema } from "~/domain/shop-identity-schema";
import type { ShopIdentity } from "./shop";

export type { ShopIdentity };

/**
 * Every setting of Comptoir, read once from the environment. All are optional: the
 * defaults give a working shop on an embedded database with no credentials.
 * Names are a contract with deployment scripts (see .env.example).
 */
// Empty values are removed before parsing (parseEnv), so "unset" is simply undefined here.
const optionalText = z.string().trim().optional();

const optionalUrl = (what: string) =>
  optionalText.pipe(z.url({ message: `${what} doit être une URL valide` }).optional());

const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { message: "valeur attendue : true ou false" })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === "true" || v === "1" || v === "yes"));

/**
 * Which hops may speak for the client in X-Forwarded-For (Express's "trust proxy"): a hop count,
 * `loopback`/`linklocal`/`uniquelocal`, or addresses and ranges, comma-separated; `false` or
 * unset: none. `true` (every hop) is refused: anyone reaching the app directly could then pick
 * the address every per-address limit counts.
 */
const TRUST_PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const trustProxy = optionalText.transform((value, ctx): false | number | string[] => {
  if (value === undefined || value === "false") return false;
  if (value === "true") {
    ctx.addIssue({
      code: "custom",
      message:
        "true ferait confiance à tout intermédiaire, et X-Forwarded-For deviendrait falsifiable par quiconque joint l'application directement : indiquez le nombre de proxys devant elle (ex. 1), loopback, ou leurs adresses (ex. 10.0.0.2, 172.16.0.0/12)",
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  const bad = entries.filter((entry) => !TRUST_PROXY_NAMES.has(entry) && !isAddressOrRange(entry));
  if (bad.length > 0) {
    ctx.addIssue({ code: "custom", message: `valeur inconnue « ${bad.join(", ")} » : un nombre de proxys, loopback, linklocal, uniquelocal ou des adresses IP (plages CIDR admises), séparées par des virgules` });
    return z.NEVER;
  }
  return entries;
});

function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split("/");
  if (rest.length > 0 || !address || !ipaddr.isValid(address)) return false;
  if (bits === undefined) return true;
  const max = ipaddr.parse(address).kind() === "ipv4" ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"], { message: "NODE_ENV doit valoir development, production ou test" }).default("production"),
  PORT: z.coerce
    .number({ message: "PORT doit être un nombre" })
    .int()
    .min(0, "PORT doit être compris entre 0 et 65535")
    .max(65535, "PORT doit être compris entre 0 et 65535")
    .default(3000),
  HOST: optionalText.default("0.0.0.0"),
  PUBLIC_URL: optionalUrl("PUBLIC_URL"),
  DATA_DIR: optionalText.default("./data"),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL doit commencer par postgres:// ou postgresql://")
      .optional(),
  ),
  AUTH_SECRET: optionalText.pipe(
    z.string().min(32, "AUTH_SECRET doit contenir au moins 32 caractères").optional(),
  ),
  ADMIN_EMAIL: optionalText.pipe(z.email({ message: "ADMIN_EMAIL doit être une adresse e-mail valide" }).optional()),
  ADMIN_PASSWORD: optionalText.pipe(
    z.string().min(8, "ADMIN_PASSWORD doit contenir au moins 8 caractères").optional(),
  ),
  SHOP_NAME: optionalText.default("Comptoir"),
  SHOP_EMAIL: optionalText.pipe(z.email({ message: "SHOP_EMAIL doit être une adresse e-mail valide" })).default("contact@comptoir.example"),
  ORDER_PREFIX: optionalText.pipe(
    z.string().regex(/^[A-Z]{2,6}$/, "ORDER_PREFIX doit contenir 2 à 6 lettres majuscules"),
  ).default("CPT"),
  SOCIAL_INSTAGRAM_URL: optionalUrl("SOCIAL_INSTAGRAM_URL").default("https://www.instagram.com/"),
  SOCIAL_TIKTOK_URL: optionalUrl("SOCIAL_TIKTOK_URL"),
  SOCIAL_WHATNOT_URL: optionalUrl("SOCIAL_WHATNOT_URL").default("https://www.whatnot.com/"),
  // The shop's legal identity: first values of /admin/settings, checked by its schema (see LEGAL_ENV).
  LEGAL_COMPANY_NAME: optionalText,
  LEGAL_FORM: optionalText.default(DEFAULT_LEGAL_FORM),
  LEGAL_SHARE_CAPITAL: optionalText,
  LEGAL_RCS_CITY: optionalText,
  LEGAL_RCS_NUMBER: optionalText,
  LEGAL_SIREN: optionalText,
  LEGAL_VAT_NUMBER: optionalText,
  LEGAL_ADDRESS: optionalText,
  /** Default: SHOP_EMAIL. */
  LEGAL_EMAIL: optionalText,
  LEGAL_PHONE: optionalText,
  LEGAL_PUBLICATION_DIRECTOR: optionalText,
  LEGAL_HOST: optionalText,
  LEGAL_HOST_ADDRESS: optionalText,
  LEGAL_HOST_PHONE: optionalText,
  LEGAL_MEDIATOR_NAME: optionalText,
  LEGAL_MEDIATOR_URL: optionalText,
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /**
   * The Stripe account has its terms of service URL set (Dashboard, Settings, Public details):
   * Checkout then asks the buyer to tick the CGV (consent_collection; decision 044). Without that
   * URL Stripe refuses the session, so it stays off unless said.
   */
  STRIPE_TERMS_OF_SERVICE: flag(false),
  /** A Stripe-compatible server instead of api.stripe.com (tests, stripe-mock). */
  STRIPE_API_BASE: optionalUrl("STRIPE_API_BASE"),
  /** Minutes a checkout holds the stock (Stripe needs at least 30). */
  CHECKOUT_RESERVATION_MINUTES: z.coerce
    .number({ message: "CHECKOUT_RESERVATION_MINUTES doit être un nombre" })
    .int("CHECKOUT_RESERVATION_MINUTES doit être un nombre entier")
    .min(30, "CHECKOUT_RESERVATION_MINUTES doit valoir au moins 30 (minimum de Stripe)")
    .max(1440, "CHECKOUT_RESERVATION_MINUTES doit valoir au plus 1440")
    .default(30),
  /** Live-update streams (/api/live) open at once, every visitor together; past it a 503 (server/live.ts). */
  LIVE_MAX_STREAMS: z.coerce
    .number({ message: "LIVE_MAX_STREAMS doit être un nombre" })
    .int("LIVE_MAX_STREAMS doit être un nombre entier")
    .min(1, "LIVE_MAX_STREAMS doit valoir au moins 1")
    .default(2_000),
  /** Seconds a live-update stream lasts at most (± 10 %), then the page reconnects by itself. */
  LIVE_STREAM_LIFETIME_SECONDS: z.coerce
    .number({ message: "LIVE_STREAM_LIFETIME_SECONDS doit être un nombre" })
    .int("LIVE_STREAM_LIFETIME_SECONDS doit être un nombre entier")
    .min(1, "LIVE_STREAM_LIFETIME_SECONDS doit valoir au moins 1")
    .max(86_400, "LIVE_STREAM_LIFETIME_SECONDS doit valoir au plus 86400 (un jour)")
    .default(900),
  SMTP_URL: optionalUrl("SMTP_URL"),
  MAIL_FROM: optionalText,
  SELLER_EMAIL: optionalText.pipe(z.email({ message: "SELLER_EMAIL doit être une adresse e-mail valide" }).optional()),
  S3_ENDPOINT: optionalUrl("S3_ENDPOINT"),
  S3_BUCKET: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_PUBLIC_URL: optionalUrl("S3_PUBLIC_URL"),
  TRUST_PROXY: trustProxy,
  /** GET /metrics with `Authorization: Bearer <token>`; without it, no metrics endpoint (server/metrics.ts). */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, "METRICS_TOKEN doit faire au moins 16 caractères").optional()),
  /**
   * GET /api/e-reporting with `Authorization: Bearer <token>`, for the seller's approved e-invoicing
   * platform (docs/decisions/053); without it, the endpoint answers an admin session only.
   */
  E_REPORTING_TOKEN: optionalText.pipe(z.string().min(32, "E_REPORTING_TOKEN doit faire au moins 32 caractères").optional()),
  /**
   * Seconds a stopping instance (SIGTERM) still answers, each answer closing its connection and
   * /readyz saying 503, before it stops accepting connections: time for a load balancer to stop
   * sending it requests.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce
    .number({ message: "SHUTDOWN_DRAIN_SECONDS doit être un nombre" })
    .min(0, "SHUTDOWN_DRAIN_SECONDS doit valoir au moins 0")
    .max(120, "SHUTDOWN_DRAIN_SECONDS doit valoir au plus 120")
    .default(1),
  /** Seconds a stopping instance then gives the requests in flight before it exits anyway. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number({ message: "SHUTDOWN_TIMEOUT_SECONDS doit être un nombre" })
    .int("SHUTDOWN_TIMEOUT_SECONDS doit être un nombre entier")
    .min(1, "SHUTDOWN_TIMEOUT_SECONDS doit valoir au moins 1")
    .max(300, "SHUTDOWN_TIMEOUT_SECONDS doit valoir au plus 300")
    .default(10),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { message: "LOG_LEVEL doit valoir fatal, error, warn, info, debug, trace ou silent" })
    .default("info"),
  SEED_SAMPLE_CATALOGUE: flag(true),
  /** The built-in test payment page on a public address: only when asked for on purpose. */
  PAYMENT_TEST_MODE: flag(false),
  /** End-to-end tests only: the token of POST /__test/clock, which moves the server's clock (server/test-clock.ts). */
  TEST_CLOCK: optionalText.pipe(z.string().min(16, { message: "TEST_CLOCK doit faire au moins 16 caractères" }).optional()),
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Configuration invalide :\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment; throws a ConfigError listing every bad variable in French. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty value means "unset" everywhere, so defaults apply (PORT= is not port 0).
  const cleaned = Object.fromEntries(
    Object.entries(source).map(([key, value]) => [key, value?.trim() === "" ? undefined : value]),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join(".") || "env"} : ${issue.message}`),
    );
  }
  const env = result.data;
  const s3Keys = ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
  const s3Set = s3Keys.filter((k) => env[k] !== undefined);
  if (s3Set.length > 0 && s3Set.length < s3Keys.length) {
    const missing = s3Keys.filter((k) => env[k] === undefined);
    throw new ConfigError([`S3 : ${missing.join(", ")} manquant(s) (toutes les variables S3_* vont ensemble)`]);
  }
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(["STRIPE_WEBHOOK_SECRET : obligatoire quand STRIPE_SECRET_KEY est défini"]);
  }
  // On a public address the built-in test page would let anyone "pay" with 4242…: a shop open to
  // the public takes real payments, or says it is a test on purpose.
  if (env.PUBLIC_URL && !isLocalAddress(env.PUBLIC_URL) && !env.STRIPE_SECRET_KEY && !env.PAYMENT_TEST_MODE) {
    throw new ConfigError([
      `PUBLIC_URL : ${new URL(env.PUBLIC_URL).host} est une adresse publique, mais aucun paiement réel n'est configuré. ` +
        "Définissez STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET, ou PAYMENT_TEST_MODE=true pour ouvrir exprès la page de paiement de test (aucun paiement réel).",
    ]);
  }
  // A moved clock would let whoever holds the token open a drop early or end a promotion: only
  // a test server, reached from this machine alone and taking no real money, runs on one.
  if (env.TEST_CLOCK && (env.STRIPE_SECRET_KEY || (env.PUBLIC_URL && !isLocalAddress(env.PUBLIC_URL)))) {
    throw new ConfigError(["TEST_CLOCK : l'horloge de test est refusée en production (adresse publique ou paiement réel configuré)."]);
  }
  legalIdentity(env);
  return env;
}

/** This machine or a loopback address: where a test payment page harms nobody. */
export function isLocalAddress(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The variable giving each field of the legal identity its first value. */
export const LEGAL_ENV = {
  companyName: "LEGAL_COMPANY_NAME",
  legalForm: "LEGAL_FORM",
  shareCapital: "LEGAL_SHARE_CAPITAL",
  rcsCity: "LEGAL_RCS_CITY",
  rcsNumber: "LEGAL_RCS_NUMBER",
  siren: "LEGAL_SIREN",
  vatNumber: "LEGAL_VAT_NUMBER",
  address: "LEGAL_ADDRESS",
  email: "LEGAL_EMAIL",
  phone: "LEGAL_PHONE",
  publicationDirector: "LEGAL_PUBLICATION_DIRECTOR",
  hostName: "LEGAL_HOST",
  hostAddress: "LEGAL_HOST_ADDRESS",
  hostPhone: "LEGAL_HOST_PHONE",
  mediatorName: "LEGAL_MEDIATOR_NAME",
  mediatorUrl: "LEGAL_MEDIATOR_URL",
} as const satisfies Record<IdentityKey, keyof Env>;

/**
 * The legal identity's first values, checked by the admin form's schema: a bad value stops the
 * start like any other; a shipped example (a copied .env.example) counts as not given.
 */
export function legalIdentity(env: Env): LegalIdentity {
  const values = Object.fromEntries(IDENTITY_KEYS.map((key) => [key, env[LEGAL_ENV[key]]])) as LegalIdentityInput;
  const result = legalIdentitySchema.safeParse(withoutPlaceholders({ ...values, email: env.LEGAL_EMAIL ?? env.SHOP_EMAIL }));
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => `${LEGAL_ENV[issue.path[0] as IdentityKey]} : ${issue.message}`));
  return result.data;
}

export function shopIdentity(env: Env): ShopIdentity {
  const socials = [
    env.SOCIAL_INSTAGRAM_URL && { label: "Instagram", url: env.SOCIAL_INSTAGRAM_URL },
    env.SOCIAL_TIKTOK_URL && { label: "TikTok", url: env.SOCIAL_TIKTOK_URL },
    env.SOCIAL_WHATNOT_URL && { label: "Whatnot", url: env.SOCIAL_WHATNOT_URL },
  ].filter((s): s is { label: string; url: string } => Boolean(s));
  return {
    name: env.SHOP_NAME,
    email: env.SHOP_EMAIL,
    socials,
    legal: legalIdentity(env),
  };
}

