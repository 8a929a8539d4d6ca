import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { products } from "~/db/schema";
import { ensureBuild, runServerExpectingFailure, startServer, suiteDataDir } from "./server-process";
import { serverDataDir } from "./test-database";
import { runsOn } from "../support/by-design";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(() => ensureBuild(), 120_000);

async function countProducts(options: Parameters<typeof openDatabase>[0]) {
  const database = await openDatabase(options);
  try {
    const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(products);
    return { n: row!.n, database };
  } catch (error) {
    await database.close();
    throw error;
  }
}

describe.skipIf(onPostgres)("the server on its embedded database (PGlite in DATA_DIR)", runsOn("PGlite"), () => {
  const dataDir = suiteDataDir("comptoir-boot-");
  // The configuration is refused before the server touches its DATA_DIR: those tests run beside
  // the first start, on a directory of their own.
  const refusedDir = suiteDataDir("comptoir-boot-refused-");

  it.concurrent("migrates, seeds, prints the admin login once, and serves products in the server HTML", async ({ expect }) => {
    const server = await startServer({ DATA_DIR: dataDir, ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
    try {
      expect(server.output()).toContain("Compte administrateur : admin@comptoir.local");
      expect(server.output()).toMatch(/Mot de passe \(affiché une seule fois\) : \S{16}/);
      const html = await (await fetch(server.url)).text();
      expect(html).toContain("Dracaufeu Holo – Set de Base");
      expect(html).toContain("Pikachu VMAX – Épée et Bouclier");
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok", database: "pglite" });
      // Idle connections stay open longer than a load balancer's: no reset when one is reused.
      expect(health.headers.get("keep-alive")).toBe("timeout=65");

      // A second process on the same directory is refused with a clear message.
      const second = await runServerExpectingFailure({ DATA_DIR: dataDir });
      expect(second.code).toBe(1);
      expect(second.output).toContain("est déjà ouverte par le processus");
    } finally {
      expect(await server.stop()).toBe(0); // graceful shutdown on SIGTERM
    }
  });

  it.concurrent("refuses a bad configuration value with a clear message", async ({ expect }) => {
    const result = await runServerExpectingFailure({ DATA_DIR: refusedDir, PORT: "abc" });
    expect(result.code).toBe(1);
    expect(result.output).toContain("Configuration invalide");
    expect(result.output).toContain("PORT");
  });

  it.concurrent("stops on a public PUBLIC_URL without Stripe keys, saying how to take real payments or to test on purpose", async ({ expect }) => {
    // (PAYMENT_TEST_MODE=true lets it start: app/lib/env.server.test.ts; the first test above is a fresh machine's start.)
    const refused = await runServerExpectingFailure({ DATA_DIR: refusedDir, PUBLIC_URL: "https://boutique.example.fr", STRIPE_SECRET_KEY: "", PAYMENT_TEST_MODE: "" });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("boutique.example.fr est une adresse publique, mais aucun paiement réel n'est configuré");
    expect(refused.output).toContain("PAYMENT_TEST_MODE=true");
  });

  // After the first start (the group above), on its directory.
  it("keeps data across restarts and does not seed again", async () => {
    const { n, database } = await countProducts({ kind: "pglite", dataDir });
    expect(n).toBe(18);
    await database.db.delete(products).where(sql`${products.title} = 'Booster Fusion Strike'`);
    await database.close();

    const server = await startServer({ DATA_DIR: dataDir });
    try {
      expect(server.output()).not.toContain("Mot de passe");
      const html = await (await fetch(server.url)).text();
      expect(html).toContain("Dracaufeu Holo – Set de Base");
    } finally {
      await server.stop();
    }
    const after = await countProducts({ kind: "pglite", dataDir });
    expect(after.n).toBe(17);
    await after.database.close();
  });

});

describe.skipIf(!onPostgres)("the server on PostgreSQL (DATABASE_URL)", runsOn("PostgreSQL"), () => {
  const name = `comptoir_boot_${randomBytes(5).toString("hex")}`;
  let url = "";
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(process.env.TEST_DATABASE_URL!);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it("runs the same migrations and seed, serves the products, and does not re-seed on restart", async () => {
    // A DATA_DIR with the sample images already drawn (a copy of the run's template; its PGlite
    // goes unused): drawing them is the embedded suite's first start, this one is about the database.
    const dataDir = await serverDataDir("comptoir-boot-pg-");
    try {
      for (const round of [1, 2]) {
        const server = await startServer({ DATABASE_URL: url, DATA_DIR: dataDir });
        try {
          expect(server.output()).toContain("Base de données : PostgreSQL");
          const html = await (await fetch(server.url)).text();
          expect(html).toContain("Dracaufeu Holo – Set de Base");
          expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok", database: "postgres" });
          if (round === 2) expect(server.output()).not.toContain("Mot de passe");
        } finally {
          await server.stop();
        }
      }
      const { n, database } = await countProducts({ kind: "postgres", url });
      await database.close();
      expect(n).toBe(18);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
