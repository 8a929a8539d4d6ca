// The search scenario of `npm run bench`: the typo-tolerant search (issue 13; app/services/
// product-search.server.ts) on 10,000 products. The header suggestions (/api/search) and the
// catalogue search (/catalog?q=), each with a typo and typed right. Every request asks a URL
// nobody asked before (an extra `n` parameter the page ignores), so the page cache never
// answers: each one is a real search. For each URL it checks the answer (the right products
// found), then loads it with autocannon and reports req/s, p50, p99 and the server's CPU per
// request.
import os from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { BUSY, HEADERS, cpuMs, fmt, get, label, loadFigures, scenarioSettings, seed, startServer, withScenarioDatabase } from "./bench.mjs";

// Shared flags apply when given; otherwise 10,000 products, 10 connections, 5 s per URL after
// one 3 s warm-up cycling through all the URLs.
export const SEARCH = Object.assign(scenarioSettings({ products: 10_000, connections: 10, duration: 5, warmup: 3 }), {
  /**
   * A search may cost this much more server CPU per request than the catalogue without one:
   * enough for the indexed searches (a few ms of SQL), not for one comparing the words with
   * every product (about 100 ms on PGlite for 10,000). On PostgreSQL the SQL runs in the
   * database's processes: there it bounds the server's own work only.
   */
  extraCpuMs: 10,
});

export const SEARCH_START = "<!-- bench:search:start (written by `npm run bench`, do not edit by hand) -->";
export const SEARCH_END = "<!-- bench:search:end -->";

/**
 * The URLs measured; `expect` is the product name every answer must show (accents folded). The
 * catalogue without a search is the reference for the server CPU a search adds.
 */
const PLAIN = { label: "Catalogue without a search (reference)", path: "/catalog?sort=newest", expect: null };
const URLS = [
  PLAIN,
  { label: "Header suggestions, with a typo", path: "/api/search?q=dracofeu", expect: "dracaufeu" },
  { label: "Header suggestions, typed right", path: "/api/search?q=dracaufeu", expect: "dracaufeu" },
  { label: "Catalogue search, with a typo", path: "/catalog?q=pikatchu", expect: "pikachu" },
  { label: "Catalogue search, typed right", path: "/catalog?q=pikachu", expect: "pikachu" },
];

const fold = (text) =>
  String(text)
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

/** What one answer found, and what is wrong with it (nothing: the search is right). */
function readAnswer(url, res) {
  if (res.status !== 200) return { found: null, problems: [`status ${res.status}`] };
  const body = res.body.toString("utf8");
  if (url.path.startsWith("/api/search")) {
    const names = JSON.parse(body).suggestions.map((s) => s.name);
    const wrong = names.filter((name) => !fold(name).includes(url.expect));
    return {
      found: names.length,
      problems: [...(names.length === 0 ? ["no suggestion"] : []), ...wrong.slice(0, 2).map((name) => `"${name}" suggested`)],
    };
  }
  // The catalogue's "N produits" line, and the first product card's link text.
  const count = /(\d[\d\s\u00a0\u202f]*)\s*produits?</.exec(body);
  const found = count ? Number(count[1].replace(/\D/g, "")) : null;
  const problems = [];
  if (!found) problems.push("no product found");
  if (url.expect && !fold(body).includes(url.expect)) problems.push(`no "${url.expect}" in the page`);
  return { found, problems };
}

/** The server's plans are only good with statistics: PGlite's start takes them; here PostgreSQL's autovacuum has not run yet. */
async function analyzePostgres(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("analyze products, search_words");
  } finally {
    await client.end();
  }
}

export async function benchSearch(kind, { port }) {
  return withScenarioDatabase(kind, "comptoir-bench-search", {}, async ({ env, postgres }) => {
    let server = null;
    try {
      console.log(`\n━━ ${label(kind)} — search${postgres ? ` — ${postgres.origin}` : ""}`);
      let started = Date.now();
      const seeded = seed(env, { products: SEARCH.products });
      if (postgres) await analyzePostgres(postgres.url);
      console.log(`  seeded ${seeded.total} products in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      started = Date.now();
      server = await startServer(env, port);
      console.log(`  server ready on ${server.base} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${server.pid})`);

      let n = 0;
      /** Every request its own URL: the page cache never has it. */
      const fresh = (urlPath) => `${urlPath}&n=${++n}`;
      const load = (paths, duration) =>
        autocannon({
          url: server.base,
          connections: SEARCH.connections,
          duration,
          headers: HEADERS,
          timeout: 10,
          requests: paths.map((p) => ({ method: "GET", setupRequest: (req) => ({ ...req, path: fresh(p) }) })),
        });
      if (SEARCH.warmup > 0) await load(URLS.map((u) => u.path), SEARCH.warmup);

      const rows = [];
      for (const url of URLS) {
        const res = await get(`${server.base}${fresh(url.path)}`, HEADERS);
        const { found, problems } = readAnswer(url, res);
        const cpu0 = cpuMs(server.pid);
        const load1 = os.loadavg()[0];
        const result = await load([url.path], SEARCH.duration);
        const cpu = cpuMs(server.pid) - cpu0;
        const row = {
          label: url.label,
          path: url.path,
          status: res.status,
          found,
          problems,
          ...loadFigures(result, cpu),
          errors: result.errors + result.timeouts,
          load1,
        };
        rows.push(row);
        console.log(
          `  ${url.path.padEnd(26)} ${String(row.status).padEnd(4)} ${`${fmt(found, 0)} found`.padEnd(12)} ${`${fmt(row.rps, 0)} req/s`.padEnd(11)} p50 ${`${fmt(row.p50, 1)} ms`.padEnd(9)} p99 ${`${fmt(row.p99, 1)} ms`.padEnd(9)}` +
            ` non-2xx ${row.non2xx}${row.errors ? ` errors ${row.errors}` : ""}  server ${fmt(row.serverCpuPerReq, 2)} ms CPU/req (load ${fmt(load1, 1)})${problems.length ? `  CONTENT: ${problems.join("; ")}` : ""}`,
        );
      }
      return { kind, origin: postgres?.origin ?? "PGlite (temporary DATA_DIR)", seeded, rows };
    } finally {
      const code = await server?.stop();
      if (server && code !== 0) console.log(`  server exit code ${code}:\n${server.output()}`);
    }
  });
}

export function searchChecks(results) {
  const lines = [];
  const check = (ok, text) => lines.push(`${ok ? "PASS" : "FAIL"}  ${text}`);
  for (const r of results) {
    if (r.skipped) {
      lines.push(`SKIPPED  ${label(r.kind)} search: ${r.skipped}`);
      continue;
    }
    const plain = r.rows.find((row) => row.path === PLAIN.path);
    const bound = (plain?.serverCpuPerReq ?? NaN) + SEARCH.extraCpuMs;
    for (const row of r.rows) {
      const db = `${label(r.kind)} ${row.path} (${fmt(r.seeded.total, 0)} products)`;
      const failed = row.non2xx + row.errors;
      check(
        row.problems.length === 0 && failed === 0,
        `${db}: found ${fmt(row.found, 0)}, the right products, every answer 200${row.problems.length ? ` — ${row.problems.join("; ")}` : ""}${failed ? ` (${row.non2xx} non-2xx, ${row.errors} errors under load)` : ""}`,
      );
      if (row !== plain) check(row.serverCpuPerReq <= bound, `${db}: server CPU ${fmt(row.serverCpuPerReq, 2)} ms/req ≤ ${fmt(bound, 2)} (the catalogue without a search + ${SEARCH.extraCpuMs})`);
    }
  }
  return lines;
}

export function searchMarkdown(results, m, checkLines) {
  const out = [];
  out.push(`Run of ${m.date} on ${m.nproc} CPU cores (${m.model}), Node ${m.node}; load average at start ${m.load}.`);
  out.push(
    `autocannon ${SEARCH.connections} connections, ${SEARCH.duration} s per URL after one ${SEARCH.warmup} s warm-up; every request asks a new URL (an extra \`n\` parameter), so the page cache never answers and each request is a real search.`,
  );
  if (BUSY) out.push("", `**The machine was already busy when this run started (load average ${m.load} on ${m.nproc} cores): req/s and latencies are lower and noisier than on an idle machine; server CPU ms/req is the figure least affected.**`);
  for (const r of results) {
    out.push("", `### ${label(r.kind)}`, "");
    if (r.skipped) {
      out.push(`SKIPPED: ${r.skipped}.`);
      continue;
    }
    out.push(`Database: ${r.origin}; ${fmt(r.seeded.total, 0)} products (${r.seeded.sample} sample, ${fmt(r.seeded.generated, 0)} generated).`, "");
    out.push("| URL | what | status | found | req/s | p50 ms | p99 ms | non-2xx / errors | server CPU ms/req | load avg |");
    out.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const row of r.rows) {
      out.push(
        `| \`${row.path}\` | ${row.label}${row.problems.length ? ` (**content: ${row.problems.join("; ")}**)` : ""} | ${row.status} | ${fmt(row.found, 0)} | ${fmt(row.rps, 0)} | ${fmt(row.p50, 1)} | ${fmt(row.p99, 1)} | ${row.non2xx} / ${row.errors} | ${fmt(row.serverCpuPerReq, 2)} | ${fmt(row.load1, 1)} |`,
      );
    }
  }
  out.push("", "Checks:", "", "```", ...checkLines, "```");
  return out.join("\n");
}
