// The drop scenario of `npm run bench` (`npm run bench -- --scenario drop`): a product with 10
// units opens at a set time; 500 open product pages listen for changes (Server-Sent Events, as
// the browser's useLiveUpdates does) and 1,000 buyers, each from its own address and on its own
// connection, POST /api/checkout for one unit at the same moment. Then the 10 reserved orders
// are paid through the test payment page and the reservation sweeper runs 31 minutes ahead.
// PGlite: one server; PostgreSQL: two instances on the same database, buyers and pages split
// between them. Reports counts, latencies, how soon the pages showed "sold out", and checks
// that no unit was sold twice.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import pg from "pg";
import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from "react-router";
import { BUSY, HEADERS, cpuMs, fmt, get, label, root, seed, sleep, startServer, withScenarioDatabase } from "./bench.mjs";

export const DROP = {
  stock: 10,
  // BENCH_DROP_BUYERS / BENCH_DROP_LISTENERS: other sizes, to see where the time goes.
  buyers: Number(process.env.BENCH_DROP_BUYERS ?? 1000),
  listeners: Number(process.env.BENCH_DROP_LISTENERS ?? 500),
  /** As app/lib/use-live-updates.ts: a burst of events is one refetch, 150 ms after the last. */
  coalesceMs: 150,
  p99Ms: 500,
  /** PGlite: the drop time is seeded before the server opens the data directory. */
  leadPgliteMs: 45_000,
  /** PostgreSQL: set once both instances are up. */
  leadPostgresMs: 15_000,
  /**
   * Before the drop each server answers this many refused checkouts (another product, more
   * units than its stock, addresses apart from the buyers') and page refetches: a shop that has
   * been up has run these code paths already; a fresh process would time V8 warming them up.
   */
  warmupCheckouts: Number(process.env.BENCH_DROP_WARMUP ?? 1000),
  /** Buyers' connections are opened this long before the drop (then idle until it). */
  connectBeforeMs: 4_000,
  answerTimeoutMs: 30_000,
  /** How long pages may still take to show "sold out" after the last checkout answer. */
  listenAfterMs: 30_000,
};

export const DROP_START = "<!-- bench:drop:start (written by `npm run bench`, do not edit by hand) -->";
export const DROP_END = "<!-- bench:drop:end -->";

// ── Database side (scripts/bench-drop-db.ts) ─────────────────────────────────────────────
/** Runs a command of scripts/bench-drop-db.ts (the room's part, bench-drop-fair.mjs, too); its last line of JSON. */
export function dropDb(command, env) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench-drop-db.ts", command], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", ...env },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`bench-drop-db.ts ${command} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").pop());
}

// ── Reading the stock a page shows ───────────────────────────────────────────────────────
/**
 * GET {page}.data, the request React Router's single fetch makes when a page revalidates, and
 * the product its loader returned (null when the page has none), decoded by React Router's own
 * turbo-stream decoder: the stock is read as the browser reads it.
 */
async function readProductData(base, pagePath) {
  const started = performance.now();
  const res = await get(base + pagePath + ".data", HEADERS);
  const { value } = await decodeTurboStream(new Response(res.body).body, globalThis);
  return { status: res.status, product: value?.["routes/product"]?.data?.product ?? null, ms: performance.now() - started };
}

/** The stock of product `id` in a decoded answer; null when the answer does not show it. */
function stockOf(product, id) {
  return product && product.id === id && Number.isInteger(product.stock) ? product.stock : null;
}

/**
 * Before trusting it with the drop, the reader must give back stocks the database knows: a
 * product in stock (exact figure), a sold-out one (0), and the drop product not shown yet.
 */
async function validateReader(base, known) {
  const expect = async (page, id, expected, what) => {
    const answer = await readProductData(base, page);
    const stock = stockOf(answer.product, id);
    if (stock !== expected) throw new Error(`stock reader: ${what} ${page}.data read as ${stock} (status ${answer.status}), expected ${expected}`);
  };
  if (!known.inStock) throw new Error("stock reader: no public product in stock to validate it against");
  await expect(known.inStock.path, known.inStock.id, known.inStock.stock, "in-stock product");
  if (known.soldOut) await expect(known.soldOut.path, known.soldOut.id, 0, "sold-out product");
  await expect(known.drop.path, known.drop.id, null, "drop product before its time");
  return `${known.inStock.path} read ${known.inStock.stock} in stock${known.soldOut ? `, ${known.soldOut.path} read 0` : ""}, the drop product not shown before its time`;
}

// ── Listening pages ──────────────────────────────────────────────────────────────────────
/**
 * One open product page: an SSE stream on /api/live; each `catalog` event (coalesced over
 * 150 ms) refetches the page's .data. One refetch at a time: an event during a refetch queues
 * one more after it. Resolves once the stream has started.
 */
function openListener(server, index, drop, log) {
  const listener = { index, instance: server.index, events: 0, fetches: 0, fetchErrors: 0, onSaleMs: null, soldOutMs: null, lastStock: undefined, streamEnded: false };
  let timer;
  let inFlight = false;
  let again = false;
  let closed = false;

  async function refetch() {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    do {
      again = false;
      listener.fetches += 1;
      const startedAt = performance.now();
      try {
        const answer = await readProductData(server.base, drop.path);
        log.push({ instance: server.index, startedAt, ms: answer.ms, status: answer.status });
        const stock = stockOf(answer.product, drop.id);
        const sinceDrop = Date.now() - drop.at;
        listener.lastStock = stock;
        if (stock !== null && stock > 0) listener.onSaleMs ??= sinceDrop;
        if (stock === 0) listener.soldOutMs ??= sinceDrop;
      } catch {
        listener.fetchErrors += 1;
      }
    } while (again && !closed);
    inFlight = false;
  }

  return new Promise((resolve, reject) => {
    const req = http.get(server.base + "/api/live", { agent: false, headers: { accept: "text/event-stream", "user-agent": HEADERS["user-agent"], "x-forwarded-for": visitorAddress(12, index) } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`/api/live answered ${res.statusCode}`));
        return;
      }
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.split("\n").includes("event: catalog")) {
            listener.events += 1;
            listener.lastEventMs = Date.now() - drop.at;
            clearTimeout(timer);
            timer = setTimeout(refetch, DROP.coalesceMs);
          }
        }
        resolve(listener); // the stream starts with "retry: 2000"
      });
      res.on("end", () => (listener.streamEnded = !closed));
      res.on("error", () => (listener.streamEnded = !closed));
    });
    req.on("error", (error) => {
      listener.streamEnded = !closed;
      reject(error);
    });
    listener.close = () => {
      closed = true;
      clearTimeout(timer);
      req.destroy();
    };
  });
}

/** The address a visitor's requests come from (X-Forwarded-For, the servers trust loopback): one per visitor, 10.x.y.z for buyers. */
function visitorAddress(network, index) {
  const n = index + 1;
  return `${network}.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

// ── Buyers ───────────────────────────────────────────────────────────────────────────────
/**
 * One buyer: its own TCP connection, opened beforehand, and its request written out in full at
 * fire() (`Connection: close`: the answer ends with the connection). Resolves once connected.
 */
function connectBuyer(server, index, productId, { quantity = 1, network = 10 } = {}) {
  const { hostname, port } = new URL(server.base);
  const ip = visitorAddress(network, index);
  const body = JSON.stringify({ items: [{ productId, quantity }], insuranceSelected: false });
  const request = Buffer.from(
    [
      "POST /api/checkout HTTP/1.1",
      `Host: ${hostname}:${port}`,
      `Origin: ${server.base}`,
      "Content-Type: application/json",
      "Accept: application/json",
      `User-Agent: ${HEADERS["user-agent"]}`,
      `X-Forwarded-For: ${ip}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
  const buyer = { index, instance: server.index, ip, status: null, code: null, url: null, error: null, sentAt: null, doneAt: null, ms: null };
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.setNoDelay(true);
    const chunks = [];
    let connected = false;
    let settle;
    buyer.done = new Promise((r) => (settle = r));
    const finish = (error) => {
      if (buyer.doneAt !== null) return;
      buyer.doneAt = performance.now();
      if (error || buyer.sentAt === null) {
        buyer.error = error ?? "connection closed before the request was sent";
      } else {
        const answer = parseHttpResponse(Buffer.concat(chunks));
        if (answer.status) {
          buyer.status = answer.status;
          buyer.ms = buyer.doneAt - buyer.sentAt;
          try {
            const json = JSON.parse(answer.body);
            buyer.code = json.code ?? null;
            buyer.url = json.url ?? null;
          } catch {
            // not JSON (an error page): the status says enough
          }
        } else {
          buyer.error = "connection closed without an answer";
        }
      }
      settle(buyer);
    };
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      // Complete when the whole answer is in, as fetch() resolves; the server's closing of the
      // connection can come seconds later under load.
      if (isCompleteHttpResponse(Buffer.concat(chunks))) {
        finish();
        socket.destroy();
      }
    });
    socket.on("end", () => finish());
    socket.on("close", () => finish(chunks.length ? undefined : "connection closed without an answer"));
    socket.on("error", (error) => (connected ? finish(error.code ?? error.message) : reject(error)));
    socket.once("connect", () => {
      connected = true;
      resolve(buyer);
    });
    buyer.fire = () => {
      buyer.sentAt = performance.now();
      socket.write(request);
      socket.setTimeout(DROP.answerTimeoutMs, () => {
        finish("timeout");
        socket.destroy();
      });
    };
  });
}

/**
 * Each server refuses `count` checkouts of a product in stock (one unit more than its stock,
 * from 11.x.y.z: not the buyers' addresses) and serves as many page refetches, 100 at a time,
 * on fresh connections like the buyers'. Answers other than 409 OUT_OF_STOCK stop the bench.
 */
async function warmUp(servers, inStock, count) {
  if (!count || !inStock) return "none";
  for (const server of servers) {
    for (let start = 0; start < count; start += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, count - start) }, (_, k) => connectBuyer(server, start + k, inStock.id, { quantity: inStock.stock + 1, network: 11 })),
      );
      for (const buyer of batch) buyer.fire();
      await Promise.all([...batch.map((b) => b.done), ...Array.from({ length: batch.length }, () => readProductData(server.base, inStock.path))]);
      const wrong = batch.find((b) => b.status !== 409 || b.code !== "OUT_OF_STOCK");
      if (wrong) throw new Error(`warm-up: a refused checkout answered ${wrong.status ?? wrong.error} ${wrong.code ?? ""}`);
    }
  }
  return `${count} refused checkouts (${inStock.path}, ${inStock.stock + 1} units) and ${count} page refetches per server`;
}

/** Whether an answer has arrived in full (Content-Length reached, or the last chunk). */
function isCompleteHttpResponse(buffer) {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd < 0) return false;
  const head = buffer.subarray(0, headEnd).toString("latin1");
  const length = /^content-length:\s*(\d+)/im.exec(head);
  if (length) return buffer.length - headEnd - 4 >= Number(length[1]);
  if (/^transfer-encoding:\s*chunked/im.test(head)) return buffer.subarray(buffer.length - 5).toString("latin1") === "0\r\n\r\n";
  return false;
}

function parseHttpResponse(buffer) {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd < 0) return { status: null, body: "" };
  const head = buffer.subarray(0, headEnd).toString("latin1");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]) || null;
  let body = buffer.subarray(headEnd + 4);
  if (/^transfer-encoding:\s*chunked/im.test(head)) {
    const parts = [];
    for (let at = 0; ; ) {
      const eol = body.indexOf("\r\n", at);
      const size = eol < 0 ? 0 : parseInt(body.subarray(at, eol).toString("latin1"), 16);
      if (!size) break;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status, body: body.toString("utf8") };
}

/** Opens connections `batch` at a time (the server's listen backlog is 511). */
async function inBatches(count, batch, open) {
  const out = [];
  for (let start = 0; start < count; start += batch) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, k) => open(start + k)))));
  }
  return out;
}

// ── Payment through the test provider's page ─────────────────────────────────────────────
/** The test payment page's form for a buyer: paid with the test card, delivered to `line1`. */
export function testPaymentForm({ email, fullName, line1 }) {
  return {
    intent: "pay",
    email,
    method: "home",
    fullName,
    line1,
    line2: "",
    postalCode: "75011",
    city: "Paris",
    country: "FR",
    phone: "0612345678",
    cardNumber: "4242424242424242",
    cardExpiry: "12/30",
    cardCvc: "123",
    // « Adresse de facturation identique », ticked as the page shows it.
    billingSame: "on",
  };
}

async function pay(url, n) {
  const form = new URLSearchParams(testPaymentForm({ email: `acheteur${n}@example.com`, fullName: `Client Drop ${n}`, line1: "12 rue des Collectionneurs" }));
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(url).origin, "user-agent": HEADERS["user-agent"] },
    body: form,
  });
  await res.arrayBuffer();
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, ok: (res.status === 302 || res.status === 303) && location.includes("/merci?success=true"), ms: performance.now() - started };
}

// ── Measures ─────────────────────────────────────────────────────────────────────────────
function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const spread = (values) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: values.length ? Math.max(...values) : null });

/**
 * The postmaster of the bench's PostgreSQL when it runs on this machine (the parent of one of
 * its backends), else null: its processes' CPU can then be told from other clusters'.
 */
async function findPostmaster(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select pg_backend_pid() as pid");
    const status = fs.readFileSync(`/proc/${rows[0].pid}/status`, "utf8");
    return Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) || null;
  } catch {
    return null; // not on this machine
  } finally {
    await client.end();
  }
}

/** CPU used so far by a postmaster and its children (backends, writers…), in ms. */
function postgresCpuMs(postmaster) {
  let total = cpuMs(postmaster) || 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]) === postmaster) total += cpuMs(Number(entry)) || 0;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * PostgreSQL only: samples the servers' sessions every 100 ms during the rush (how many wait on
 * a lock, how many hold a transaction open while their server does something else) and the
 * drop product's stock, to tell when the last unit went.
 */
function startActivitySampler(url, productId, dropAt) {
  const client = new pg.Client({ connectionString: url });
  const samples = [];
  let stockZeroMs = null;
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query(
        `select count(*) filter (where wait_event_type = 'Lock')::int as lock_waits,
                count(*) filter (where state = 'idle in transaction')::int as idle_in_tx,
                count(*) filter (where state = 'active')::int as active,
                (select stock from products where id = $1) as stock
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        [productId],
      );
      const row = rows[0];
      samples.push(row);
      if (row.stock === 0) stockZeroMs ??= Date.now() - dropAt;
      await sleep(100);
    }
    await client.end();
  })();
  return async () => {
    stopped = true;
    await loop.catch(() => {});
    const mean = (key) => (samples.length ? samples.reduce((a, r) => a + r[key], 0) / samples.length : null);
    const max = (key) => (samples.length ? Math.max(...samples.map((r) => r[key])) : null);
    return { samples: samples.length, lockWaitsMax: max("lock_waits"), lockWaitsMean: mean("lock_waits"), idleInTxMax: max("idle_in_tx"), activeMax: max("active"), stockZeroMs };
  };
}

/** CPU time the whole machine has been busy so far (all cores, /proc/stat), in ms. */
export function machineBusyMs() {
  const [, user, nice, system, , , irq, softirq, steal] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) * CLOCK_MS;
}
const CLOCK_MS = 1000 / (Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100);

export function countBy(items, key) {
  const counts = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function summarize(buyers, listeners, fireAt) {
  const answered = buyers.filter((b) => b.status !== null);
  // Anything else below 500 (in practice 4xx: 409 UNAVAILABLE before the drop time, 429, 403…).
  const other4xx = countBy(
    answered.filter((b) => b.status !== 200 && b.status < 500 && b.code !== "OUT_OF_STOCK"),
    (b) => `${b.status}${b.code ? ` ${b.code}` : ""}`,
  );
  const lastAnswer = Math.max(...answered.map((b) => b.doneAt));
  const soldOut = listeners.filter((l) => l.soldOutMs !== null).map((l) => l.soldOutMs);
  return {
    buyers: buyers.length,
    reserved: answered.filter((b) => b.status === 200).length,
    outOfStock: answered.filter((b) => b.status === 409 && b.code === "OUT_OF_STOCK").length,
    other4xx,
    other4xxCount: Object.values(other4xx).reduce((a, b) => a + b, 0),
    s5xx: answered.filter((b) => b.status >= 500).length,
    errors: buyers.filter((b) => b.error && b.error !== "timeout").length,
    timeouts: buyers.filter((b) => b.error === "timeout").length,
    errorKinds: [...new Set(buyers.filter((b) => b.error).map((b) => b.error))],
    latency: { ...spread(answered.map((b) => b.ms)), min: answered.length ? Math.min(...answered.map((b) => b.ms)) : null },
    answersPerS: answered.length > 0 ? answered.length / ((lastAnswer - fireAt) / 1000) : 0,
    rushMs: answered.length > 0 ? lastAnswer - fireAt : null,
    listeners: listeners.length,
    sawSoldOut: soldOut.length,
    soldOut: spread(soldOut),
    onSale: spread(listeners.filter((l) => l.onSaleMs !== null).map((l) => l.onSaleMs)),
    events: spread(listeners.map((l) => l.events)),
    lastEvent: spread(listeners.filter((l) => l.lastEventMs !== undefined).map((l) => l.lastEventMs)),
    fetches: listeners.reduce((a, l) => a + l.fetches, 0),
    fetchErrors: listeners.reduce((a, l) => a + l.fetchErrors, 0),
    streamsEnded: listeners.filter((l) => l.streamEnded).length,
    /** What the pages that never saw "sold out" showed last (a stock, or "none" for no answer). */
    missedShowed: countBy(listeners.filter((l) => l.soldOutMs === null), (l) => (l.lastStock === undefined ? "no answer" : l.lastStock === null ? "no product" : `stock ${l.lastStock}`)),
  };
}

// ── The scenario on one database ─────────────────────────────────────────────────────────
export async function benchDrop(kind, { port }) {
  return withScenarioDatabase(kind, "comptoir-drop", { TRUST_PROXY: "loopback" }, async ({ env, postgres }) => {
    const servers = [];
    let listeners = [];
    let buyers = [];
    try {
      const instances = kind === "postgres" ? 2 : 1;
      console.log(`\n━━ Drop scenario, ${label(kind)}${postgres ? ` — ${postgres.origin}, ${instances} server instances` : ""}`);
      const seeded = seed(env);
      // PGlite: the drop time goes in now, before the server opens the directory; PostgreSQL: far
      // ahead for now, brought forward once the servers are up.
      const seededDropAt = new Date(Date.now() + (kind === "pglite" ? DROP.leadPgliteMs : 3_600_000));
      const known = dropDb("seed", { ...env, DROP_AT: seededDropAt.toISOString(), DROP_STOCK: String(DROP.stock) });
      console.log(`  seeded ${seeded.total} products + the drop product ${known.drop.path} (stock ${known.drop.stock}, a_venir)`);

      for (let i = 0; i < instances; i++) {
        // One after the other: a fresh DATA_DIR gets its secret and sample images from the first.
        const started = Date.now();
        const server = await startServer(env, port + i);
        servers.push(Object.assign(server, { index: i, name: instances > 1 ? `instance ${String.fromCharCode(65 + i)}` : "server" }));
        console.log(`  ${servers[i].name} ready on ${server.base} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${server.pid}, TRUST_PROXY=loopback)`);
      }

      let dropAt = seededDropAt.getTime();
      if (kind === "postgres") {
        dropAt = Date.now() + DROP.leadPostgresMs;
        const client = new pg.Client({ connectionString: postgres.url });
        await client.connect();
        await client.query("update products set drop_time = $1 where id = $2", [new Date(dropAt), known.drop.id]);
        await client.end();
      }
      const drop = { id: known.drop.id, path: known.drop.path, at: dropAt };
      console.log(`  drop at ${new Date(dropAt).toISOString()} (in ${((dropAt - Date.now()) / 1000).toFixed(1)} s)`);
      console.log(`  stock reader checked: ${await validateReader(servers[0].base, known)}`);

      const fetchLog = [];
      listeners = await inBatches(DROP.listeners, 50, (i) => openListener(servers[i % instances], i, drop, fetchLog));
      console.log(`  ${listeners.length} pages listening on /api/live${instances > 1 ? " (split between the instances)" : ""}`);

      const warmed = await warmUp(servers, known.inStock, DROP.warmupCheckouts);
      console.log(`  warm-up: ${warmed}`);

      const untilConnect = dropAt - DROP.connectBeforeMs - Date.now();
      if (untilConnect > 0) await sleep(untilConnect);
      buyers = await inBatches(DROP.buyers, 100, (i) => connectBuyer(servers[i % instances], i, drop.id));
      const margin = dropAt - Date.now();
      if (margin < 200) throw new Error(`not ready in time: the buyers were connected ${-margin} ms after the drop time (start-up too slow)`);
      console.log(`  ${buyers.length} buyers connected, each with its own X-Forwarded-For; firing in ${(margin / 1000).toFixed(1)} s`);

      // ── The rush ──
      const postmaster = postgres ? await findPostmaster(postgres.url) : null;
      const loopDelay = monitorEventLoopDelay({ resolution: 5 });
      await sleep(Math.max(0, dropAt - Date.now() - 30));
      const stopActivity = postgres ? startActivitySampler(postgres.url, drop.id, dropAt) : null;
      const cpu0 = { servers: servers.map((s) => cpuMs(s.pid)), postgres: postmaster ? postgresCpuMs(postmaster) : 0, bench: process.cpuUsage(), machine: machineBusyMs() };
      while (Date.now() < dropAt) {
        // spin the last milliseconds: every request leaves at the drop time, not a timer's later
      }
      loopDelay.enable();
      const fireAt = performance.now();
      const fireWall = Date.now();
      for (const buyer of buyers) buyer.fire();
      const fireSpreadMs = performance.now() - fireAt;
      await Promise.all(buyers.map((b) => b.done));
      const rushEnd = performance.now();
      loopDelay.disable();
      const benchCpu = process.cpuUsage(cpu0.bench);
      const cpu = {
        windowMs: rushEnd - fireAt,
        servers: servers.map((s, i) => cpuMs(s.pid) - cpu0.servers[i]),
        postgres: postmaster ? postgresCpuMs(postmaster) - cpu0.postgres : null,
        bench: (benchCpu.user + benchCpu.system) / 1000,
        machine: machineBusyMs() - cpu0.machine,
        cores: os.availableParallelism(),
        loopDelayP99: loopDelay.percentile(99) / 1e6,
        loopDelayMax: loopDelay.max / 1e6,
      };
      const activity = stopActivity ? await stopActivity() : null;
      const rush = summarize(buyers, [], fireAt);
      console.log(
        `  rush: ${rush.reserved} reserved, ${rush.outOfStock} OUT_OF_STOCK, ${rush.other4xxCount} other 4xx, ${rush.s5xx} 5xx, ${rush.errors} errors, ${rush.timeouts} timeouts;` +
          ` ${fmt(rush.answersPerS, 0)} answers/s over ${fmt(rush.rushMs, 0)} ms, p50 ${fmt(rush.latency.p50, 0)} ms, p99 ${fmt(rush.latency.p99, 0)} ms, max ${fmt(rush.latency.max, 0)} ms` +
          ` (requests written in ${fmt(fireSpreadMs, 1)} ms, ${fmt(fireWall - dropAt, 0)} ms after the drop time)`,
      );

      console.log(
        `  during the rush (${fmt(cpu.windowMs, 0)} ms): server CPU ${cpu.servers.map((c) => `${fmt(c, 0)} ms (${fmt((100 * c) / cpu.windowMs, 0)}%)`).join(" + ")}` +
          `${cpu.postgres !== null ? `, PostgreSQL ${fmt(cpu.postgres, 0)} ms (${fmt((100 * cpu.postgres) / cpu.windowMs, 0)}%)` : ""}, bench ${fmt(cpu.bench, 0)} ms (${fmt((100 * cpu.bench) / cpu.windowMs, 0)}%),` +
          ` event-loop delay p99 ${fmt(cpu.loopDelayP99, 1)} ms; other work on the machine ${fmt(otherCpu(cpu), 0)} ms (${fmt((100 * otherCpu(cpu)) / cpu.windowMs, 0)}% of a core, ${cpu.cores} cores)`,
      );
      if (activity) {
        console.log(
          `  PostgreSQL sessions (${activity.samples} samples): up to ${activity.lockWaitsMax} waiting on a lock (mean ${fmt(activity.lockWaitsMean, 1)}), up to ${activity.idleInTxMax} idle in transaction, up to ${activity.activeMax} active;` +
            ` stock 0 in the database ${fmt(activity.stockZeroMs, 0)} ms after the drop`,
        );
      }

      // Stock right after the rush: PostgreSQL from the database; PGlite (open in the server) as
      // the shop shows it, and from the database once the server has stopped (below).
      let stockAfterRush;
      if (postgres) {
        const client = new pg.Client({ connectionString: postgres.url });
        await client.connect();
        stockAfterRush = Number((await client.query("select stock from products where id = $1", [drop.id])).rows[0]?.stock);
        await client.end();
      } else {
        stockAfterRush = stockOf((await readProductData(servers[0].base, drop.path)).product, drop.id);
      }

      // ── The pages see it sold out ──
      const listenDeadline = Date.now() + DROP.listenAfterMs;
      while (listeners.some((l) => l.soldOutMs === null) && Date.now() < listenDeadline) await sleep(50);
      for (const listener of listeners) listener.close();
      const all = summarize(buyers, listeners, fireAt);
      const rushFetches = fetchLog.filter((f) => f.startedAt >= fireAt && f.startedAt <= rushEnd);
      const fetches = { total: fetchLog.length, duringRush: rushFetches.length, latency: spread(fetchLog.map((f) => f.ms)), non200: fetchLog.filter((f) => f.status !== 200).length };
      console.log(
        `  pages: ${all.sawSoldOut}/${all.listeners} saw it sold out, p50 ${fmt(all.soldOut.p50, 0)} ms, p99 ${fmt(all.soldOut.p99, 0)} ms, max ${fmt(all.soldOut.max, 0)} ms after the drop;` +
          ` ${fetches.total} .data refetches (${fetches.duringRush} during the rush), p50 ${fmt(fetches.latency.p50, 0)} ms, p99 ${fmt(fetches.latency.p99, 0)} ms;` +
          ` last catalog event received p50 ${fmt(all.lastEvent.p50, 0)} ms, max ${fmt(all.lastEvent.max, 0)} ms after the drop`,
      );

      // ── Payment of the reserved orders ──
      const reserved = buyers.filter((b) => b.status === 200 && b.url);
      const payments = [];
      for (const [n, buyer] of reserved.entries()) {
        try {
          payments.push(await pay(buyer.url, n + 1));
        } catch (error) {
          payments.push({ ok: false, status: null, location: "", error: error.message });
        }
      }
      const paidOk = payments.filter((p) => p.ok).length;
      console.log(`  payments: ${paidOk}/${reserved.length} redirected to /merci?success=true (p50 ${fmt(percentile(payments.map((p) => p.ms ?? 0), 50), 0)} ms)`);

      for (const server of servers) {
        const code = await server.stop();
        if (code !== 0) console.log(`  ${server.name} exit code ${code}:\n${server.output()}`);
      }
      // Errors the servers logged (pino level 50+, or a console.error such as "checkout: …").
      const serverErrors = servers.flatMap((s) => s.output().split("\n").filter((line) => /"level":(50|60)|^checkout:|Error/.test(line)));
      if (serverErrors.length > 0) console.log(`  the servers logged ${serverErrors.length} error line(s), first ones:\n    ${serverErrors.slice(0, 3).join("\n    ")}`);
      const database = dropDb("verify", { ...env, DROP_PRODUCT_ID: String(drop.id) });
      const count = (state, status) => state.orders[status]?.orders ?? 0;
      console.log(
        `  database: stock ${database.before.stock}, orders ${JSON.stringify(database.before.orders)};` +
          ` sweeper 31 min later released ${database.released}, stock ${database.after.stock}, ${count(database.after, "paid")} paid, ${count(database.after, "pending_payment")} pending`,
      );

      const perInstance =
        instances > 1
          ? servers.map((s) => ({
              name: s.name,
              ...summarize(
                buyers.filter((b) => b.instance === s.index),
                listeners.filter((l) => l.instance === s.index),
                fireAt,
              ),
              cpuMs: cpu.servers[s.index],
              fetchesDuringRush: rushFetches.filter((f) => f.instance === s.index).length,
            }))
          : [];
      for (const p of perInstance) {
        console.log(
          `  ${p.name}: ${p.reserved} reserved, ${p.outOfStock} OUT_OF_STOCK, ${p.other4xxCount} other 4xx, ${p.s5xx} 5xx, ${p.errors + p.timeouts} errors/timeouts; p50 ${fmt(p.latency.p50, 0)} ms, p99 ${fmt(p.latency.p99, 0)} ms, max ${fmt(p.latency.max, 0)} ms;` +
            ` pages saw it sold out ${p.sawSoldOut}/${p.listeners}, p50 ${fmt(p.soldOut.p50, 0)} ms, p99 ${fmt(p.soldOut.p99, 0)} ms, max ${fmt(p.soldOut.max, 0)} ms`,
        );
      }
      return {
        kind,
        origin: postgres?.origin ?? "PGlite (temporary DATA_DIR)",
        instances,
        seeded,
        drop: known.drop,
        dropAt: new Date(dropAt).toISOString(),
        fireLateMs: fireWall - dropAt,
        fireSpreadMs,
        all,
        perInstance,
        cpu,
        activity,
        fetches,
        stockAfterRush,
        payments: { reserved: reserved.length, ok: paidOk, statuses: payments.map((p) => p.status), p50: percentile(payments.map((p) => p.ms ?? 0), 50) },
        database,
        serverErrors: serverErrors.length,
      };
    } catch (error) {
      // A server that is gone explains most failures (ECONNREFUSED…): say so, with what it printed.
      const gone = servers.filter((s) => s.exitCode() !== undefined);
      if (gone.length > 0) {
        error.message += gone.map((s) => `\n  ${s.name} (pid ${s.pid}) had exited (${s.exitCode()}) before the end of the scenario; its output:\n${s.output().slice(-2000)}`).join("");
      }
      throw error;
    } finally {
      for (const listener of listeners) listener.close();
      for (const server of servers) await server.stop();
    }
  });
}

// ── Checks and report ────────────────────────────────────────────────────────────────────
export function dropChecks(results) {
  const lines = [];
  const check = (ok, text) => lines.push(`${ok ? "PASS" : "FAIL"}  ${text}`);
  for (const r of results) {
    if (r.skipped) {
      lines.push(`SKIPPED  ${label(r.kind)} drop: ${r.skipped}`);
      continue;
    }
    const db = `${label(r.kind)} drop`;
    const a = r.all;
    const { before, after } = r.database;
    const paid = after.orders.paid?.orders ?? 0;
    const pending = after.orders.pending_payment?.orders ?? 0;
    const ordersHeld = Object.values(before.orders).reduce((sum, o) => sum + o.orders, 0);
    check(a.reserved === DROP.stock && ordersHeld === DROP.stock, `${db}: exactly ${DROP.stock} orders — ${a.reserved} checkouts answered 200, ${ordersHeld} orders hold the product in the database`);
    check(a.outOfStock === DROP.buyers - DROP.stock, `${db}: exactly ${DROP.buyers - DROP.stock} OUT_OF_STOCK — ${a.outOfStock}`);
    check(a.s5xx === 0 && a.errors === 0 && a.timeouts === 0, `${db}: no 5xx, error or timeout — ${a.s5xx} 5xx, ${a.errors} errors, ${a.timeouts} timeouts${a.errorKinds.length ? ` (${a.errorKinds.join(", ")})` : ""}`);
    check(before.stock === 0, `${db}: final stock 0 — ${before.stock}`);
    check(a.latency.p99 !== null && a.latency.p99 < DROP.p99Ms, `${db}: checkout p99 ${fmt(a.latency.p99, 0)} ms < ${DROP.p99Ms} ms`);
    check(
      r.payments.ok === DROP.stock && paid === DROP.stock && pending === 0 && r.database.released === 0 && after.stock === 0,
      `${db}: ${r.payments.ok} orders paid through the test page; after the sweeper (31 min later): ${paid} paid, ${pending} pending, ${r.database.released} released, stock ${after.stock}`,
    );
    check(a.sawSoldOut === a.listeners, `${db}: ${a.sawSoldOut}/${a.listeners} listening pages saw the product sold out`);
  }
  return lines;
}

const ms = (n) => fmt(n, 0);
/** CPU the machine spent on other things than the servers, PostgreSQL and the bench. */
const otherCpu = (cpu) => Math.max(0, cpu.machine - cpu.servers.reduce((a, b) => a + b, 0) - (cpu.postgres ?? 0) - cpu.bench);

export function dropMarkdown(results, m, checkLines) {
  const out = [];
  out.push(`Run of ${m.date} on ${m.nproc} CPU cores (${m.model}), Node ${m.node}; load average at start ${m.load}.`);
  out.push(`${DROP.buyers} buyers, ${DROP.listeners} listening pages, ${DROP.stock} units; buyers, pages and servers on the same machine.`);
  if (BUSY) out.push("", `**The machine was already busy when this run started (load average ${m.load} on ${m.nproc} cores): latencies are higher and noisier than on an idle machine.**`);
  for (const r of results) {
    out.push("", `### ${label(r.kind)}`, "");
    if (r.skipped) {
      out.push(`SKIPPED: ${r.skipped}.`);
      continue;
    }
    out.push(
      `Database: ${r.origin}; ${r.instances === 1 ? "one server" : `${r.instances} server instances on it`}; ${r.seeded.total} products + the drop product. ` +
        `Requests written in ${fmt(r.fireSpreadMs, 1)} ms, starting ${ms(r.fireLateMs)} ms after the drop time.`,
      "",
    );
    out.push("| | buyers | reserved (200) | OUT_OF_STOCK | other 4xx | 5xx | errors / timeouts | answers/s | p50 ms | p99 ms | max ms | pages saw sold out | sold out seen after, p50 / p99 / max ms |");
    out.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    const row = (name, s) =>
      out.push(
        `| ${name} | ${s.buyers} | ${s.reserved} | ${s.outOfStock} | ${s.other4xxCount}${s.other4xxCount ? ` (${Object.entries(s.other4xx).map(([k, v]) => `${k}: ${v}`).join(", ")})` : ""} | ${s.s5xx} | ${s.errors} / ${s.timeouts} | ${fmt(s.answersPerS, 0)} | ${ms(s.latency.p50)} | ${ms(s.latency.p99)} | ${ms(s.latency.max)} | ${s.sawSoldOut}/${s.listeners} | ${ms(s.soldOut.p50)} / ${ms(s.soldOut.p99)} / ${ms(s.soldOut.max)} |`,
      );
    row(r.instances > 1 ? "both instances" : "server", r.all);
    for (const p of r.perInstance) row(p.name, p);
    const { before, after } = r.database;
    const orders = (state) => Object.entries(state.orders).map(([status, o]) => `${o.orders} ${status}`).join(", ") || "none";
    out.push(
      "",
      `- **Stock**: ${r.stockAfterRush} right after the rush (${r.kind === "postgres" ? "database" : "as the product page's data shows it"}), ${before.stock} in the database after payment, ${after.stock} after the sweeper.`,
      `- **Orders holding the product**: ${orders(before)} after payment (${before.allOrders} orders in all); ${r.payments.ok}/${r.payments.reserved} payments through the test page redirected to \`/merci?success=true\` (p50 ${ms(r.payments.p50)} ms). ` +
        `Sweeper run 31 minutes ahead: ${r.database.released} released, then ${orders(after)}.`,
      `- **Where the time went during the rush** (${ms(r.cpu.windowMs)} ms from the first request written to the last answer): server CPU ${r.cpu.servers.map((c) => `${ms(c)} ms (${fmt((100 * c) / r.cpu.windowMs, 0)}% of a core)`).join(" and ")}` +
        `, that is ${fmt(r.cpu.servers.reduce((a, b) => a + b, 0) / r.all.buyers, 1)} ms of server CPU per checkout${r.kind === "pglite" ? " (PGlite included: it runs inside the server)" : r.cpu.postgres !== null ? `; PostgreSQL processes ${ms(r.cpu.postgres)} ms` : "; PostgreSQL is not on this machine (its CPU is not measured)"}` +
        `; the bench process ${ms(r.cpu.bench)} ms (event-loop delay p99 ${fmt(r.cpu.loopDelayP99, 1)} ms, max ${fmt(r.cpu.loopDelayMax, 1)} ms)` +
        `; other work on the machine ${ms(otherCpu(r.cpu))} ms (${fmt((100 * otherCpu(r.cpu)) / r.cpu.windowMs, 0)}% of a core, out of ${r.cpu.cores} cores).` +
        (r.activity
          ? ` The servers' PostgreSQL sessions, sampled every 100 ms: up to ${r.activity.lockWaitsMax} waiting on a lock (mean ${fmt(r.activity.lockWaitsMean, 1)}), up to ${r.activity.idleInTxMax} idle in a transaction, up to ${r.activity.activeMax} active; the stock was 0 in the database ${ms(r.activity.stockZeroMs)} ms after the drop.`
          : ""),
      `- **Listening pages**: ${r.fetches.total} \`.data\` refetches in all, ${r.fetches.duringRush} of them during the rush${r.perInstance.length ? ` (${r.perInstance.map((p) => `${p.name} ${p.fetchesDuringRush}`).join(", ")})` : ""}, p50 ${ms(r.fetches.latency.p50)} ms, p99 ${ms(r.fetches.latency.p99)} ms, ${r.fetches.non200} not 200, ${r.all.fetchErrors} failed; ` +
        `catalog events per page p50 ${r.all.events.p50}, max ${r.all.events.max}, the last one received p50 ${ms(r.all.lastEvent.p50)} ms, max ${ms(r.all.lastEvent.max)} ms after the drop; ${r.all.onSale.p50 === null ? "no page saw it on sale (sold out before its first refetch)" : `first saw it on sale p50 ${ms(r.all.onSale.p50)} ms after the drop`}; ${r.all.streamsEnded} streams ended by the server` +
        `${r.all.sawSoldOut < r.all.listeners ? `; the pages that never showed it sold out (within ${DROP.listenAfterMs / 1000} s of the last answer) showed last: ${Object.entries(r.all.missedShowed).map(([k, v]) => `${k} (${v})`).join(", ")}` : ""}.`,
    );
    if (r.all.errorKinds.length || r.serverErrors) {
      out.push(`- **Errors**: ${r.all.errorKinds.join(", ") || "no connection error"}; ${r.serverErrors} error line(s) in the servers' output.`);
    }
  }
  out.push("", "Checks:", "", "```", ...checkLines, "```");
  return out.join("\n");
}
