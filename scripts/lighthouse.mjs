#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse (mobile preset, its default config: simulated slow 4G and a
// 4x slower CPU) on the built server, on `/`, `/catalog` and a product page linked from
// `/catalog`, with Debian's Chromium. Five runs per page; the run with the median performance
// score is kept (Lighthouse's variability notes: the median of five halves the spread of one run;
// three left a page's score moving by several points from one call to the next here). Prints the four category scores and FCP/LCP/TBT/CLS/SI, and writes them into
// docs/performance.md ("Lighthouse (mobile)"). A measurement: it exits 0 whatever the scores,
// and non-zero only when the run failed (build, seed, server start, Chromium).
//
//   npm run lighthouse [-- --no-write]
// LIGHTHOUSE_RUNS (default 5), LIGHTHOUSE_PORT (default 24321), CHROME_PATH (default /usr/bin/chromium),
// LIGHTHOUSE_REPORTS: a directory to keep every run's JSON report in (to see the audits' details).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
// bench.mjs parses its own flags when imported: only `--no-write` (shared) is accepted here.
import { ensureBuild, root, seed, startServer } from "./bench.mjs";

const WRITE = !process.argv.includes("--no-write");
const REPORTS = process.env.LIGHTHOUSE_REPORTS;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? "5");
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? "24321");
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const METRICS = [
  ["first-contentful-paint", "FCP"],
  ["largest-contentful-paint", "LCP"],
  ["total-blocking-time", "TBT"],
  ["cumulative-layout-shift", "CLS"],
  ["speed-index", "SI"],
];
const TARGETS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };

/**
 * Lighthouse's trace recording fails now and then on this Chromium (NO_NAVSTART, NO_FCP: "Please
 * run Lighthouse again"): such a run is repeated, up to twice; any other error ends the run.
 */
const RETRIED_ERRORS = new Set(["NO_NAVSTART", "NO_FCP"]);

/** One Lighthouse run: scores out of 100, metrics in ms (CLS unitless), failing audits' ids. */
async function audit(url, port, attempt = 1) {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
  const { lhr } = result;
  if (lhr.runtimeError && RETRIED_ERRORS.has(lhr.runtimeError.code) && attempt < 3) {
    console.log(`  ${url}: ${lhr.runtimeError.code}, run again`);
    return audit(url, port, attempt + 1);
  }
  if (REPORTS) {
    fs.mkdirSync(REPORTS, { recursive: true });
    fs.writeFileSync(path.join(REPORTS, `${new URL(url).pathname.replace(/\W+/g, "_")}-${Date.now()}.json`), result.report);
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
  const metrics = Object.fromEntries(METRICS.map(([id, short]) => [short, lhr.audits[id]?.numericValue ?? NaN]));
  // What keeps a category under 100: audits of that category scored below 1 (weight > 0).
  const failing = CATEGORIES.flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && lhr.audits[ref.id]?.score < 1)
      .map((ref) => `${id}: ${ref.id} (${lhr.audits[ref.id].displayValue ?? lhr.audits[ref.id].score})`),
  );
  return { scores, metrics, failing, version: lhr.lighthouseVersion };
}

const median = (runs) => [...runs].sort((a, b) => a.scores.performance - b.scores.performance)[Math.floor((runs.length - 1) / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const formatMetric = (short, value) => (short === "CLS" ? value.toFixed(3) : short === "TBT" ? `${Math.round(value)} ms` : seconds(value));

function markdown(pages, load, chromium) {
  const lines = [
    `Run of ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} with Lighthouse ${pages.version} (mobile preset: simulated slow 4G, 4x CPU slowdown) on ${chromium},`,
    `${os.cpus().length} CPU cores, load average at start ${load.map((n) => n.toFixed(2)).join(" / ")}. ${RUNS} runs per page, the run with the median performance score shown.`,
    "",
    "| Page | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS | SI |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const page of pages.results) {
    const { scores, metrics } = page.kept;
    lines.push(
      `| \`${page.path}\` | ${scores.performance} (${page.runs.map((run) => run.scores.performance).join(", ")}) | ${scores.accessibility} | ${scores["best-practices"]} | ${scores.seo} | ` +
        METRICS.map(([, short]) => formatMetric(short, metrics[short])).join(" | ") +
        " |",
    );
  }
  return lines.join("\n");
}

const START = "<!-- lighthouse:start (written by `npm run lighthouse`, do not edit by hand) -->";
const END = "<!-- lighthouse:end -->";

function writeDoc(section) {
  const file = path.join(root, "docs", "performance.md");
  const doc = fs.readFileSync(file, "utf8");
  const block = `${START}\n${section}\n${END}`;
  const start = doc.indexOf("<!-- lighthouse:start");
  const end = doc.indexOf(END);
  const next =
    start !== -1 && end > start
      ? doc.slice(0, start) + block + doc.slice(end + END.length)
      : `${doc.trimEnd()}\n\n## Lighthouse (mobile)\n\n\`npm run lighthouse\` (\`scripts/lighthouse.mjs\`): the built server on a seeded PGlite database, Lighthouse's mobile preset on Debian's Chromium. In brackets, the performance score of each run.\n\n${block}\n`;
  fs.writeFileSync(file, next);
  console.log(`\nwrote ${path.relative(root, file)}`);
}

async function main() {
  ensureBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-lighthouse-"));
  let server = null;
  let chrome = null;
  try {
    const seeded = seed({ DATA_DIR: dataDir });
    console.log(`seeded ${seeded.total} products`);
    server = await startServer({ DATA_DIR: dataDir }, PORT);
    const catalog = await (await fetch(`${server.base}/catalog`)).text();
    const product = /href="(\/product\/\d+-[^"?#]+)"/.exec(catalog)?.[1];
    if (!product) throw new Error("no /product/{id}-{slug} link in /catalog");
    const paths = ["/", "/catalog", product];
    for (const p of paths) await fetch(server.base + p); // rendered once: the runs measure the cached page

    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    const chromium = spawnSync(CHROME_PATH, ["--version"], { encoding: "utf8" }).stdout.trim() || "Chromium";
    const load = os.loadavg();
    console.log(`${chromium}, load average ${load.map((n) => n.toFixed(2)).join(" / ")}`);
    const results = [];
    for (const p of paths) {
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) {
        const run = await audit(server.base + p, chrome.port);
        runs.push(run);
        console.log(`  ${p} run ${i + 1}: ${CATEGORIES.map((id) => `${id} ${run.scores[id]}`).join(", ")}`);
      }
      const kept = median(runs);
      results.push({ path: p, runs, kept });
      console.log(
        `${p}: ${CATEGORIES.map((id) => `${id} ${kept.scores[id]}`).join(", ")} | ` + METRICS.map(([, short]) => `${short} ${formatMetric(short, kept.metrics[short])}`).join(", "),
      );
      for (const line of kept.failing) console.log(`    below 100: ${line}`);
    }
    for (const page of results) {
      for (const id of CATEGORIES) {
        const score = page.kept.scores[id];
        console.log(`${score >= TARGETS[id] ? "PASS" : "FAIL"}  ${page.path}: ${id} ${score} (target ${TARGETS[id]})`);
      }
    }
    if (WRITE) writeDoc(markdown({ results, version: results[0].kept.version }, load, chromium));
    return 0;
  } catch (error) {
    console.error(`lighthouse: ${error.stack ?? error}`);
    if (server) console.error(server.output());
    return 1;
  } finally {
    await chrome?.kill();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exit(await main());
