// When the production build must be (re)made: it is missing, or older than its sources.
// Shared by `npm start` (scripts/start.mjs) and `npm run bench` (scripts/bench.mjs).
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stamps = ["index.js", "main.js"].map((file) => path.join(root, "build", "server", file));
const sources = ["app", "server", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** "missing", "stale" or "fresh". */
export function buildState() {
  const builtAt = Math.min(...stamps.map((stamp) => (fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0)));
  if (builtAt === 0) return "missing";
  return sources.some((source) => newestMtime(source) > builtAt) ? "stale" : "fresh";
}
