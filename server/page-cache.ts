import { randomBytes } from "node:crypto";
import { gzip } from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * A shared cache of rendered public pages, in process: what a reverse proxy would do, but
 * purged by the catalogue's change events (see server/live.ts) so a stock figure is never
 * stale. Pages opt in with `Cache-Control: public` (app/lib/http.ts); anything sent with a
 * cookie (a signed-in visitor) bypasses it. Each stored page keeps the CSP nonce it was
 * rendered with: the body and its nonce were made together, so no injected markup can
 * know it, and hits are served with that same nonce in the CSP header.
 */
export type CachedPage = {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  gzip: Buffer | null;
  nonce: string;
  expiresAt: number;
  size: number;
};

const KEPT_HEADERS = ["content-type", "cache-control", "link", "x-robots-tag"] as const;

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;
  /** Bumped on every purge: a render that started before a purge is not stored after it. */
  generation = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly options: { maxBytes?: number; ttlMs?: number; now?: () => number } = {},
  ) {}

  private get now() {
    return (this.options.now ?? Date.now)();
  }

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.expiresAt <= this.now) {
      this.delete(key);
      return undefined;
    }
    // Least recently used goes first: re-insert to mark it used.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  set(key: string, page: Omit<CachedPage, "expiresAt" | "size" | "gzip">, generation: number): CachedPage | null {
    if (generation !== this.generation) return null;
    const maxBytes = this.options.maxBytes ?? 64 * 1024 * 1024;
    const size = page.body.length * 2 + key.length; // raw plus (about) its gzip copy, generously
    if (size > maxBytes / 8) return null;
    this.delete(key);
    const stored: CachedPage = { ...page, gzip: null, size, expiresAt: this.now + (this.options.ttlMs ?? 60_000) };
    this.pages.set(key, stored);
    this.bytes += size;
    for (const [oldest] of this.pages) {
      if (this.bytes <= maxBytes) break;
      this.delete(oldest);
    }
    return stored;
  }

  clear(): void {
    this.generation += 1;
    this.pages.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.pages.size;
  }

  private delete(key: string) {
    const page = this.pages.get(key);
    if (!page) return;
    this.bytes -= page.size;
    this.pages.delete(key);
  }
}

/** Only anonymous GETs share pages: a cookie or an Authorization header means "this visitor". */
export function isSharedRequest(req: Request): boolean {
  return (req.method === "GET" || req.method === "HEAD") && !req.headers.cookie && !req.headers.authorization;
}

function isStorable(res: Response): boolean {
  if (res.statusCode !== 200 || res.getHeader("set-cookie")) return false;
  const cacheControl = String(res.getHeader("cache-control") ?? "");
  return /(^|,)\s*public\b/.test(cacheControl) && !/no-store|private/.test(cacheControl);
}

/**
 * Three steps placed around helmet and compression in server/app.ts:
 * nonce (first: reuses a hit's nonce), serve (after helmet: sends a hit, gzipped when it can),
 * capture (just before React Router: stores what it renders).
 */
export function pageCacheMiddleware(cache: PageCache | undefined) {
  if (!cache) {
    const pass: RequestHandler = (_req, _res, next) => next();
    const nonce: RequestHandler = (_req, res, next) => {
      res.locals.nonce = randomBytes(16).toString("base64");
      next();
    };
    return { nonce, serve: pass, capture: pass };
  }
  const nonce: RequestHandler = (req, res, next) => {
    const hit = isSharedRequest(req) ? cache.get(req.originalUrl) : undefined;
    res.locals.cachedPage = hit;
    res.locals.nonce = hit?.nonce ?? randomBytes(16).toString("base64");
    next();
  };

  const serve: RequestHandler = (req, res, next) => {
    const page = res.locals.cachedPage as CachedPage | undefined;
    if (!page) return next();
    cache.hits += 1;
    res.status(page.status);
    for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
    res.setHeader("X-Cache", "HIT");
    res.setHeader("Vary", "Accept-Encoding");
    const gzipped = page.gzip !== null && req.acceptsEncodings("gzip") === "gzip";
    const body = gzipped ? page.gzip! : page.body;
    if (gzipped) res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
  };

  const capture = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" || !isSharedRequest(req)) return next();
    cache.misses += 1;
    res.setHeader("X-Cache", "MISS");
    const generation = cache.generation;
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk == null || typeof chunk === "function") return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as Response["end"];
    res.on("finish", () => {
      if (!isStorable(res)) return;
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const body = Buffer.concat(chunks);
      const stored = cache.set(req.originalUrl, { status: 200, headers, body, nonce: res.locals.nonce as string }, generation);
      if (stored) gzip(body, (error, zipped) => (stored.gzip = error ? null : zipped));
    });
    next();
  };

  return { nonce, serve, capture };
}
