import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";
import { orders, products } from "~/db/schema";
import { productPath } from "~/domain/product-url";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, serverDataDir, suiteServerDatabase } from "./test-database";

/**
 * What a load balancer and an operator see of an instance (issue 40, points 2 and 3), against
 * the built server: /healthz and /readyz, /metrics behind its token with the shop's figures,
 * and a SIGTERM in the middle of traffic that loses no request that had started and no
 * reservation.
 */
const TOKEN = "jeton-des-metriques-0123456789";
const STOCK = 200;

describe(`operations endpoints and shutdown on ${databaseLabel}`, () => {
  const database = suiteServerDatabase("comptoir_operations");
  let dataDir = "";
  let server: RunningServer;
  let productId = 0;
  /** The product's page, "/product/<id>-<slug>". */
  let productPage = "";
  let exitCode: number | null | undefined;

  const open = (): Promise<Database> => (database.DATABASE_URL ? openDatabase({ kind: "postgres", url: database.DATABASE_URL, poolSize: 1 }) : openDatabase({ kind: "pglite", dataDir }));

  async function seed() {
    const handle = await open();
    try {
      const [product] = await handle.db.insert(products).values({ title: "Booster opérations", priceCents: 599, stock: STOCK, category: "TCG", subCategory: "Scellés" }).returning();
      productId = product!.id;
      productPage = productPath({ id: product!.id, name: product!.title });
    } finally {
      await handle.close();
    }
  }

  beforeAll(async () => {
    ensureBuild();
    dataDir = await serverDataDir("comptoir-operations-");
    if (!database.DATABASE_URL) await seed();
    // Each request says which client it is (behind a proxy): the checkouts' per-address limit stays out of the way.
    server = await startServer({ DATA_DIR: dataDir, ...database, METRICS_TOKEN: TOKEN, TRUST_PROXY: "loopback", SHUTDOWN_DRAIN_SECONDS: "1" });
    if (database.DATABASE_URL) await seed();
  }, 120_000);

  afterAll(async () => {
    if (exitCode === undefined) await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  let client = 0;
  const checkout = () =>
    fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": `198.51.100.${++client % 250}` },
      body: JSON.stringify({ items: [{ productId, quantity: 1 }], insuranceSelected: false }),
    });
  const metricsText = async () => (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  /** A sample's value in Prometheus' text format, or undefined when the series is absent. */
  const sample = (text: string, series: string) => {
    const line = text.split("\n").find((row) => row.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it("answers /healthz while the process lives and /readyz once the database, its migrations and the storage are ready", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", database: database.DATABASE_URL ? "postgres" : "pglite" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", storage: "ok" } });
  });

  it("keeps /metrics from strangers and shows requests, latency, page cache, checkouts, reservations, outbox, streams and event-loop lag", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer devine-0123456789-abcdefgh" } })).status).toBe(401);

    for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/`)).text();
    await (await fetch(`${server.url}${productPage}`)).text();
    const bought = await checkout();
    expect(bought.status).toBe(200);
    await bought.text();
    const live = await fetch(`${server.url}/api/live`);
    const reader = live.body!.getReader();
    await reader.read();

    const text = await metricsText();
    expect(sample(text, 'comptoir_http_requests_total{route="/",method="GET",status="200"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'comptoir_http_requests_total{route="/product/:slug",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'comptoir_http_request_duration_seconds_count{route="/api/checkout",method="POST"}')).toBe(1);
    expect(sample(text, 'comptoir_page_cache_total{outcome="hit"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'comptoir_checkouts_total{outcome="ok"}')).toBe(1);
    expect(sample(text, 'comptoir_reservations_held{unit="units"}')).toBe(1);
    expect(sample(text, 'comptoir_outbox_emails{status="failed"}')).toBe(0);
    expect(sample(text, "comptoir_live_streams")).toBe(1);
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    // A label is a route's pattern, never a visitor's path.
    expect(text).not.toContain(productPage);
    await reader.cancel();
  });

  it("on SIGTERM finishes what had started, says 'draining' and sends live pages elsewhere, then exits 0 with every reservation written", async () => {
    const live = await fetch(`${server.url}/api/live`);
    const stream = live.body!.pipeThrough(new TextDecoderStream()).getReader();
    let streamed = "";
    const bye = (async () => {
      for (;;) {
        const { value, done } = await stream.read();
        if (done) return streamed;
        streamed += value;
      }
    })();

    const statuses: number[] = [];
    const refused: string[] = [];
    const failures: string[] = [];
    let boughtAfterStart = 0;
    let stopping = false;
    let signalled!: () => void;
    const started = new Promise<void>((resolve) => (signalled = resolve));
    // Six clients, each sending its next request as soon as the last is answered: a page, then a checkout.
    const clientLoop = async (n: number) => {
      for (let i = 0; ; i++) {
        try {
          const response = i % 2 === 0 ? await fetch(`${server.url}${productPage}?client=${n}`) : await checkout();
          await response.arrayBuffer();
          statuses.push(response.status);
          if (i % 2 === 1 && response.status === 200) boughtAfterStart += 1;
          if (statuses.length === 30) signalled();
        } catch (error) {
          const code = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
          // Once the listener has closed, a new connection is refused, or reset if the kernel had
          // queued it before the close: the server never read those requests. (Had it read a
          // checkout, its order would be in the database below without its answer here.)
          if (stopping && (code === "ECONNREFUSED" || code === "ECONNRESET")) return refused.push(code);
          return failures.push(code);
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 6 }, (_, n) => clientLoop(n)));
    await started;
    stopping = true;
    const exited = server.stop();
    // Once the signal is heard, and within the drain, /readyz says so (a balancer stops sending requests here).
    let readiness: unknown;
    for (let answer = await fetch(`${server.url}/readyz`); ; answer = await fetch(`${server.url}/readyz`)) {
      readiness = { status: answer.status, body: await answer.json() };
      if (answer.status !== 200) break;
    }
    expect(readiness).toEqual({ status: 503, body: expect.objectContaining({ status: "draining" }) });
    await clients;
    exitCode = await exited;

    expect(failures).toEqual([]);
    expect(refused).toHaveLength(6);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await bye).toMatch(/retry: \d+\n\nevent: bye\n/);
    expect(exitCode).toBe(0);

    // Every checkout answered 200 holds its unit in the database: the one of the test before, and these.
    const handle = await open();
    try {
      const pending = await handle.db.select({ id: orders.id }).from(orders).where(eq(orders.status, "pending_payment"));
      expect(pending).toHaveLength(1 + boughtAfterStart);
      const [product] = await handle.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
      expect(product!.stock).toBe(STOCK - 1 - boughtAfterStart);
    } finally {
      await handle.close();
    }
  });
});
