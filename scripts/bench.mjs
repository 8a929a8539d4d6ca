#!/usr/bin/env node
// `npm run bench`: load test of the built server on a seeded database (about 1,000 products),
// on PGlite and on PostgreSQL, with autocannon on the same machine. Reports requests/s,
// p50/p99 latency, non-2xx responses, the server's memory and the gzipped JavaScript each
// page loads, writes them into docs/performance.md and prints PASS/FAIL lines against the
// targets of issues 3 and 13 (a signed-in customer's pages as fast as an anonymous visitor's). A measurement, not a test: it exits 0 whatever the figures, and non-zero
// only when the run itself failed (build, seed, server start).
// `--scenario drop` runs the drop scenario instead (scripts/bench-drop.mjs: 1,000 buyers rush a
// 10-unit product while 500 open pages listen; then scripts/bench-drop-fair.mjs: a drop bought
// through its waiting room by 300 collectors and 20 scripts, whose 800 joins come in the room's first
// 100 ms), `--scenario admin` the admin product list
// (scripts/bench-admin.mjs: 10,000 products, sorted and filtered, signed in as an admin),
// `--scenario dashboard` the seller's dashboard with 20,000 orders (scripts/bench-dashboard.mjs),
// `--scenario search` typo-tolerant search on 10,000 products (scripts/bench-search.mjs),
// `--scenario preorder` 1,000 buyers pre-ordering 300 units in a minute (scripts/bench-preorder.mjs),
// `--scenario all` (the default) all six.
//
//   npm run bench [-- --duration 10 --connections 50 --warmup 3 --db pglite|postgres --scenario pages|drop|admin|dashboard|search|preorder|all --no-write]
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { brotliDecompressSync, gunzipSync, gzipSync, inflateSync, constants as zlibConstants } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";
import { findPostgresBin, startThrowawayCluster } from "./pg-cluster.mjs";
import { buildState } from "./build-state.mjs";
// bench-drop.mjs imports this file's helpers back: a cycle that is fine as long as neither
// module uses the other's bindings while it loads (only the functions called from main do).
import { DROP_END, DROP_START, benchDrop, dropChecks, dropMarkdown } from "./bench-drop.mjs";
import { ROOM_END, ROOM_START, benchDropRoom, roomChecks, roomMarkdown } from "./bench-drop-fair.mjs";
import { PREORDER_END, PREORDER_START, benchPreorder, preorderChecks, preorderMarkdown } from "./bench-preorder.mjs";
import { ADMIN, ADMIN_END, ADMIN_START, adminChecks, adminMarkdown, benchAdmin } from "./bench-admin.mjs";
import { DASHBOARD_END, DASHBOARD_START, benchDashboard, dashboardChecks, dashboardMarkdown } from "./bench-dashboard.mjs";
import { SEARCH_END, SEARCH_START, benchSearch, searchChecks, searchMarkdown } from "./bench-search.mjs";

export const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    // No default here: the pages' defaults are below, the admin list has its own (bench-admin.mjs).
    duration: { type: "string" },
    connections: { type: "string" },
    warmup: { type: "string" },
    products: { type: "string" },
    db: { type: "string" },
    scenario: { type: "string", default: process.env.BENCH_SCENARIO ?? "all" },
    port: { type: "string", default: process.env.BENCH_PORT ?? "24301" },
    "no-write": { type: "boolean", default: false },
  },
});
/** A setting given as a flag (`--duration`) or a variable (BENCH_DURATION); undefined when neither. */
export const given = (name) => args[name] ?? process.env[`BENCH_${name.toUpperCase()}`];

/**
 * A scenario's numeric settings: the shared flags (`--products`, `--connections`, `--duration`,
 * `--warmup`, or BENCH_*) when given, else the scenario's own `defaults`. Getters: the scenario
 * modules call this while they load, before this module has read its flags.
 */
export function scenarioSettings(defaults) {
  const settings = {};
  for (const [name, fallback] of Object.entries(defaults)) {
    Object.defineProperty(settings, name, { enumerable: true, get: () => Number(given(name) ?? fallback) });
  }
  return settings;
}
const DURATION = Number(given("duration") ?? "10");
const CONNECTIONS = Number(given("connections") ?? "50");
const WARMUP = Number(given("warmup") ?? "3");
const PRODUCTS = Number(given("products") ?? "1000");
const BASE_PORT = Number(args.port);
// What a browser sends: the server compresses (brotli or gzip), and serves cached pages gzipped.
export const HEADERS = { "accept-encoding": "gzip, deflate, br", "user-agent": "Mozilla/5.0 (comptoir-bench) Chrome/126" };

const THRESHOLDS = { rps: 1000, p99: 100, signedInRps: 3000, signedInP99: 50, renderCpuMs: 15, rssMb: 600, jsKb: 160 };
/**
 * [label, path or a function of the discovered URLs]; `strict` ones are held to req/s and p99.
 * `as: "customer"` ones send the session cookie of a customer signed in at /login, as their
 * browser does: held to the signed-in targets. `as: "uncached"` ones send an Authorization
 * header, which the page cache never shares: a full render (data queries included) on every
 * request, held to the render's CPU target on /catalog.
 */
const TARGETS = [
  { label: "Home", path: () => "/", strict: false },
  { label: "Catalogue", path: () => "/catalog", strict: true },
  { label: "TCG cards", path: () => "/tcg?category=cards", strict: false },
  { label: "Product page", path: (found) => found.product, strict: true },
  { label: "Search suggestions", path: () => "/api/search?q=pokemon", strict: false },
  { label: "Catalogue, signed in", path: () => "/catalog", strict: true, as: "customer" },
  { label: "Product page, signed in", path: (found) => found.product, strict: true, as: "customer" },
  // What one render costs, one request at a time (a purge makes one render, not fifty at once),
  // then the same page with fifty at once, where renders queue and the garbage collector works
  // harder: both are shown; the render target is held on the first.
  { label: "Catalogue, not cached, one at a time", path: () => "/catalog", strict: false, as: "uncached", connections: 1, renderCpu: true },
  { label: "Catalogue, not cached", path: () => "/catalog", strict: false, as: "uncached" },
  { label: "Product page, not cached", path: (found) => found.product, strict: false, as: "uncached" },
  // PostgreSQL only (another process can write to it): the product's stock changes every
  // PURGE_EVERY_MS during the run, each change purging the page cache, as during a drop.
  { label: "Catalogue under purges", path: () => "/catalog", strict: false, purges: true },
  { label: "Product page under purges", path: (found) => found.product, strict: false, purges: true },
];
const PURGE_EVERY_MS = 500;
/** Every page a visitor reaches without an account (PRODUCT: the product page found in /catalog), for the JavaScript table. */
const PUBLIC_PAGES = ["/", "/catalog", "/tcg", "/tcg?category=cards", "PRODUCT", "/accessories", "/entertainment", "/about", "/legal", "/retractation", "/contact", "/rachat", "/cart", "/login", "/signup", "/forgot-password", "/construction", "/cette-page-n-existe-pas"];
/** The customer the seed creates (confirmed), who signs in at /login before the run. */
const CUSTOMER = { name: "Client Bench", email: "client.bench@example.com", password: "bench-client-mot-de-passe" };
const UNCACHED = { authorization: "Bearer bench-not-cached" };

// ── Build ────────────────────────────────────────────────────────────────────────────────
/** Builds when there is no build yet or the sources changed since the last one (also `npm run lighthouse`). */
export function ensureBuild() {
  const state = buildState();
  if (state === "fresh") return;
  console.log(state === "missing" ? "━━ Build (no build yet)" : "━━ Build (sources changed)");
  const build = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("the build failed");
}

// ── Databases ────────────────────────────────────────────────────────────────────────────
/** A fresh database per run: a throwaway cluster, or a new database on DATABASE_URL's server. */
export async function preparePostgres() {
  if (process.env.DATABASE_URL) {
    const name = `comptoir_bench_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      origin: "DATABASE_URL (fresh database)",
      async stop() {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const cluster = await startThrowawayCluster();
  if (!cluster) return null;
  return { url: cluster.url, origin: `throwaway cluster (${findPostgresBin()})`, dataDir: cluster.dataDir, stop: async () => cluster.stop() };
}

/**
 * A scenario's database for one run: a temporary DATA_DIR (`${prefix}-${kind}-…`) and, for
 * "postgres", a fresh database (preparePostgres). Runs `body({ env, dataDir, postgres })`, env being
 * { DATA_DIR, ...extraEnv } plus DATABASE_URL on PostgreSQL, postgres null on PGlite; `body` stops
 * its servers before it returns (its own finally). Then the database is stopped and the directory
 * removed, whatever happened. Without PostgreSQL: `{ kind, skipped }`, and no body.
 */
export async function withScenarioDatabase(kind, prefix, extraEnv, body) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-${kind}-`));
  let postgres = null;
  try {
    const env = { DATA_DIR: dataDir, ...extraEnv };
    if (kind === "postgres") {
      postgres = await preparePostgres();
      if (!postgres) return { kind, skipped: "no DATABASE_URL and no PostgreSQL binaries in /usr/lib/postgresql/{15,16,17}/bin" };
      env.DATABASE_URL = postgres.url;
    }
    // Awaited here: the finally below must wait for the body (and its servers) to be done.
    return await body({ env, dataDir, postgres });
  } finally {
    await postgres?.stop().catch((error) => console.error(`  could not stop PostgreSQL: ${error.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function seed(env, { products = PRODUCTS, orders = 0 } = {}) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench-seed.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: "",
      ...env,
      BENCH_PRODUCTS: String(products),
      BENCH_ORDERS: String(orders),
      BENCH_CUSTOMER: JSON.stringify(CUSTOMER),
    },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`seeding failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").pop());
}

// ── Server ───────────────────────────────────────────────────────────────────────────────
/**
 * What autocannon measured of one URL, as every scenario's rows keep it, with the server's CPU
 * over the run (`serverCpuMs`) per request and as a share of the run.
 */
export function loadFigures(result, serverCpuMs) {
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuPerReq: serverCpuMs / Math.max(1, result.requests.total),
    serverCpuShare: serverCpuMs / (result.duration * 1000),
  };
}

export async function startServer(env, port) {
  // As scripts/start.mjs starts it (`npm start`). BENCH_SERVER_NODE_ARGS: extra node flags for
  // the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to see where its time goes.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "build/server/main.js"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", MALLOC_ARENA_MAX: "2", LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // "close", not "exit": its output is all in by then (what it printed before exiting).
  const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? signal)));
  let exitCode;
  void exited.then((code) => (exitCode = code));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`the server exited (${exitCode}) before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer /healthz within 120 s:\n${output}`);
    }
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  return {
    base,
    pid: child.pid,
    output: () => output,
    /** undefined while it runs; its exit code or signal once it has exited. */
    exitCode: () => exitCode,
    async stop() {
      if (exitCode !== undefined) return exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat, 100 ticks/s). */
export function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** VmRSS (now) and VmHWM (peak since start) of a process, in MB, sampled every 250 ms. */
export function memorySampler(pid) {
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
      return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
    } catch {
      return null;
    }
  };
  let maxRss = 0;
  let hwm = 0;
  const sample = () => {
    const m = read();
    if (m) {
      maxRss = Math.max(maxRss, m.rss);
      hwm = Math.max(hwm, m.hwm);
    }
    return m;
  };
  const timer = setInterval(sample, 250);
  return {
    now: () => sample()?.rss ?? null,
    stop() {
      sample();
      clearInterval(timer);
      return { maxRssMb: maxRss, peakMb: hwm };
    },
  };
}

// ── Pages ────────────────────────────────────────────────────────────────────────────────
/**
 * One GET on a fresh connection (no keep-alive pool: a pooled socket can be closed by the
 * server's 5 s keep-alive timeout while autocannon runs), decompressed, retried once.
 */
export function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        let body = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        if (encoding === "gzip") body = gunzipSync(body);
        else if (encoding === "br") body = brotliDecompressSync(body);
        else if (encoding === "deflate") body = inflateSync(body);
        resolve({ status: res.statusCode, headers: res.headers, body });
      });
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
    req.on("error", reject);
  });
}

async function getWithRetry(url, headers) {
  try {
    return await get(url, headers);
  } catch {
    await sleep(500);
    return get(url, headers);
  }
}

async function probe(base, urlPath, extraHeaders = {}) {
  const res = await getWithRetry(base + urlPath, { ...HEADERS, ...extraHeaders });
  return { status: res.status, xCache: res.headers["x-cache"] ?? "—", type: res.headers["content-type"] ?? "", body: res.body.toString("utf8") };
}

/** A product page linked from /catalog (/product/{id}-{slug}). */
function findProductPath(catalogHtml) {
  return /href="(\/product\/\d+(?:-[a-z0-9-]*)?)"/.exec(catalogHtml)?.[1] ?? null;
}

/**
 * The JavaScript a page loads: every same-origin /assets/*.js referenced by a script src, a
 * modulepreload link or an import of an inline module script, plus the static imports of those
 * files (followed transitively; dynamic import() is left out: it loads on navigation, not on
 * load). The route manifest that React Router inlines names other routes' files too (the home
 * page's, the manifest's own URL): those are data, not loaded, so not counted. Sizes are gzip
 * level 9 of each file, summed.
 */
async function pageJavaScript(base, html, cache) {
  const found = new Set();
  const add = (ref) => {
    if (!ref) return;
    const url = new URL(ref.replaceAll("&amp;", "&"), base + "/");
    if (url.origin === base && url.pathname.startsWith("/assets/") && url.pathname.endsWith(".js")) found.add(url.pathname);
  };
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    if (/\brel="modulepreload"/.test(m[0])) add(/\bhref="([^"]+)"/.exec(m[0])?.[1]);
  }
  for (const m of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const ref of m[1].matchAll(/\bimport\s*(?:\(\s*|[\w*{}\s,$]*?\s*from\s*)?["'](\/assets\/[^"']+\.js)["']/g)) add(ref[1]);
  }
  const queue = [...found];
  let raw = 0;
  let gzip = 0;
  while (queue.length > 0) {
    const file = queue.shift();
    let entry = cache.get(file);
    if (!entry) {
      const res = await getWithRetry(base + file);
      const source = res.body;
      const imports = [];
      const text = source.toString("utf8");
      // Static imports of a Vite chunk: import"./x.js", import{a}from"./x.js", export*from"./x.js".
      for (const m of text.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']([^"']+\.js)["']/g)) {
        imports.push(new URL(m[1], base + file).pathname);
      }
      entry = { status: res.status, raw: source.length, gzip: gzipSync(source, { level: zlibConstants.Z_BEST_COMPRESSION }).length, imports };
      cache.set(file, entry);
    }
    raw += entry.raw;
    gzip += entry.gzip;
    for (const dep of entry.imports) {
      if (!found.has(dep)) {
        found.add(dep);
        queue.push(dep);
      }
    }
  }
  return { files: found.size, rawKb: raw / 1024, gzipKb: gzip / 1024 };
}

/** pageJavaScript for each of PUBLIC_PAGES, with its status. */
async function publicPagesJavaScript(base, productPath, cache) {
  const pages = [];
  for (const page of PUBLIC_PAGES) {
    const pagePath = page === "PRODUCT" ? productPath : page;
    const answer = await probe(base, pagePath);
    pages.push({ path: pagePath, status: answer.status, ...(await pageJavaScript(base, answer.body, cache)) });
  }
  return pages;
}

/**
 * POSTs a sign-in form (/login or /admin/login) as a browser does (same-origin Origin) and
 * returns the cookies it set (the session and the header's hint), as a Cookie header.
 */
export function signIn(base, pathname, { email, password }) {
  const body = new URLSearchParams({ email, password }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${pathname}`,
      {
        method: "POST",
        agent: false,
        headers: { ...HEADERS, origin: base, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          const cookies = (res.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).filter((pair) => !/=$/.test(pair));
          const location = res.headers.location ?? "";
          if (res.statusCode >= 300 && res.statusCode < 400 && cookies.some((c) => c.includes("session_token"))) {
            resolve(cookies.join("; "));
          } else {
            reject(new Error(`signing in at ${pathname} answered ${res.statusCode} (location ${location || "none"}, cookies ${cookies.map((c) => c.split("=")[0]).join(", ") || "none"})`));
          }
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${pathname} within 30 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** Signs an admin in and enrols its second factor (scripts/bench-admin-session.ts): the cookie every admin page accepts. */
export async function signInAdmin(base, account) {
  const cookie = await signIn(base, "/admin/login", account);
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench-admin-session.ts", base, cookie, account.password], { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`enrolling the admin's second factor failed:\n${result.stdout}${result.stderr}`);
  return result.stdout.trim().split("\n").pop();
}

function load(url, duration, extraHeaders = {}, connections = CONNECTIONS) {
  return autocannon({ url, connections, duration, headers: { ...HEADERS, ...extraHeaders }, timeout: 10 });
}

// ── One database ─────────────────────────────────────────────────────────────────────────
/** `measurePages`: also counts every public page's JavaScript (the same build whatever the database: once per run). */
async function benchDatabase(kind, port, { measurePages }) {
  return withScenarioDatabase(kind, "comptoir-bench", {}, async ({ env, dataDir, postgres }) => {
    let server = null;
    try {
      console.log(`\n━━ ${label(kind)}${postgres ? ` — ${postgres.origin}` : ""}`);
      const seeded = seed(env);
      console.log(`  seeded ${seeded.total} products (${seeded.sample} sample + ${seeded.generated} generated)`);
      const started = Date.now();
      server = await startServer(env, port);
      console.log(`  server ready on ${server.base} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${server.pid})`);
      const memory = memorySampler(server.pid);
      const idleRssMb = memory.now();

      const catalog = await probe(server.base, "/catalog");
      const found = { product: findProductPath(catalog.body) };
      if (!found.product) console.log("  no /product/{id}-{slug} link in /catalog: product page tried at /product/1");
      found.product ??= "/product/1";

      const customerCookie = await signIn(server.base, "/login", CUSTOMER);
      console.log(`  signed in as ${CUSTOMER.email} at /login`);
      const asHeaders = { customer: { cookie: customerCookie }, uncached: UNCACHED };
      const jsCache = new Map();
      const rows = [];
      const writer = postgres ? new pg.Client({ connectionString: postgres.url }) : null;
      await writer?.connect();
      const productId = Number(/^\/product\/(\d+)/.exec(found.product)?.[1] ?? 1);
      for (const target of TARGETS) {
        if (target.purges && !writer) continue;
        const urlPath = target.path(found);
        const url = server.base + urlPath;
        const extra = target.as ? asHeaders[target.as] : {};
        const first = await probe(server.base, urlPath, extra);
        // The JavaScript a page loads is the same for every visitor: counted once.
        const js = !target.as && !target.purges && /text\/html/.test(first.type) ? await pageJavaScript(server.base, first.body, jsCache) : null;
        if (WARMUP > 0) await load(url, WARMUP, extra, target.connections);
        const warm = await probe(server.base, urlPath, extra);
        const load1 = os.loadavg()[0];
        const serverCpu0 = cpuMs(server.pid);
        const clientCpu0 = process.cpuUsage();
        let purges = 0;
        const purger = target.purges
          ? setInterval(() => {
              purges += 1;
              const delta = purges % 2 === 0 ? -1 : 1;
              writer.query("update products set stock = stock + $1 where id = $2", [delta, productId]).catch(() => {});
            }, PURGE_EVERY_MS)
          : null;
        const result = await load(url, DURATION, extra, target.connections);
        if (purger) clearInterval(purger);
        const clientCpu = process.cpuUsage(clientCpu0);
        const serverCpu = cpuMs(server.pid) - serverCpu0;
        const after = await probe(server.base, urlPath, extra);
        const row = {
          label: target.label,
          path: urlPath,
          as: target.as ?? null,
          purges: target.purges ? purges : null,
          strict: target.strict,
          renderCpu: Boolean(target.renderCpu),
          connections: target.connections ?? CONNECTIONS,
          status: warm.status,
          xCache: `${first.xCache} → ${after.xCache}`,
          ...loadFigures(result, serverCpu),
          htmlKb: Buffer.byteLength(warm.body) / 1024,
          clientCpuShare: (clientCpu.user + clientCpu.system) / 1000 / (result.duration * 1000),
          load1,
          js,
        };
        rows.push(row);
        console.log(
          `  ${pad(urlPath + (row.as ? ` (${row.as})` : "") + (row.purges !== null ? ` (${row.purges} purges)` : ""), 28)} ${pad(String(row.status), 4)} ${pad(fmt(row.rps, 0) + " req/s", 12)} p50 ${pad(fmt(row.p50, 1) + " ms", 9)} p99 ${pad(fmt(row.p99, 1) + " ms", 9)}` +
            ` non-2xx ${row.non2xx}${row.errors ? ` errors ${row.errors}` : ""}  server ${fmt(row.serverCpuPerReq, 2)} ms CPU/req` +
            ` (busy ${fmt(100 * row.serverCpuShare, 0)}%, autocannon ${fmt(100 * row.clientCpuShare, 0)}%, load ${fmt(row.load1, 1)})` +
            `  JS ${js ? fmt(js.gzipKb, 1) + " KB gz" : "—"}  X-Cache ${row.xCache}  RSS ${fmt(memory.now(), 0)} MB`,
        );
      }
      await writer?.end();
      const pagesJs = measurePages ? await publicPagesJavaScript(server.base, found.product, jsCache) : null;
      const mem = memory.stop();
      return { kind, origin: postgres?.origin ?? `PGlite in ${dataDir}`, seeded, rows, pagesJs, idleRssMb, ...mem };
    } finally {
      const code = await server?.stop();
      if (server && code !== 0) console.log(`  server exit code ${code}:\n${server.output()}`);
    }
  });
}

// ── Report ───────────────────────────────────────────────────────────────────────────────
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pad = (text, width) => String(text).padEnd(width);
export const fmt = (n, digits) => (n == null || Number.isNaN(n) ? "—" : n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }));
export const label = (kind) => (kind === "pglite" ? "PGlite" : "PostgreSQL");

function machine() {
  const cpuinfo = fs.readFileSync("/proc/cpuinfo", "utf8");
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? "unknown";
  const nproc = spawnSync("nproc", { encoding: "utf8" }).stdout?.trim() || String(os.availableParallelism());
  return {
    nproc,
    model,
    ramGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    load: os.loadavg().map((n) => n.toFixed(2)).join(" / "),
  };
}

function checks(results) {
  const lines = [];
  const check = (ok, text) => lines.push(`${ok ? "PASS" : "FAIL"}  ${text}`);
  for (const r of results) {
    if (r.skipped) {
      lines.push(`SKIPPED  ${label(r.kind)}: ${r.skipped}`);
      continue;
    }
    const db = label(r.kind);
    for (const row of r.rows) {
      const status = row.status === 200 ? "" : ` (status ${row.status})`;
      if (row.strict) {
        const signedIn = row.as === "customer";
        const [rps, p99, who] = signedIn ? [THRESHOLDS.signedInRps, THRESHOLDS.signedInP99, " signed in"] : [THRESHOLDS.rps, THRESHOLDS.p99, ""];
        check(row.status === 200 && row.rps >= rps, `${db} ${row.path}${who}: ${fmt(row.rps, 0)} req/s ≥ ${rps}${status}`);
        check(row.status === 200 && row.p99 < p99, `${db} ${row.path}${who}: p99 ${fmt(row.p99, 1)} ms < ${p99} ms${status}`);
      }
      if (row.renderCpu) {
        check(row.status === 200 && row.serverCpuPerReq <= THRESHOLDS.renderCpuMs, `${db} ${row.path} not cached, one at a time: ${fmt(row.serverCpuPerReq, 2)} ms of server CPU per render ≤ ${THRESHOLDS.renderCpuMs} ms${status}`);
      }
    }
    for (const page of r.pagesJs ?? []) {
      check(page.gzipKb <= THRESHOLDS.jsKb, `${page.path}: ${fmt(page.gzipKb, 1)} KB of gzipped JavaScript ≤ ${THRESHOLDS.jsKb} KB`);
    }
    check(r.peakMb < THRESHOLDS.rssMb, `${db} server memory: peak RSS ${fmt(r.peakMb, 0)} MB < ${THRESHOLDS.rssMb} MB`);
  }
  return lines;
}

function markdown(results, m, checkLines) {
  const out = [];
  out.push(`Run of ${m.date} on ${m.nproc} CPU cores (${m.model}), ${fmt(m.ramGb, 1)} GB RAM, Node ${m.node};`);
  out.push(`load average at start ${m.load}. autocannon ${CONNECTIONS} connections (1 on the rows "one request at a time"), ${DURATION} s per URL after a ${WARMUP} s warm-up,`);
  out.push(`\`Accept-Encoding: gzip, deflate, br\`, on the same machine as the server. ${PRODUCTS} products seeded.`);
  if (BUSY) out.push("", `**The machine was already busy when this run started (load average ${m.load} on ${m.nproc} cores): other work shared the CPU, so req/s and latencies are lower and noisier than on an idle machine; server CPU ms/req is the figure least affected.**`);
  for (const r of results) {
    out.push("", `### ${label(r.kind)}`, "");
    if (r.skipped) {
      out.push(`SKIPPED: ${r.skipped}.`);
      continue;
    }
    out.push(`Database: ${r.kind === "pglite" ? "PGlite (temporary DATA_DIR)" : r.origin}. Server memory: ${fmt(r.idleRssMb, 0)} MB RSS when ready, peak ${fmt(r.peakMb, 0)} MB (VmHWM).`, "");
    out.push("| URL | status | req/s | p50 ms | p99 ms | non-2xx / errors | server CPU ms/req | X-Cache (before → after) | body KB | JS gzip KB (files) | load avg |");
    out.push("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|");
    for (const row of r.rows) {
      const js = row.js ? `${fmt(row.js.gzipKb, 1)} (${row.js.files})` : row.as || row.purges !== null ? "(as above)" : "— (JSON)";
      const who = { customer: " signed in (a customer's session cookie)", uncached: " not cached (Authorization header: a full render)" }[row.as] ?? "";
      out.push(
        `| \`${row.path}\`${who}${row.purges !== null ? ` while a stock changes (${row.purges} purges)` : ""}${row.connections === 1 ? ", one request at a time" : ""} | ${row.status} | ${fmt(row.rps, 0)} | ${fmt(row.p50, 1)} | ${fmt(row.p99, 1)} | ${row.non2xx} / ${row.errors} | ${fmt(row.serverCpuPerReq, 2)} | ${row.xCache} | ${fmt(row.htmlKb, 0)} | ${js} | ${fmt(row.load1, 1)} |`,
      );
    }
  }
  const pagesJs = results.find((r) => r.pagesJs)?.pagesJs;
  if (pagesJs) {
    out.push("", "### JavaScript of every public page", "", "What a browser loads on arrival (the same build whatever the database): the files the HTML names and their static imports, gzip level 9.", "");
    out.push("| Page | status | JS gzip KB | files |", "|---|---:|---:|---:|");
    for (const page of pagesJs) out.push(`| \`${page.path}\` | ${page.status} | ${fmt(page.gzipKb, 1)} | ${page.files} |`);
  }
  out.push("", "Checks against the targets:", "", "```", ...checkLines, "```");
  return out.join("\n");
}

const START = "<!-- bench:figures:start (written by `npm run bench`, do not edit by hand) -->";
const END = "<!-- bench:figures:end -->";

/**
 * Replaces what lies between two markers of docs/performance.md; when they are missing, appends
 * `heading` and the markers at the end.
 */
function writeDoc(section, start = START, end = END, heading = "## Figures") {
  const file = path.join(root, "docs", "performance.md");
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Performance\n";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${current.slice(0, from + start.length)}\n${section}\n${current.slice(to)}`
      : `${current.trimEnd()}\n\n${heading}\n\n${start}\n${section}\n${end}\n`;
  fs.writeFileSync(file, next);
  return path.relative(root, file);
}

// ── Main ─────────────────────────────────────────────────────────────────────────────────
export const BUSY = os.loadavg()[0] > 1;

async function main() {
  const scenario = args.scenario;
  if (!["pages", "drop", "admin", "dashboard", "search", "preorder", "all"].includes(scenario)) {
    console.error(`--scenario ${scenario}: expected pages, drop, admin, dashboard, search, preorder or all`);
    return 1;
  }
  const kinds = args.db ? [args.db] : ["pglite", "postgres"];
  if (!kinds.every((kind) => kind === "pglite" || kind === "postgres")) {
    console.error(`--db ${args.db}: expected pglite or postgres`);
    return 1;
  }
  const m = machine();
  console.log(`Comptoir bench: ${m.nproc} cores (${m.model}), Node ${m.node}, load average ${m.load}`);
  if (scenario === "pages" || scenario === "all") console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s per URL, ${WARMUP} s warm-up; ${PRODUCTS} products`);
  if (scenario === "admin" || scenario === "all") {
    console.log(`admin list: autocannon ${ADMIN.connections} connections, ${ADMIN.duration} s per URL after a ${ADMIN.warmup} s warm-up; ${ADMIN.products} products`);
  }
  if (BUSY) console.log(`NOTE: the machine is already busy (load average ${m.load} on ${m.nproc} cores): figures will be low and noisy.`);
  try {
    ensureBuild();
  } catch (error) {
    console.error(error.message);
    return 1;
  }

  let failedRun = false;
  const allChecks = [];
  /** Runs one scenario on every database, then prints and writes its figures and checks. */
  async function run(name, bench, toChecks, toMarkdown, markers) {
    const results = [];
    for (const [i, kind] of kinds.entries()) {
      try {
        const result = await bench(kind, i);
        if (result.skipped) console.log(`\n━━ SKIPPED: ${label(kind)} (${result.skipped})`);
        results.push(result);
      } catch (error) {
        console.error(`\n${label(kind)}${name !== "pages" ? ` ${name} scenario` : ""}: the run failed: ${error.message}`);
        failedRun = true;
      }
    }
    const lines = toChecks(results);
    console.log(`\n━━ Checks${name !== "pages" ? ` (${name} scenario)` : ""}`);
    for (const line of lines) console.log(`  ${line}`);
    allChecks.push(...lines);
    if (results.length > 0 && !args["no-write"]) {
      console.log(`\nFigures written to ${writeDoc(toMarkdown(results, m, lines), ...markers)}`);
    }
  }

  const runs = (name) => scenario === name || scenario === "all";
  if (runs("pages")) await run("pages", (kind, i) => benchDatabase(kind, BASE_PORT + i, { measurePages: i === 0 }), checks, markdown, [START, END, "## Figures"]);
  if (runs("drop")) {
    // Ports after the pages' ones; two per database (two instances on PostgreSQL).
    // BENCH_DROP_PARTS=rush or room: one of the two (the rush without a waiting room, issue 39's room).
    const parts = (process.env.BENCH_DROP_PARTS ?? "rush,room").split(",");
    if (parts.includes("rush")) await run("drop", (kind, i) => benchDrop(kind, { port: BASE_PORT + 10 + 2 * i }), dropChecks, dropMarkdown, [DROP_START, DROP_END, "## Drop scenario: figures"]);
    // Ports after the search's ones.
    if (parts.includes("room")) {
      await run("drop room", (kind, i) => benchDropRoom(kind, { port: BASE_PORT + 40 + 2 * i }), roomChecks, roomMarkdown, [ROOM_START, ROOM_END, "## Drop with a waiting room: figures"]);
    }
  }
  // Ports after the drop's ones.
  if (runs("admin")) await run("admin", (kind, i) => benchAdmin(kind, { port: BASE_PORT + 20 + i }), adminChecks, adminMarkdown, [ADMIN_START, ADMIN_END, "## Admin product list: figures"]);
  // Ports after the waiting room's ones.
  if (runs("dashboard")) await run("dashboard", (kind, i) => benchDashboard(kind, { port: BASE_PORT + 50 + i }), dashboardChecks, dashboardMarkdown, [DASHBOARD_START, DASHBOARD_END, "## Seller's dashboard: figures"]);
  // Ports after the admin list's ones.
  if (runs("search")) await run("search", (kind, i) => benchSearch(kind, { port: BASE_PORT + 30 + i }), searchChecks, searchMarkdown, [SEARCH_START, SEARCH_END, "## Search: figures"]);
  // Ports after the dashboard's ones; two per database (two instances on PostgreSQL).
  if (runs("preorder")) await run("preorder", (kind, i) => benchPreorder(kind, { port: BASE_PORT + 60 + 2 * i }), preorderChecks, preorderMarkdown, [PREORDER_START, PREORDER_END, "## Pre-orders: figures"]);

  const fails = allChecks.filter((line) => line.startsWith("FAIL")).length;
  if (failedRun) console.log("\nThe run itself failed (see above): exit code 1.");
  else console.log(fails ? `\n${fails} FAIL line(s): targets not met (a measurement, the exit code stays 0).` : "\nAll targets met.");
  return failedRun ? 1 : 0;
}

// Only when run (`npm run bench`), not when bench-drop.mjs imports the helpers above.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) process.exit(await main());
