// The admin list scenario of `npm run bench` (`npm run bench -- --scenario admin`): the admin
// product list (GET /admin/products, app/routes/admin/products.tsx and app/services/admin-product-list.server.ts)
// with 10,000 products, signed in as an admin (every request renders: the page cache lets pages
// with a cookie through). For each URL — the default list, a deep page, every sort field both
// ways, a text search and combined filters — it checks the answer (status 200, the "N produits
// trouvés" count, the rows sorted and filtered as asked, in the HTML as in the loader's data),
// then loads it with autocannon (a few connections: a few admins or tabs) and holds the p99 to
// 200 ms. On a slow URL it prints the EXPLAIN ANALYZE of the list's queries.
import { spawnSync } from "node:child_process";
import os from "node:os";
import autocannon from "autocannon";
import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from "react-router";
import { BUSY, HEADERS, cpuMs, fmt, get, label, loadFigures, memorySampler, root, scenarioSettings, seed, signInAdmin, startServer, withScenarioDatabase } from "./bench.mjs";

// Shared flags apply when given; otherwise 10,000 products, a few admins (or one admin with a
// few tabs) on the list at once, 4 s per URL after one 3 s warm-up cycling through all the URLs.
export const ADMIN = Object.assign(scenarioSettings({ products: 10_000, connections: 4, duration: 4, warmup: 3 }), {
  p99Ms: 200,
  pageSize: 10,
  email: "bench-admin@comptoir.local",
  password: `bench-${process.pid}-${Date.now().toString(36)}`,
  /** BENCH_ADMIN_EXPLAIN=all: the EXPLAIN ANALYZE of every URL's queries, not only the slow ones. */
  explainAll: process.env.BENCH_ADMIN_EXPLAIN === "all",
});

export const ADMIN_START = "<!-- bench:admin:start (written by `npm run bench`, do not edit by hand) -->";
export const ADMIN_END = "<!-- bench:admin:end -->";

const DEFAULT_QUERY = { q: "", category: null, status: null, featured: null, sort: "name", order: "asc", page: 1 };
const STATUS_LABELS = { en_ligne: "En ligne", hors_ligne: "Hors ligne", a_venir: "À venir" };

/** The URLs measured, each with its label and query; the deep page is the middle of the unfiltered list. */
function adminUrls(total) {
  const deep = Math.max(2, Math.floor(Math.ceil(total / ADMIN.pageSize) / 2));
  const sorts = [];
  for (const sort of ["name", "price", "stock", "status", "category"]) {
    for (const order of ["asc", "desc"]) {
      // Name A→Z is the default list, measured first as plain /admin/products.
      if (sort === "name" && order === "asc") continue;
      sorts.push({ label: `Sorted by ${sort}, ${order === "asc" ? "ascending" : "descending"}`, query: { sort, order } });
    }
  }
  return [
    { label: "Default list (name, ascending)", query: {} },
    { label: `Deep page (${fmt(deep, 0)} of ${fmt(Math.ceil(total / ADMIN.pageSize), 0)})`, query: { page: deep } },
    ...sorts,
    { label: "Text search (two accented words)", query: { q: "pokémon écarlate" } },
    { label: "Filters: category, status, featured; by price, descending", query: { category: "TCG", status: "en_ligne", featured: "oui", sort: "price", order: "desc" } },
    { label: "Search and filters, page 2, by stock", query: { q: "booster", category: "TCG", status: "hors_ligne", sort: "stock", order: "asc", page: 2 } },
  ].map((u) => ({ ...u, query: { ...DEFAULT_QUERY, ...u.query }, search: searchOf(u.query) }));
}

/** "?sort=price&order=asc" as the page's own links write it (defaults left out). */
function searchOf(query) {
  const params = new URLSearchParams();
  for (const key of ["q", "category", "status", "featured", "sort", "order", "page"]) {
    if (query[key] !== undefined && query[key] !== null && query[key] !== "") params.set(key, String(query[key]));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** How a URL reads in the report: /admin/products?q=pokémon écarlate&… */
const readable = (search) => `/admin/products${decodeURIComponent(search.replaceAll("+", " "))}`;

// ── Checking an answer ───────────────────────────────────────────────────────────────────
/** The list the loader returned: GET /admin/products.data (React Router's single fetch), decoded by React Router. */
async function readListData(base, search, cookie) {
  const res = await get(`${base}/admin/products.data${search}`, { ...HEADERS, cookie });
  if (res.status !== 200) return { status: res.status, list: null };
  const { value } = await decodeTurboStream(new Response(res.body).body, globalThis);
  const list = Object.values(value ?? {}).find((entry) => Array.isArray(entry?.data?.rows) && typeof entry?.data?.total === "number")?.data ?? null;
  return { status: res.status, list };
}

const fold = (text) =>
  String(text)
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
/**
 * What each sort orders by. Names sort on their accent-folded copy in the database's collation;
 * only their first letter or digit is compared here, which every collation orders alike.
 */
const SORT_KEYS = {
  name: (row) => /[\p{L}\p{N}]/u.exec(fold(row.name))?.[0] ?? "",
  price: (row) => row.priceCents,
  stock: (row) => row.stock,
  status: (row) => row.status,
  category: (row) => row.category,
};

const decodeEntities = (html) =>
  html.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e) =>
    e[0] === "#" ? String.fromCodePoint(e[1].toLowerCase() === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e.toLowerCase()],
  );

/**
 * The problems found in one URL's answers (none: the page is right): the HTML page and the
 * loader's data, against the query asked and the unfiltered total.
 */
function contentProblems(url, page, data, allTotal) {
  const problems = [];
  const { query } = url;
  if (page.status !== 200) return [`the page answered ${page.status}`];
  if (data.status !== 200 || !data.list) return [`/admin/products.data answered ${data.status}${data.list ? "" : " without the list's rows and total"}`];
  const { rows, total } = data.list;
  const html = page.body;
  const shown = /([\d\s\u00a0\u202f.]+?)\s*produits?\s+trouvés?/.exec(decodeEntities(html));
  if (!shown) problems.push(`no "produits trouvés" count in the page`);
  else if (Number(shown[1].replace(/\D/g, "")) !== total) problems.push(`the page says "${shown[0].trim()}", the data ${total}`);
  const filtered = query.q || query.category || query.status || query.featured;
  if (total === 0) problems.push("nothing found");
  if (!filtered && total !== allTotal) problems.push(`${total} products listed, ${allTotal} seeded`);
  if (filtered && total >= allTotal) problems.push(`the filters kept all ${total} products`);
  const pageCount = Math.ceil(total / ADMIN.pageSize);
  const expectedRows = Math.max(0, Math.min(ADMIN.pageSize, total - (Math.min(query.page, Math.max(1, pageCount)) - 1) * ADMIN.pageSize));
  if (data.list.page !== Math.min(query.page, Math.max(1, pageCount))) problems.push(`page ${data.list.page} shown, ${query.page} asked`);
  if (rows.length !== expectedRows) problems.push(`${rows.length} rows, ${expectedRows} expected`);
  // The HTML shows the same rows in the same order (each row links to its edit page).
  const htmlIds = [...html.matchAll(/\/admin\/products\/edit\/(\d+)/g)].map((m) => Number(m[1])).filter((id, i, all) => all.indexOf(id) === i);
  const dataIds = rows.map((row) => row.id);
  if (htmlIds.join(",") !== dataIds.join(",")) problems.push(`the page's rows (${htmlIds.slice(0, 3).join(", ")}…) are not the data's (${dataIds.slice(0, 3).join(", ")}…)`);
  for (const row of rows) {
    if (query.category && row.category !== query.category) problems.push(`row ${row.id} is in ${row.category}, not ${query.category}`);
    if (query.status && row.status !== query.status) problems.push(`row ${row.id} is ${row.status}, not ${query.status}`);
    if (query.featured && row.featured !== (query.featured === "oui")) problems.push(`row ${row.id} featured ${row.featured}, filter ${query.featured}`);
  }
  if (query.status && rows.length > 0 && !decodeEntities(html).includes(STATUS_LABELS[query.status])) problems.push(`the page does not show "${STATUS_LABELS[query.status]}"`);
  const key = SORT_KEYS[query.sort];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [key(rows[i - 1]), key(rows[i])];
    if (query.order === "asc" ? a > b : a < b) {
      problems.push(`rows ${rows[i - 1].id} and ${rows[i].id} out of ${query.sort} ${query.order} order (${a} then ${b})`);
      break;
    }
  }
  return [...new Set(problems)].slice(0, 4);
}

// ── EXPLAIN ANALYZE of the list's queries ────────────────────────────────────────────────
/**
 * Runs the app's own listAdminProducts for each query (in a child process with tsx, the way
 * the seed runs), captures the SQL drizzle sends and answers EXPLAIN (ANALYZE, BUFFERS) of it.
 * PostgreSQL: while the bench's database is up; PGlite: once the server has let go of its data
 * directory.
 */
const EXPLAIN_SOURCE = `
import path from "node:path";
const schema = await import("./app/db/schema/index.ts");
const { parseAdminProductQuery } = await import("./app/domain/admin-product-list.ts");
const { listAdminProducts } = await import("./app/services/admin-product-list.server.ts");
let captured = [];
const logger = { logQuery: (query, params) => captured.push({ query, params }) };
let db, explain, close;
if (process.env.DATABASE_URL) {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  db = drizzle({ client, schema, casing: "snake_case", logger });
  explain = async (text, params) => (await client.query("explain (analyze, buffers) " + text, params)).rows.map((r) => r["QUERY PLAN"]);
  close = () => client.end();
} else {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const client = await PGlite.create({ dataDir: path.resolve(process.env.DATA_DIR, "pglite"), startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"], extensions: { pg_trgm } });
  db = drizzle({ client, schema, casing: "snake_case", logger });
  explain = async (text, params) => (await client.query("explain (analyze, buffers) " + text, params)).rows.map((r) => r["QUERY PLAN"]);
  close = () => client.close();
}
const out = [];
for (const search of JSON.parse(process.env.BENCH_EXPLAIN_SEARCHES)) {
  const query = parseAdminProductQuery(new URLSearchParams(search));
  await listAdminProducts(db, query);
  captured = [];
  const started = performance.now();
  await listAdminProducts(db, query);
  const ms = performance.now() - started;
  const queries = captured;
  captured = [];
  const plans = [];
  for (const q of queries) plans.push({ sql: q.query, params: q.params, plan: await explain(q.query, q.params) });
  out.push({ search, ms, plans });
}
await close();
console.log(JSON.stringify(out));
`;

function explainQueries(env, searches) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", EXPLAIN_SOURCE], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", ...env, BENCH_EXPLAIN_SEARCHES: JSON.stringify(searches) },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`EXPLAIN failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").pop());
}

// ── The scenario on one database ─────────────────────────────────────────────────────────
export async function benchAdmin(kind, { port }) {
  return withScenarioDatabase(kind, "comptoir-bench-admin", {}, async ({ env, postgres }) => {
    let server = null;
    try {
      console.log(`\n━━ ${label(kind)} — admin list${postgres ? ` — ${postgres.origin}` : ""}`);
      let started = Date.now();
      const seeded = seed({ ...env, BENCH_SEED_MIX: "admin" }, { products: ADMIN.products });
      console.log(
        `  seeded ${seeded.total} products (${seeded.sample} sample + ${seeded.generated} generated: ${Object.entries(seeded.statuses ?? {})
          .map(([status, n]) => `${n} ${status}`)
          .join(", ")}, ${seeded.featured} featured) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      started = Date.now();
      server = await startServer({ ...env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }, port);
      console.log(`  server ready on ${server.base} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${server.pid})`);
      const memory = memorySampler(server.pid);
      const idleRssMb = memory.now();
      const cookie = await signInAdmin(server.base, ADMIN);
      console.log(`  signed in as ${ADMIN.email} at /admin/login`);
      const headers = { ...HEADERS, cookie };
      const urls = adminUrls(seeded.total);

      // One warm-up for the server: every connection cycles through all the URLs (an admin list
      // that has been up has run these code paths and queries already; a fresh process would
      // time V8 compiling them on the first URL measured).
      if (ADMIN.warmup > 0) {
        await autocannon({
          url: server.base,
          requests: urls.map((url) => ({ method: "GET", path: `/admin/products${url.search}` })),
          connections: ADMIN.connections,
          duration: ADMIN.warmup,
          headers,
          timeout: 10,
        });
      }

      const rows = [];
      for (const url of urls) {
        const page = await get(`${server.base}/admin/products${url.search}`, headers);
        const data = await readListData(server.base, url.search, cookie);
        const body = { status: page.status, body: page.body.toString("utf8") };
        const problems = contentProblems(url, body, data, seeded.total);
        const serverCpu0 = cpuMs(server.pid);
        const load1 = os.loadavg()[0];
        const result = await autocannon({ url: `${server.base}/admin/products${url.search}`, connections: ADMIN.connections, duration: ADMIN.duration, headers, timeout: 10 });
        const serverCpu = cpuMs(server.pid) - serverCpu0;
        const row = {
          label: url.label,
          search: url.search,
          path: readable(url.search),
          query: url.query,
          status: page.status,
          problems,
          total: data.list?.total ?? null,
          firstIds: (data.list?.rows ?? []).map((r) => r.id),
          ...loadFigures(result, serverCpu),
          htmlKb: Buffer.byteLength(body.body) / 1024,
          load1,
        };
        rows.push(row);
        console.log(
          `  ${pad(row.path, 62)} ${pad(String(row.status), 4)} ${pad(row.total === null ? "—" : fmt(row.total, 0) + " found", 13)} ${pad(fmt(row.rps, 0) + " req/s", 11)} p50 ${pad(fmt(row.p50, 1) + " ms", 9)} p99 ${pad(fmt(row.p99, 1) + " ms", 10)}` +
            ` non-2xx ${row.non2xx}${row.errors ? ` errors ${row.errors}` : ""}  server ${fmt(row.serverCpuPerReq, 1)} ms CPU/req (busy ${fmt(100 * row.serverCpuShare, 0)}%, load ${fmt(load1, 1)})` +
            `${problems.length ? `  CONTENT: ${problems.join("; ")}` : ""}`,
        );
      }
      // Each sort, both ways, shows other rows than the other way (and than the default list).
      for (const row of rows) {
        const { sort, order, q, category, status, featured, page } = row.query;
        if (q || category || status || featured || page !== 1) continue;
        const other = rows.find((r) => r !== row && r.query.sort === sort && r.query.order !== order && !r.query.q && !r.query.category && !r.query.status && !r.query.featured && r.query.page === 1);
        if (other && other.firstIds.join(",") === row.firstIds.join(",")) row.problems.push(`the same rows as ${other.path}`);
      }
      const mem = memory.stop();

      const slow = rows.filter((row) => !(row.p99 < ADMIN.p99Ms));
      const toExplain = ADMIN.explainAll ? rows : slow;
      let explained = [];
      if (toExplain.length > 0 && postgres) explained = explainSafely(env, toExplain);
      const code = await server.stop();
      server = null;
      if (code !== 0) console.log(`  server exit code ${code}`);
      if (toExplain.length > 0 && !postgres) explained = explainSafely(env, toExplain);
      for (const e of explained) printExplain(e);
      return { kind, origin: postgres?.origin ?? "PGlite (temporary DATA_DIR)", seeded, rows, explained, idleRssMb, ...mem };
    } finally {
      const code = await server?.stop();
      if (server && code !== 0) console.log(`  server exit code ${code}:\n${server.output()}`);
    }
  });
}

/** The plans of some URLs; a query already explained for an earlier URL (same SQL and parameters) is marked `repeat`. */
function explainSafely(env, rows) {
  try {
    const seen = new Set();
    return explainQueries(env, rows.map((row) => row.search)).map((e) => ({
      ...e,
      path: readable(e.search),
      plans: e.plans.map((p) => {
        const key = `${p.sql} ${JSON.stringify(p.params)}`;
        const repeat = seen.has(key);
        seen.add(key);
        return { ...p, repeat };
      }),
    }));
  } catch (error) {
    console.log(`  ${error.message}`);
    return [];
  }
}

/** One URL's queries and their plans, as lines. */
function explainLines(e) {
  const lines = [];
  for (const p of e.plans) {
    lines.push(p.sql, `-- params ${JSON.stringify(p.params)}`);
    if (p.repeat) lines.push("-- (same query and plan as above)");
    else lines.push(...p.plan);
    lines.push("");
  }
  return lines;
}

function printExplain(e) {
  console.log(`\n  EXPLAIN (ANALYZE, BUFFERS), ${e.path} (listAdminProducts alone ${fmt(e.ms, 1)} ms, ${e.plans.length} queries):`);
  for (const line of explainLines(e)) console.log(`    ${line}`);
}

const pad = (text, width) => String(text).padEnd(width);

// ── Checks and report ────────────────────────────────────────────────────────────────────
export function adminChecks(results) {
  const lines = [];
  const check = (ok, text) => lines.push(`${ok ? "PASS" : "FAIL"}  ${text}`);
  for (const r of results) {
    if (r.skipped) {
      lines.push(`SKIPPED  ${label(r.kind)} admin list: ${r.skipped}`);
      continue;
    }
    const db = `${label(r.kind)} admin`;
    const wrong = r.rows.filter((row) => row.problems.length > 0);
    check(
      wrong.length === 0,
      `${db}: ${r.rows.length - wrong.length}/${r.rows.length} URLs answered 200 with the right content ("produits trouvés" count, rows sorted and filtered as asked, each sort's two ways differ), ${fmt(r.seeded.total, 0)} products` +
        wrong.map((row) => `; ${row.path}: ${row.problems.join(", ")}`).join(""),
    );
    for (const row of r.rows) {
      const failed = row.non2xx + row.errors + row.timeouts;
      check(
        row.status === 200 && failed === 0 && row.p99 < ADMIN.p99Ms,
        `${db} ${row.path}: p99 ${fmt(row.p99, 1)} ms < ${ADMIN.p99Ms} ms${row.status !== 200 ? ` (status ${row.status})` : ""}${failed ? ` (${row.non2xx} non-2xx, ${row.errors} errors, ${row.timeouts} timeouts under load)` : ""}`,
      );
    }
  }
  return lines;
}

export function adminMarkdown(results, m, checkLines) {
  const out = [];
  out.push(`Run of ${m.date} on ${m.nproc} CPU cores (${m.model}), Node ${m.node}; load average at start ${m.load}.`);
  out.push(
    `Signed in as an admin (every request renders); autocannon ${ADMIN.connections} connections, ${ADMIN.duration} s per URL after one ${ADMIN.warmup} s warm-up cycling through all of them, \`Accept-Encoding: gzip, deflate, br\`, on the same machine as the server.`,
  );
  if (BUSY) out.push("", `**The machine was already busy when this run started (load average ${m.load} on ${m.nproc} cores): other work shared the CPU, so req/s and latencies are lower and noisier than on an idle machine; server CPU ms/req is the figure least affected.**`);
  for (const r of results) {
    out.push("", `### ${label(r.kind)}`, "");
    if (r.skipped) {
      out.push(`SKIPPED: ${r.skipped}.`);
      continue;
    }
    const statuses = Object.entries(r.seeded.statuses ?? {})
      .map(([status, n]) => `${fmt(n, 0)} ${status}`)
      .join(", ");
    out.push(
      `Database: ${r.kind === "pglite" ? "PGlite (temporary DATA_DIR)" : r.origin}; ${fmt(r.seeded.total, 0)} products (${r.seeded.sample} sample, ${fmt(r.seeded.generated, 0)} generated: ${statuses}; ${fmt(r.seeded.featured, 0)} featured). Server memory: ${fmt(r.idleRssMb, 0)} MB RSS when ready, peak ${fmt(r.peakMb, 0)} MB (VmHWM).`,
      "",
    );
    out.push("| URL | what | status | found | req/s | p50 ms | p99 ms | max ms | non-2xx / errors | server CPU ms/req | body KB | load avg |");
    out.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const row of r.rows) {
      out.push(
        `| \`${row.path}\` | ${row.label}${row.problems.length ? ` (**content: ${row.problems.join("; ")}**)` : ""} | ${row.status} | ${fmt(row.total, 0)} | ${fmt(row.rps, 0)} | ${fmt(row.p50, 1)} | ${fmt(row.p99, 1)} | ${fmt(row.max, 1)} | ${row.non2xx} / ${row.errors + row.timeouts} | ${fmt(row.serverCpuPerReq, 1)} | ${fmt(row.htmlKb, 0)} | ${fmt(row.load1, 1)} |`,
      );
    }
    for (const e of r.explained ?? []) {
      out.push("", `EXPLAIN (ANALYZE, BUFFERS) of the queries of \`${e.path}\` (run after the load, listAdminProducts alone took ${fmt(e.ms, 1)} ms):`, "", "```sql");
      out.push(...explainLines(e).slice(0, -1), "```");
    }
  }
  out.push("", "Checks:", "", "```", ...checkLines, "```");
  return out.join("\n");
}
