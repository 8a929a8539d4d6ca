// The pre-order scenario of `npm run bench` (`npm run bench -- --scenario preorder`, issue 55): a
// product sold as a pre-order of 300 units, 2 per customer; 1,000 buyers, each from its own
// address with its own e-mail, POST /api/checkout for 1 or 2 units, spread over the first minute
// (BENCH_PREORDER_BUYERS, BENCH_PREORDER_SECONDS, BENCH_PREORDER_QUANTITY: other sizes, e.g. a
// small run to check the script). PGlite: one server; PostgreSQL: two instances on the same
// database, buyers split between them. Checks that the units taken never exceed the pre-order's
// quantity (its counter and the orders holding units agree), no buyer's e-mail holds more than the
// limit, and the p99 of the checkout answers stays under 500 ms.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { spawnSync } from "node:child_process";
import { HEADERS, fmt, label, root, seed, sleep, startServer, withScenarioDatabase } from "./bench.mjs";

export const PREORDER = {
  buyers: Number(process.env.BENCH_PREORDER_BUYERS ?? 1000),
  seconds: Number(process.env.BENCH_PREORDER_SECONDS ?? 60),
  quantity: Number(process.env.BENCH_PREORDER_QUANTITY ?? 300),
  perCustomerLimit: 2,
  p99Ms: 500,
  answerTimeoutMs: 30_000,
};

export const PREORDER_START = "<!-- bench:preorder:start (written by `npm run bench`, do not edit by hand) -->";
export const PREORDER_END = "<!-- bench:preorder:end -->";

/** Runs a command of scripts/bench-preorder-db.ts on the bench's database: its last line of JSON. */
function preorderDb(command, env) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench-preorder-db.ts", command], { cwd: root, env: { ...process.env, DATABASE_URL: "", ...env }, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`bench-preorder-db.ts ${command} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").pop());
}

/** One buyer's checkout: its own connection and address (X-Forwarded-For, the servers trust loopback), its answer's status, code and time. */
function checkout(server, index, productId) {
  const quantity = 1 + (index % 3 === 0 ? 1 : 0);
  const body = JSON.stringify({ items: [{ productId, quantity }], insuranceSelected: false, email: `acheteur${index}@bench.example` });
  const ip = `10.${((index + 1) >> 16) & 255}.${((index + 1) >> 8) & 255}.${(index + 1) & 255}`;
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      `${server.base}/api/checkout`,
      {
        method: "POST",
        agent: false,
        timeout: PREORDER.answerTimeoutMs,
        headers: { "content-type": "application/json", accept: "application/json", origin: server.base, "user-agent": HEADERS["user-agent"], "x-forwarded-for": ip, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          let code = null;
          try {
            code = JSON.parse(Buffer.concat(chunks).toString("utf8")).code ?? null;
          } catch {
            // not JSON: the status says enough
          }
          resolve({ index, quantity, status: res.statusCode, code, ms: performance.now() - started, error: null });
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => resolve({ index, quantity, status: null, code: null, ms: performance.now() - started, error: error.message }));
    request.end(body);
  });
}

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);

export async function benchPreorder(kind, { port }) {
  return withScenarioDatabase(kind, "comptoir-preorder", { TRUST_PROXY: "loopback" }, async ({ env, postgres }) => {
    const servers = [];
    try {
      const instances = kind === "postgres" ? 2 : 1;
      console.log(`\n━━ Pre-order scenario, ${label(kind)}${postgres ? ` — ${postgres.origin}, ${instances} server instances` : ""}`);
      const seeded = seed(env, { products: 100 });
      const preorder = preorderDb("seed", { ...env, PREORDER_QUANTITY: String(PREORDER.quantity), PREORDER_LIMIT: String(PREORDER.perCustomerLimit) });
      console.log(`  seeded ${seeded.total} products + pre-order product ${preorder.productId} (${preorder.quantity} units, ${preorder.perCustomerLimit} per customer, release ${preorder.releaseOn})`);
      for (let i = 0; i < instances; i++) {
        // One after the other: a fresh DATA_DIR gets its secret and sample images from the first.
        const server = await startServer(env, port + i);
        servers.push(server);
        console.log(`  instance ${i + 1} ready on ${server.base} (pid ${server.pid})`);
      }
      // The buyers arrive evenly over the window, each on the instance of its turn.
      const spacing = (PREORDER.seconds * 1000) / PREORDER.buyers;
      const start = performance.now();
      const pending = [];
      for (let i = 0; i < PREORDER.buyers; i++) {
        const wait = start + i * spacing - performance.now();
        if (wait > 1) await sleep(wait);
        pending.push(checkout(servers[i % instances], i, preorder.productId));
      }
      const answers = await Promise.all(pending);
      const windowMs = performance.now() - start;
      for (const server of servers.splice(0)) await server.stop();
      const verified = preorderDb("verify", { ...env, PREORDER_PRODUCT_ID: String(preorder.productId) });
      const times = answers.filter((a) => a.status !== null).map((a) => a.ms).sort((a, b) => a - b);
      const byStatus = {};
      for (const answer of answers) {
        const key = answer.status === null ? `error: ${answer.error}` : `${answer.status}${answer.code ? ` ${answer.code}` : ""}`;
        byStatus[key] = (byStatus[key] ?? 0) + 1;
      }
      const acceptedUnits = answers.filter((a) => a.status === 200).reduce((sum, a) => sum + a.quantity, 0);
      const result = { kind, instances, origin: postgres?.origin ?? "PGlite (temporary DATA_DIR)", windowMs, byStatus, acceptedUnits, verified, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? null, answered: times.length };
      console.log(`  ${answers.length} checkouts in ${fmt(windowMs / 1000, 1)} s: ${Object.entries(byStatus).map(([k, n]) => `${n} × ${k}`).join(", ")}`);
      console.log(`  units taken ${verified.orderedUnits} / ${verified.quantity} (orders holding ${verified.heldUnits}, accepted ${acceptedUnits}); most per buyer ${verified.largestPerBuyer}; p50 ${fmt(result.p50, 0)} ms, p99 ${fmt(result.p99, 0)} ms`);
      return result;
    } finally {
      for (const server of servers) await server.stop();
    }
  });
}

export function preorderChecks(results) {
  const lines = [];
  for (const r of results) {
    if (r.skipped) continue;
    const name = `${label(r.kind)} pre-order (${r.instances} instance${r.instances > 1 ? "s" : ""})`;
    const v = r.verified;
    lines.push(`${v.orderedUnits <= v.quantity && v.heldUnits === v.orderedUnits && r.acceptedUnits === v.orderedUnits ? "PASS" : "FAIL"}  ${name}: units taken ${v.orderedUnits} ≤ ${v.quantity}, the orders holding units agree (${v.heldUnits}), accepted ${r.acceptedUnits}`);
    lines.push(`${v.largestPerBuyer <= PREORDER.perCustomerLimit ? "PASS" : "FAIL"}  ${name}: at most ${PREORDER.perCustomerLimit} per customer (largest ${v.largestPerBuyer})`);
    lines.push(`${r.answered === PREORDER.buyers && r.p99 !== null && r.p99 < PREORDER.p99Ms ? "PASS" : "FAIL"}  ${name}: ${r.answered}/${PREORDER.buyers} answered, p99 ${fmt(r.p99, 0)} ms < ${PREORDER.p99Ms} ms`);
  }
  return lines;
}

export function preorderMarkdown(results, machine, checks) {
  const out = [
    `Run of ${new Date().toISOString().slice(0, 19)}Z on ${machine.nproc} CPU cores (${machine.model}), Node ${machine.node}; load average at start ${machine.load}.`,
    `${fmt(PREORDER.buyers, 0)} buyers over ${PREORDER.seconds} s, a pre-order of ${PREORDER.quantity} units, ${PREORDER.perCustomerLimit} per customer (1 or 2 units each).`,
    "",
    "| Database | instances | answers | units taken / quantity | most per customer | p50 ms | p99 ms | max ms |",
    "|---|---:|---|---:|---:|---:|---:|---:|",
  ];
  for (const r of results) {
    if (r.skipped) {
      out.push(`| ${label(r.kind)} | — | skipped: ${r.skipped} | | | | | |`);
      continue;
    }
    const answers = Object.entries(r.byStatus).map(([k, n]) => `${n} × ${k}`).join(", ");
    out.push(`| ${label(r.kind)} | ${r.instances} | ${answers} | ${r.verified.orderedUnits} / ${r.verified.quantity} | ${r.verified.largestPerBuyer} | ${fmt(r.p50, 0)} | ${fmt(r.p99, 0)} | ${fmt(r.max, 0)} |`);
  }
  out.push("", "```", ...checks, "```");
  return out.join("\n");
}
