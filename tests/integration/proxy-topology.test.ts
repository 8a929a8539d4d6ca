import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import path from "node:path";
import PostalMime from "postal-mime";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "~/db/client.server";
import { products } from "~/db/schema";
import { LOCAL_S3_BUCKET, LOCAL_S3_CREDENTIALS, startLocalS3 } from "../support/local-s3";
import { freePort, missingProxyTools, NGINX_TEMPLATE, type RunningProxy, startNginxProxy } from "../support/nginx-proxy";
import { tlsFetch } from "../support/tls-fetch";
import { signInAdmin } from "./http-accounts";
import { ensureBuild, type RunningServer, startServer, suiteDataDir } from "./server-process";
import { type SmtpRelay, startSmtpServer } from "./smtp-server";
import { suiteServerDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

/**
 * The reference deployment (docker-compose.yml) with Debian's packages instead of containers:
 * nginx from the shipped deploy/nginx/comptoir.conf.template, over TLS, in front of two built
 * instances on one PostgreSQL database, images in s3rver, e-mails to a local SMTP relay. Every
 * request below goes through nginx, as a browser's would.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const proxyMissing = onPostgres ? missingProxyTools() : null;
if (onPostgres && proxyMissing) {
  if (process.env.CI) throw new Error(`proxy-topology.test.ts cannot run on CI: ${proxyMissing}`);
  console.warn(`proxy-topology.test.ts SKIPPED: ${proxyMissing}`);
}
const s3 = onPostgres && !proxyMissing ? await startLocalS3() : null;
if (s3 && "skipped" in s3) console.warn(`proxy-topology.test.ts SKIPPED: the local S3 server (s3rver) could not start: ${s3.skipped}`);
const local = s3 && !("skipped" in s3) ? s3 : null;
const skipped = !onPostgres ? "PostgreSQL only: two instances share one database" : (proxyMissing ?? (local ? null : "s3rver could not start"));

const ADMIN = { email: "admin-proxy@comptoir.test", password: "admin-proxy-mot-de-passe" };
const BUYER = "acheteur-proxy@example.com";
const SELLER = "vendeur-proxy@comptoir.test";
/** The traffic while an instance stops: this many clients, each sending a request every PACE_MS or so. */
const CLIENTS = 4;
const PACE_MS = 20;
/** docker-compose.yml's SHUTDOWN_DRAIN_SECONDS (the files' test below checks it). */
const DRAIN_SECONDS = 5;

type LiveStream = { instance: string; status: number; text: () => string; ended: Promise<void>; close: () => void };

/** The instance that answered, as nginx saw it (the last one tried). */
const instanceOf = (response: { headers: Headers }) => response.headers.get("x-test-upstream")?.split(", ").at(-1) ?? "none";

describe.skipIf(skipped !== null)(`the reference deployment: nginx, two instances, PostgreSQL, S3, SMTP${skipped ? ` (SKIPPED: ${skipped})` : ""}`, runsOn("PostgreSQL"), () => {
  const database = suiteServerDatabase("comptoir_proxy");
  const dataDirs = [suiteDataDir("comptoir-proxy-a-"), suiteDataDir("comptoir-proxy-b-")];
  let smtp: SmtpRelay;
  let proxy: RunningProxy;
  let client: ReturnType<typeof tlsFetch>;
  const instances: RunningServer[] = [];
  /** Each instance's host:port, as nginx names it in X-Test-Upstream. */
  const addresses: string[] = [];
  const streams: LiveStream[] = [];
  let adminCookie = "";
  /** How the stopped instance went (the stop test). */
  let stop: { exitCode: number | null; ms: number; forced: boolean } | null = null;

  const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${proxy.url}${pathname}`, { headers, redirect: "manual" });
  const post = (pathname: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${proxy.url}${pathname}`, { method: "POST", body, headers: { origin: proxy.url, ...headers }, redirect: "manual" });
  const checkout = (productId: number, email: string, headers: Record<string, string> = {}) =>
    post("/api/checkout", JSON.stringify({ items: [{ productId, quantity: 1 }], insuranceSelected: false, email }), { "content-type": "application/json", "idempotency-key": randomUUID(), ...headers });

  function openLiveStream(): Promise<LiveStream> {
    return new Promise((resolve, reject) => {
      const request = https.get(`${proxy.url}/api/live`, { ca: proxy.ca, agent: false, headers: { accept: "text/event-stream" } }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        const ended = new Promise<void>((done) => response.on("close", done));
        const instance = String(response.headers["x-test-upstream"]).split(", ").at(-1)!;
        resolve({ instance, status: response.statusCode!, text: () => text, ended, close: () => request.destroy() });
      });
      request.on("error", reject);
    });
  }

  /** One request over HTTP/2, as browsers talk to nginx: its status and text. */
  function overHttp2(pathname: string, method: "GET" | "POST", body = ""): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const session = http2.connect(proxy.url, { ca: proxy.ca });
      session.on("error", reject);
      const posting = method === "POST";
      const headers = { ":method": method, ":path": pathname, origin: proxy.url, ...(posting ? { "content-type": "application/x-www-form-urlencoded" } : {}) };
      const stream = session.request(headers, { endStream: !posting });
      let status = 0;
      let text = "";
      stream.setEncoding("utf8");
      stream.on("response", (headers) => (status = Number(headers[":status"])));
      stream.on("data", (chunk: string) => (text += chunk));
      stream.on("end", () => session.close(() => resolve({ status, text })));
      stream.on("error", reject);
      if (posting) stream.end(body);
    });
  }

  beforeAll(async () => {
    ensureBuild();
    smtp = await startSmtpServer();
    const [httpsPort, httpPort, portA, portB] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const url = `https://127.0.0.1:${httpsPort}`;
    const env = {
      ...database,
      PUBLIC_URL: url,
      TRUST_PROXY: "loopback",
      AUTH_SECRET: "proxy-topology-secret-shared-by-both-instances",
      S3_ENDPOINT: local!.endpoint,
      S3_BUCKET: LOCAL_S3_BUCKET,
      S3_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
      // As docker-compose.yml: the bucket's images through nginx, on the shop's origin.
      S3_PUBLIC_URL: `${url}/images`,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SELLER_EMAIL: SELLER,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // As docker-compose.yml: longer than nginx keeps an idle connection (startServer's is 0).
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
    };
    // One after the other: the first migrates the new database and draws the sample images into the bucket.
    for (const [index, port] of [portA, portB].entries()) {
      instances.push(await startServer({ ...env, DATA_DIR: dataDirs[index]!, PORT: String(port) }));
      addresses.push(`127.0.0.1:${port}`);
    }
    proxy = await startNginxProxy({ httpsPort, httpPort, apps: [addresses[0]!, addresses[1]!], s3: new URL(local!.endpoint).host, bucket: LOCAL_S3_BUCKET });
    client = tlsFetch(proxy.ca);
    // The helpers (signInAdmin) call fetch: through nginx, theirs trusts its certificate.
    const direct = globalThis.fetch;
    vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) =>
      (input instanceof Request ? input.url : String(input)).startsWith(proxy.url) ? client.fetch(input, init) : direct(input, init),
    );
  }, 120_000);

  afterAll(async () => {
    vi.unstubAllGlobals();
    for (const stream of streams) stream.close();
    client?.close();
    await proxy?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all([smtp?.close(), local?.stop()]);
  });

  it("serves the shop over TLS from both instances, and sends plain HTTP to PUBLIC_URL", async () => {
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const page = await get("/catalog");
      expect(page.status).toBe(200);
      // The app knows it is behind TLS: HSTS, and its own links on the proxy's address.
      expect(page.headers.get("strict-transport-security")).toMatch(/max-age=/);
      expect(await page.text()).toContain(`${proxy.url}/images/seed/`);
      served.add(instanceOf(page));
    }
    expect([...served].sort()).toEqual([...addresses].sort());

    // Over HTTP/2 a browser sends no Host header: nginx passes on the one it makes from the
    // request's authority, and a form post passes the same-origin check (here refused for its
    // empty fields, not as cross-site).
    expect((await overHttp2("/catalog", "GET")).status).toBe(200);
    const signIn = await overHttp2("/login", "POST", "email=&password=");
    expect(signIn.text).not.toContain("autre site");
    expect(signIn.status).toBe(400);

    const plain = await fetch(`${proxy.httpUrl}/catalog?page=2`, { redirect: "manual" });
    expect(plain.status).toBe(301);
    expect(plain.headers.get("location")).toBe(`${proxy.url}/catalog?page=2`);
  });

  it("takes a customer's order and payment on the test page, mails both, and the seller ships it", async () => {
    // Live-update streams through nginx until one is open on each instance.
    while (new Set(streams.map((stream) => stream.instance)).size < 2 && streams.length < 8) streams.push(await openLiveStream());
    expect(streams.every((stream) => stream.status === 200)).toBe(true);
    expect(new Set(streams.map((stream) => stream.instance))).toEqual(new Set(addresses));

    const catalog = await (await get("/catalog?sort=price-desc")).text();
    const productId = Number(/href="\/product\/(\d+)-/.exec(catalog)?.[1]);
    expect(productId).toBeGreaterThan(0);
    const started = await checkout(productId, BUYER);
    expect(started.status).toBe(200);
    const reservedBy = instanceOf(started);
    const answer = (await started.json()) as { url: string; orderNumber: string };
    const { orderNumber } = answer;

    // The reservation changed the stock: a page open on the other instance hears of it, through PostgreSQL.
    const elsewhere = streams.find((stream) => stream.instance !== reservedBy)!;
    await expect.poll(() => elsewhere.text(), { timeout: 5_000 }).toMatch(new RegExp(`event: catalog\\ndata: \\{"op":"update","id":${productId}[,}]`));

    expect(answer.url.startsWith(`${proxy.url}/paiement/`)).toBe(true);
    const paymentPath = new URL(answer.url).pathname;
    const paymentPage = await get(paymentPath);
    expect(paymentPage.status).toBe(200);
    expect(await paymentPage.text()).toContain("Mode test");
    const paid = await post(
      paymentPath,
      new URLSearchParams({
        fullName: "Marie Curie",
        line1: "12 rue des Lilas",
        postalCode: "75011",
        city: "Paris",
        country: "FR",
        phone: "0601020304",
        cardNumber: "4242 4242 4242 4242",
        cardExpiry: "12/30",
        cardCvc: "123",
        billingSame: "on",
      }),
    );
    expect(paid.status, await paid.clone().text()).toBe(302);
    expect(paid.headers.get("location")?.startsWith(`${proxy.url}/merci?success=true`)).toBe(true);

    const subjects = async () => Promise.all(smtp.received.map(async ({ to, raw }) => `${to.join(",")}: ${(await PostalMime.parse(raw)).subject}`));
    await expect.poll(subjects, { timeout: 15_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining(`${BUYER}: Confirmation de votre commande ${orderNumber}`), expect.stringContaining(`${SELLER}: Nouvelle commande ${orderNumber}`)]),
    );

    // The seller signs in with the second factor (requests alternate between the instances: the
    // session is in the database) and ships.
    adminCookie = await signInAdmin(proxy.url, ADMIN);
    const shipped = await post(`/admin/orders/${orderNumber}`, new URLSearchParams({ intent: "ship", carrier: "colissimo", trackingNumber: "6A12345678901" }), { cookie: adminCookie });
    expect(shipped.status, await shipped.clone().text()).toBe(200);
    await expect.poll(subjects, { timeout: 15_000 }).toEqual(expect.arrayContaining([`${BUYER}: Votre commande ${orderNumber} a été expédiée – Comptoir`]));
  });

  it("uploads a product image of several megabytes and serves it back from the bucket, never its private part", async () => {
    // Noise does not compress: over nginx's 2 MB default, under the upload's own 10 MB.
    const png = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 60 } } }).png().toBuffer();
    expect(png.length).toBeGreaterThan(2 * 1024 * 1024);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "carte.png");
    const uploaded = await post("/admin/api/images", form, { cookie: adminCookie });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const { url } = (await uploaded.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${proxy.url}/images/pokemon_\\d+_\\w+-320\\.webp$`));

    const image = await get(new URL(url).pathname);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
    expect(image.headers.get("cache-control")).toMatch(/immutable/);
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(320);

    for (const pathname of ["/images/", "/images/?list-type=2", "/images/private/rachat_1_0123456789abcdef.webp"]) {
      const refused = await get(pathname);
      expect(refused.status, pathname).toBe(404);
      await refused.arrayBuffer();
    }
  });

  it("stops an instance mid-traffic: every page and checkout is answered by the other", async () => {
    // A product with stock for every checkout of the run.
    const handle = await openDatabase({ kind: "postgres", url: database.DATABASE_URL, poolSize: 1 });
    const [product] = await handle.db.insert(products).values({ title: "Booster de charge", priceCents: 500, stock: 10_000, category: "TCG", subCategory: "Scellés" }).returning({ id: products.id });
    await handle.close();
    const pages = ["/catalog", "/", "/tcg", "/api/search?q=pikachu", "/healthz"];

    type Outcome = { request: string; status: number | string; instance: string; at: number };
    const outcomes: Outcome[] = [];
    let running = true;
    let sent = 0;
    const worker = async () => {
      while (running) {
        const n = sent++;
        const isCheckout = n % 3 === 2;
        const request = isCheckout ? "POST /api/checkout" : `GET ${pages[n % pages.length]}`;
        try {
          // Each buyer from an address of their own, as nginx passes it on (the checkout's limit is per address).
          const response = isCheckout
            ? await checkout(product!.id, `charge-${n}@example.com`, { "x-forwarded-for": `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}` })
            : await get(pages[n % pages.length]!);
          await response.arrayBuffer();
          outcomes.push({ request, status: response.status, instance: instanceOf(response), at: Date.now() });
        } catch (error) {
          outcomes.push({ request, status: error instanceof Error ? error.message : String(error), instance: "none", at: Date.now() });
        }
        // A steady trickle rather than a benchmark: the end-to-end tests share the machine.
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
    };
    const workers = Array.from({ length: CLIENTS }, () => worker());

    const [stopped, kept] = [instances[0]!, addresses[1]!];
    const stoppedAddress = addresses[0]!;
    const streamOnStopped = streams.find((stream) => stream.instance === stoppedAddress)!;
    await expect.poll(() => outcomes.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(30);
    const stopAt = Date.now();
    const exit = stopped.stop();
    // At SIGTERM the instance ends its streams, and refuses new ones while it drains: the pages
    // reconnect, and nginx opens their streams on the other instance.
    await streamOnStopped.ended;
    const reopened: LiveStream[] = [];
    for (let i = 0; i < 4; i++) reopened.push(await openLiveStream());
    streams.push(...reopened);
    expect(reopened.map((stream) => [stream.status, stream.instance])).toEqual(Array(4).fill([200, kept]));
    const exitCode = await exit;
    const exitedAt = Date.now();
    stop = { exitCode, ms: exitedAt - stopAt, forced: stopped.output().includes("forcing shutdown") };
    const afterExit = outcomes.length;
    await expect.poll(() => outcomes.length - afterExit, { timeout: 20_000 }).toBeGreaterThanOrEqual(30);
    running = false;
    await Promise.all(workers);

    const byInstance = (list: Outcome[]) => Object.fromEntries(["none", ...addresses].map((address) => [address, list.filter((outcome) => outcome.instance === address).length]));
    const summary = {
      requests: outcomes.length,
      checkouts: outcomes.filter((outcome) => outcome.request.startsWith("POST")).length,
      beforeStop: byInstance(outcomes.filter((outcome) => outcome.at < stopAt)),
      whileStopping: byInstance(outcomes.filter((outcome) => outcome.at >= stopAt && outcome.at < exitedAt)),
      afterExit: byInstance(outcomes.filter((outcome) => outcome.at >= exitedAt)),
      stop,
    };
    console.log(`proxy-topology: ${JSON.stringify(summary)}`);
    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    const upstreamErrors = proxy.errorLog().split("\n").filter((line) => /\[error\]|upstream/.test(line));
    expect(failed, upstreamErrors.join("\n")).toEqual([]);
    // A connection nginx opens at the instant the stopping instance closes its listener is reset
    // by the kernel (it was in the accept queue, never read): nginx sends the request again to
    // the other instance, and the client sees nothing. Only GETs and checkouts (sent again with
    // their Idempotency-Key, which gives the same order back) may be among them; any other POST
    // so reset would have reached the client as a 502, which `failed` above counts.
    const cut = upstreamErrors.filter((line) => /reset by peer|prematurely closed/.test(line));
    expect(cut.filter((line) => !/request: "((GET|HEAD) |POST \/api\/checkout )/.test(line))).toEqual([]);
    // Both served before the stop; the kept one alone after it.
    expect(summary.beforeStop[stoppedAddress]).toBeGreaterThan(0);
    expect(summary.afterExit[stoppedAddress]).toBe(0);
    expect(summary.afterExit[kept]).toBeGreaterThan(0);
  }, 60_000);

  // Not forced is the bound (main.ts forces a shutdown that outlasts its drain); a wall-clock
  // ceiling here broke on a loaded 2-core machine and proved nothing more.
  it("the stopped instance drains, finishes and exits by itself, with 0, without being forced", () => {
    expect(stop).not.toBeNull();
    expect(stop).toMatchObject({ exitCode: 0, forced: false });
    expect(stop!.ms).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000);
  });
});

// Once, on the PGlite pass: the two shipped files agree (the suite above proves the template).
describe.skipIf(onPostgres)("the reference deployment's files", runsOn("PGlite"), () => {
  it("docker-compose.yml gives nginx a value for every placeholder of the template, and for no other", () => {
    const placeholders = new Set([...fs.readFileSync(NGINX_TEMPLATE, "utf8").matchAll(/\$\{(COMPTOIR_\w+)\}/g)].map((match) => match[1]));
    const compose = fs.readFileSync(path.resolve(import.meta.dirname, "../../docker-compose.yml"), "utf8");
    const given = new Set([...compose.matchAll(/^ +(COMPTOIR_\w+):/gm)].map((match) => match[1]));
    expect(placeholders.size).toBeGreaterThan(0);
    expect([...given].sort()).toEqual([...placeholders].sort());
  });

  it("closes an idle connection to an instance before the instance would, running or stopping", () => {
    const appSeconds = Number(/server\.keepAliveTimeout = ([\d_]+);/.exec(fs.readFileSync(path.resolve(import.meta.dirname, "../../server/main.ts"), "utf8"))?.[1]?.replaceAll("_", "")) / 1000;
    const upstreams = [...fs.readFileSync(NGINX_TEMPLATE, "utf8").matchAll(/^upstream \w+ \{\n[\s\S]*?\n\}/gm)].map((match) => match[0]);
    expect(upstreams.length).toBeGreaterThan(0);
    for (const upstream of upstreams) {
      expect(upstream).toMatch(/^ {4}keepalive \d+;$/m);
      expect(Number(/^ {4}keepalive_timeout (\d+)s;$/m.exec(upstream)?.[1])).toBeLessThan(appSeconds);
    }
    const compose = fs.readFileSync(path.resolve(import.meta.dirname, "../../docker-compose.yml"), "utf8");
    const drain = Number(/^ +SHUTDOWN_DRAIN_SECONDS: "(\d+)"$/m.exec(compose)?.[1]);
    expect(drain).toBe(DRAIN_SECONDS);
    const toInstances = upstreams.filter((upstream) => upstream.includes("${COMPTOIR_APP_1}"));
    expect(toInstances.length).toBeGreaterThan(0);
    for (const upstream of toInstances) expect(Number(/^ {4}keepalive_timeout (\d+)s;$/m.exec(upstream)?.[1])).toBeLessThan(drain);
  });
});
