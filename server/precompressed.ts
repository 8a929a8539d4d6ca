import fs from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

/** Encodings written beside each asset by the build (vite.config.ts `precompressAssets`), best first. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
};

/** Quality the browser gives each encoding (`*` included); absent means not accepted. */
function accepted(header: string | undefined): Map<string, number> {
  const qualities = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [token, ...params] = part.trim().toLowerCase().split(";");
    if (!token) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    qualities.set(token, q === undefined ? 1 : Number(q) || 0);
  }
  return qualities;
}

/** The smallest encoding on offer among those the browser accepts (its order of listing does not matter: Chrome lists gzip before br). */
export function bestEncoding(header: string | undefined, offered: readonly string[]) {
  const qualities = accepted(header);
  let best: (typeof ENCODINGS)[number] | undefined;
  let bestQ = 0;
  for (const encoding of ENCODINGS) {
    if (!offered.includes(encoding.name)) continue;
    const q = qualities.get(encoding.name) ?? qualities.get("*") ?? 0;
    if (q > bestQ) [best, bestQ] = [encoding, q];
  }
  return best;
}

/**
 * Serves `file.br` or `file.gz` when the browser accepts it and the build wrote one, so static
 * files cost no compression work per request (the framework chunk took about 45 ms of CPU to
 * gzip on every fresh visitor) and go out smaller (Brotli at its highest level). Anything else
 * falls through to express.static (and on-the-fly compression). `dir` is read once at start:
 * the build's files do not change while the server runs.
 */
export function precompressedFiles(dir: string, options: { maxAge: string; immutable: boolean }): RequestHandler {
  const available = new Set<string>();
  if (fs.existsSync(dir)) {
    for (const file of fs.readdirSync(dir)) {
      if (ENCODINGS.some((encoding) => file.endsWith(encoding.suffix))) available.add(file);
    }
  }
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || available.size === 0) return next();
    // Vite's file names: letters, digits, dots, dashes and underscores, never a folder.
    const name = req.path.slice(1);
    const type = CONTENT_TYPES[path.extname(name)];
    if (!type || !/^[\w.-]+$/.test(name)) return next();
    const offered = ENCODINGS.filter((encoding) => available.has(name + encoding.suffix)).map((encoding) => encoding.name);
    if (offered.length === 0) return next();
    res.vary("Accept-Encoding");
    const encoding = bestEncoding(req.headers["accept-encoding"], offered);
    if (!encoding) return next();
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Encoding", encoding.name);
    res.sendFile(name + encoding.suffix, { root: dir, maxAge: options.maxAge, immutable: options.immutable, dotfiles: "deny" }, (error) => {
      if (error && !res.headersSent) {
        res.removeHeader("Content-Encoding");
        next();
      }
    });
  };
}
