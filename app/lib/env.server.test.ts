import { describe, expect, it } from "vitest";
import { EMPTY_IDENTITY, frenchVatKey } from "~/domain/shop-identity";
import { ConfigError, LEGAL_ENV, parseEnv, shopIdentity } from "./env.server";

const S3 = {
  S3_ENDPOINT: "https://s3.example.com",
  S3_BUCKET: "pokemon-cards",
  S3_ACCESS_KEY_ID: "key",
  S3_SECRET_ACCESS_KEY: "secret",
};

function configError(source: Record<string, string | undefined>): ConfigError {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("parseEnv should have thrown");
}

describe("parseEnv", () => {
  it("gives a working default configuration", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "production",
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      SHOP_NAME: "Comptoir",
      ORDER_PREFIX: "CPT",
      LOG_LEVEL: "info",
      SEED_SAMPLE_CATALOGUE: true,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("reads given values", () => {
    const env = parseEnv({ PORT: "8080", SHOP_NAME: "  Ma Boutique  ", DATABASE_URL: "postgresql://u@h/db" });
    expect(env.PORT).toBe(8080);
    expect(env.SHOP_NAME).toBe("Ma Boutique");
    expect(env.DATABASE_URL).toBe("postgresql://u@h/db");
  });

  it("rejects a non-numeric PORT with a French message naming it", () => {
    const error = configError({ PORT: "abc" });
    expect(error.name).toBe("ConfigError");
    expect(error.message).toContain("Configuration invalide");
    expect(error.issues).toEqual(["PORT : PORT doit être un nombre"]);
  });

  it("takes an E_REPORTING_TOKEN of 32 characters or more, and refuses a shorter one", () => {
    expect(parseEnv({ E_REPORTING_TOKEN: "x".repeat(32) }).E_REPORTING_TOKEN).toBe("x".repeat(32));
    expect(parseEnv({ E_REPORTING_TOKEN: "" }).E_REPORTING_TOKEN).toBeUndefined();
    expect(configError({ E_REPORTING_TOKEN: "x".repeat(31) }).message).toContain("E_REPORTING_TOKEN doit faire au moins 32 caractères");
  });

  it("rejects an out-of-range PORT", () => {
    expect(configError({ PORT: "70000" }).message).toContain("PORT doit être compris entre 0 et 65535");
  });

  it("rejects a non-Postgres DATABASE_URL", () => {
    expect(configError({ DATABASE_URL: "mysql://x" }).message).toContain(
      "DATABASE_URL doit commencer par postgres:// ou postgresql://",
    );
  });

  it("lists every bad variable", () => {
    const error = configError({ PORT: "abc", DATABASE_URL: "mysql://x", AUTH_SECRET: "short" });
    expect(error.issues.map((issue) => issue.split(" : ")[0])).toEqual(["PORT", "DATABASE_URL", "AUTH_SECRET"]);
  });

  it("requires the S3 variables together", () => {
    expect(parseEnv(S3).S3_BUCKET).toBe("pokemon-cards");
    const error = configError({ ...S3, S3_BUCKET: undefined, S3_SECRET_ACCESS_KEY: "" });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain("S3_BUCKET, S3_SECRET_ACCESS_KEY manquant(s)");
  });

  it("requires STRIPE_WEBHOOK_SECRET with STRIPE_SECRET_KEY", () => {
    expect(configError({ STRIPE_SECRET_KEY: "sk_test_1" }).message).toContain(
      "STRIPE_WEBHOOK_SECRET : obligatoire quand STRIPE_SECRET_KEY est défini",
    );
    expect(parseEnv({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" }).STRIPE_SECRET_KEY).toBe("sk_test_1");
  });

  it("reads TRUST_PROXY as a hop count, named ranges or addresses, and refuses true with a French message naming it", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "loopback" }).TRUST_PROXY).toEqual(["loopback"]);
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.2, 172.16.0.0/12, fd00::/8" }).TRUST_PROXY).toEqual(["loopback", "10.0.0.2", "172.16.0.0/12", "fd00::/8"]);
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(/- TRUST_PROXY : true ferait confiance à tout intermédiaire/);
    for (const bad of ["yes", "10.0.0.300", "10.0.0.0/33", "localhost"]) {
      expect(() => parseEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY : valeur inconnue/);
    }
  });

  it("treats empty strings as unset", () => {
    const env = parseEnv({
      SHOP_NAME: "",
      DATA_DIR: "   ",
      DATABASE_URL: "",
      PUBLIC_URL: "",
      SOCIAL_INSTAGRAM_URL: "",
      STRIPE_SECRET_KEY: "",
      S3_ENDPOINT: "",
      SEED_SAMPLE_CATALOGUE: "",
    });
    expect(env).toMatchObject({
      SHOP_NAME: "Comptoir",
      DATA_DIR: "./data",
      SOCIAL_INSTAGRAM_URL: "https://www.instagram.com/",
      SEED_SAMPLE_CATALOGUE: true,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_URL).toBeUndefined();
    expect(env.STRIPE_SECRET_KEY).toBeUndefined();
    expect(env.S3_ENDPOINT).toBeUndefined();
  });

  // z.coerce.number would turn "" into 0 (a random port): empty values count as unset.
  it("treats an empty PORT as unset", () => {
    expect(parseEnv({ PORT: "" }).PORT).toBe(3000);
  });

  it("treats an empty ORDER_PREFIX, NODE_ENV or LOG_LEVEL as unset", () => {
    const env = parseEnv({ ORDER_PREFIX: "", NODE_ENV: "", LOG_LEVEL: " " });
    expect(env.ORDER_PREFIX).toBe("CPT");
    expect(env.NODE_ENV).toBe("production");
    expect(env.LOG_LEVEL).toBe("info");
  });

  it("explains a bad LOG_LEVEL in French", () => {
    expect(() => parseEnv({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL doit valoir/);
  });

  it.each([
    ["false", false],
    ["0", false],
    ["no", false],
    ["true", true],
    ["1", true],
    ["yes", true],
  ])("reads SEED_SAMPLE_CATALOGUE=%s as %s", (value, expected) => {
    expect(parseEnv({ SEED_SAMPLE_CATALOGUE: value }).SEED_SAMPLE_CATALOGUE).toBe(expected);
  });

  it("rejects an unreadable flag", () => {
    expect(configError({ SEED_SAMPLE_CATALOGUE: "peut-être" }).message).toContain("SEED_SAMPLE_CATALOGUE");
  });
});

describe("shopIdentity", () => {
  it("lists the default socials", () => {
    const identity = shopIdentity(parseEnv({}));
    expect(identity.name).toBe("Comptoir");
    expect(identity.email).toBe("contact@comptoir.example");
    expect(identity.socials).toEqual([
      { label: "Instagram", url: "https://www.instagram.com/" },
      { label: "Whatnot", url: "https://www.whatnot.com/" },
    ]);
    // Nothing given yet: only the SPEC.md legal form, the rest for the seller to fill in.
    expect(identity.legal).toEqual({ ...EMPTY_IDENTITY, legalForm: "SASU" });
  });

  it("lists TikTok in order when configured", () => {
    const identity = shopIdentity(
      parseEnv({ SOCIAL_TIKTOK_URL: "https://www.tiktok.com/@comptoir", SHOP_NAME: "Ma Boutique", LEGAL_SIREN: "123456782" }),
    );
    expect(identity.socials.map((s) => s.label)).toEqual(["Instagram", "TikTok", "Whatnot"]);
    expect(identity.socials[1]?.url).toBe("https://www.tiktok.com/@comptoir");
    expect(identity.name).toBe("Ma Boutique");
    expect(identity.legal.siren).toBe("123 456 782");
  });
});

describe("the legal identity's first values", () => {
  const siren = "123456782";
  const LEGAL = {
    LEGAL_COMPANY_NAME: "Comptoir des Collectionneurs",
    LEGAL_FORM: "SAS",
    LEGAL_SHARE_CAPITAL: "5000",
    LEGAL_RCS_CITY: "Lyon",
    LEGAL_RCS_NUMBER: "B 123456782",
    LEGAL_SIREN: "123456782",
    LEGAL_VAT_NUMBER: `FR ${frenchVatKey(siren)} ${siren}`,
    LEGAL_ADDRESS: "12 rue des Collectionneurs, 69002 Lyon",
    LEGAL_EMAIL: "Legal@Comptoir-Collection.fr",
    LEGAL_PHONE: "04 78 00 00 00",
    LEGAL_PUBLICATION_DIRECTOR: "Camille Martin",
    LEGAL_HOST: "Hébergeur Exemple SAS",
    LEGAL_HOST_ADDRESS: "2 rue de l'Hébergement, 59100 Roubaix",
    LEGAL_HOST_PHONE: "09 72 00 00 00",
    LEGAL_MEDIATOR_NAME: "Médiation Exemple",
    LEGAL_MEDIATOR_URL: "www.mediation-exemple.fr",
  };

  it("has one variable per field", () => {
    expect(Object.values(LEGAL_ENV).sort()).toEqual(Object.keys(LEGAL).sort());
  });

  it("reads every LEGAL_* variable, written the form's way", () => {
    expect(shopIdentity(parseEnv(LEGAL)).legal).toEqual({
      companyName: "Comptoir des Collectionneurs",
      legalForm: "SAS",
      shareCapital: "5\u202f000\u00a0€",
      rcsCity: "Lyon",
      rcsNumber: "B 123 456 782",
      siren: "123 456 782",
      vatNumber: `FR${frenchVatKey(siren)}${siren}`,
      address: "12 rue des Collectionneurs, 69002 Lyon",
      email: "legal@comptoir-collection.fr",
      phone: "04 78 00 00 00",
      publicationDirector: "Camille Martin",
      hostName: "Hébergeur Exemple SAS",
      hostAddress: "2 rue de l'Hébergement, 59100 Roubaix",
      hostPhone: "09 72 00 00 00",
      mediatorName: "Médiation Exemple",
      mediatorUrl: "https://www.mediation-exemple.fr/",
    });
  });

  it("takes SHOP_EMAIL as the legal e-mail unless LEGAL_EMAIL is set", () => {
    expect(shopIdentity(parseEnv({ SHOP_EMAIL: "bonjour@comptoir.fr" })).legal.email).toBe("bonjour@comptoir.fr");
    expect(shopIdentity(parseEnv({ SHOP_EMAIL: "bonjour@comptoir.fr", LEGAL_EMAIL: "legal@comptoir.fr" })).legal.email).toBe("legal@comptoir.fr");
  });

  it("treats the values of the first .env.example as not given", () => {
    const legal = shopIdentity(
      parseEnv({
        LEGAL_COMPANY_NAME: "Comptoir SASU",
        LEGAL_SIREN: "000 000 000",
        LEGAL_ADDRESS: "1 rue de l'Exemple, 75001 Paris, France",
        LEGAL_HOST: "Hébergeur à renseigner (LEGAL_HOST)",
      }),
    ).legal;
    expect(legal).toEqual({ ...EMPTY_IDENTITY, legalForm: "SASU" });
  });

  it("refuses to start with a bad legal value, naming its variable in French", () => {
    const error = configError({ LEGAL_SIREN: "12345", LEGAL_MEDIATOR_URL: "javascript:alert(1)" });
    expect(error.issues).toEqual([
      "LEGAL_SIREN : Le SIREN compte 9 chiffres (ex. 123 456 789)\u00a0: vérifiez-le",
      "LEGAL_MEDIATOR_URL : Adresse de site invalide (ex. https://www.mediateur.fr)",
    ]);
    expect(configError({ ...LEGAL, LEGAL_RCS_NUMBER: "542051180" }).issues).toEqual(["LEGAL_RCS_NUMBER : Le numéro RCS doit reprendre le SIREN"]);
  });

  it("stops on a public PUBLIC_URL without real payments, unless PAYMENT_TEST_MODE says it is on purpose", () => {
    const error = configError({ PUBLIC_URL: "https://boutique.example.fr" });
    expect(error.issues[0]).toMatch(/^PUBLIC_URL : boutique\.example\.fr est une adresse publique, mais aucun paiement réel n'est configuré\./);
    expect(parseEnv({ PUBLIC_URL: "https://boutique.example.fr", PAYMENT_TEST_MODE: "true" }).PAYMENT_TEST_MODE).toBe(true);
    expect(parseEnv({ PUBLIC_URL: "https://boutique.example.fr", STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }).PUBLIC_URL).toBe("https://boutique.example.fr");
    // A fresh machine (no PUBLIC_URL) and this machine's own addresses keep the test page.
    for (const url of [undefined, "http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:3000", "http://shop.localhost"]) {
      expect(parseEnv({ PUBLIC_URL: url }).PAYMENT_TEST_MODE).toBe(false);
    }
  });

  it("takes the test clock on a test server only: never on a public address or with real payments", () => {
    const token = "un-jeton-de-test-assez-long";
    expect(parseEnv({ TEST_CLOCK: token }).TEST_CLOCK).toBe(token);
    expect(parseEnv({ TEST_CLOCK: token, PUBLIC_URL: "http://127.0.0.1:3000" }).TEST_CLOCK).toBe(token);
    expect(parseEnv({}).TEST_CLOCK).toBeUndefined();
    const refused = "TEST_CLOCK : l'horloge de test est refusée en production (adresse publique ou paiement réel configuré).";
    expect(configError({ TEST_CLOCK: token, PUBLIC_URL: "https://boutique.example.fr", PAYMENT_TEST_MODE: "true" }).issues).toEqual([refused]);
    expect(configError({ TEST_CLOCK: token, STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }).issues).toEqual([refused]);
    expect(configError({ TEST_CLOCK: "court" }).issues).toEqual(["TEST_CLOCK : TEST_CLOCK doit faire au moins 16 caractères"]);
  });
});
