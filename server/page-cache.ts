import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzip } from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { PRIVATE_PAGE_CACHE_CONTROL, isSharedCacheControl } from "~/lib/http";

/**
 * A shared cache of rendered public pages, in process: what a reverse proxy would do, but
 * purged by the catalogue's change events (see server/live.ts) so a stock figure is never
 * stale. Pages opt in with `Cache-Control: public` (app/lib/http.ts). Their HTML is the same
 * for every visitor (the header's signed-in parts are filled in by the browser), so signed-in
 * visitors share it too; an answer that read the session (getViewer) is marked personal and
 * never stored (`privateWhenPersonal`). Each stored page keeps the CSP nonce it was rendered
 * with: the body and its nonce were made together, so no injected markup can know it, and
 * hits are served with that same nonce in the CSP header.
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

/**
 * Headers that belong to one answer, not to the page. Every other header of the rendered
 * answer is kept with it (helmet's included, its CSP carrying the page's own nonce), so that a
 * hit can be served before Express runs at all.
 */
const PER_ANSWER_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "set-cookie", "x-cache", "vary"]);

/** A render of a page under way, which requests for the same page wait for (see `PageCache.waitFor`). */
type Render = { generation: number; done: Promise<CachedPage | null>; settle: (page: CachedPage | null) => void };

export class PageCache {
  /** At most `maxBytes` of pages (each its `size`), the least recently served dropped first. */
  private readonly pages: LRUCache<string, CachedPage>;
  private readonly renders = new Map<string, Render>();
  /** Pages whose last render read the session (an admin's, an account's): never shared, so never waited for. */
  private readonly personal = new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });
  /** Bumped on every purge: a render that started before a purge is not stored after it. */
  generation = 0;
  /** Shared pages served from the cache, shared with a render under way, and rendered (/metrics). */
  readonly counts = { hits: 0, shared: 0, renders: 0 };

  constructor(
    private readonly options: { maxBytes?: number; ttlMs?: number; now?: () => number } = {},
  ) {
    this.pages = new LRUCache({ maxSize: this.maxBytes, sizeCalculation: (page) => page.size });
  }

  private get maxBytes() {
    return this.options.maxBytes ?? 64 * 1024 * 1024;
  }

  private get now() {
    return (this.options.now ?? Date.now)();
  }

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.expiresAt <= this.now) {
      this.pages.delete(key);
      return undefined;
    }
    return page;
  }

  set(key: string, page: Omit<CachedPage, "expiresAt" | "size" | "gzip">, generation: number): CachedPage | null {
    if (generation !== this.generation) return null;
    const size = page.body.length * 2 + key.length; // raw plus (about) its gzip copy, generously
    if (size > this.maxBytes / 8) return null;
    const stored: CachedPage = { ...page, gzip: null, size, expiresAt: this.now + (this.options.ttlMs ?? 60_000) };
    this.pages.set(key, stored);
    return stored;
  }

  /** What is stored (most recently used first), for tests that look at the shared bytes themselves. */
  entries(): IterableIterator<[string, CachedPage]> {
    return this.pages.entries();
  }

  rememberPersonal(key: string): void {
    this.personal.set(key, true);
  }

  wasPersonal(key: string): boolean {
    return this.personal.has(key);
  }

  clear(): void {
    this.generation += 1;
    this.pages.clear();
    // Requests arriving after a purge must not wait for a page rendered before it.
    this.renders.clear();
  }

  /**
   * Claims the render of `key` for the calling request, unless another request is already
   * rendering it (then null: wait for it with `waitFor`). The caller must call the returned
   * function once its answer is done, with what it stored (or null: nothing to share).
   */
  startRender(key: string): ((page: CachedPage | null) => void) | null {
    if (this.renders.has(key)) return null;
    let settle!: (page: CachedPage | null) => void;
    const done = new Promise<CachedPage | null>((resolve) => (settle = resolve));
    const render: Render = { generation: this.generation, done, settle };
    this.renders.set(key, render);
    return (page) => {
      if (this.renders.get(key) === render) this.renders.delete(key);
      render.settle(page);
    };
  }

  /**
   * The page another request is rendering for `key`, once it is stored: a burst of requests for
   * a page that is not cached (first visit, or just after a purge) costs one render, not one
   * each. Null when nobody is rendering it, when that render gave nothing to share (not a 200,
   * private, or a purge came in between) or when it takes longer than `timeoutMs`.
   */
  async waitFor(key: string, timeoutMs = 10_000): Promise<CachedPage | null> {
    const render = this.renders.get(key);
    if (!render) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
      timer.unref?.();
    });
    try {
      const page = await Promise.race([render.done, timeout]);
      // A render that never ends (its request lost) must not hold every later request too.
      if (page === null && this.renders.get(key) === render) this.renders.delete(key);
      return page && page.expiresAt > this.now ? page : null;
    } finally {
      clearTimeout(timer);
    }
  }

}

/**
 * GETs share pages, with or without cookies: what a page shows never depends on them, and a
 * page that reads the session is never stored. An Authorization header (an API client, basic
 * auth in front of a staging shop) still means "this visitor only".
 */
export function isSharedRequest(req: IncomingMessage): boolean {
  return (req.method === "GET" || req.method === "HEAD") && !req.headers.authorization;
}

/**
 * Every answer marked personal (AppContext.markPersonal, called by getViewer) goes out
 * `private, no-store`, whatever its route's headers say: neither this cache, a CDN nor a
 * browser's shared cache may keep it. Patched on writeHead, which every answer passes through.
 */
export const privateWhenPersonal: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
  res.writeHead = ((...args: unknown[]) => {
    if (res.locals.personal) res.setHeader("Cache-Control", PRIVATE_PAGE_CACHE_CONTROL);
    return writeHead(...args);
  }) as Response["writeHead"];
  next();
};

function isStorable(res: Response): boolean {
  if (res.statusCode !== 200 || res.getHeader("set-cookie") || res.locals.personal) return false;
  return isSharedCacheControl(String(res.getHeader("cache-control") ?? ""));
}

/**
 * Answers a stored page on the bare HTTP server, ahead of Express (server/app.ts): a hit costs
 * a map lookup and one write, which matters when hundreds of open pages refetch at once after
 * a stock change (a drop). Returns whether it answered.
 */
export function servePageFromCache(cache: PageCache | undefined): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (!cache || !isSharedRequest(req)) return false;
    const page = cache.get(req.url ?? "");
    if (!page) return false;
    cache.counts.hits += 1;
    sendPage(req, res, page);
    return true;
  };
}

/**
 * Two steps placed around helmet and compression in server/app.ts: nonce (first: a fresh
 * nonce for the CSP and the render) and capture (just before React Router: stores what it
 * renders). Hits never reach them (`servePageFromCache`).
 */
export function pageCacheMiddleware(cache: PageCache | undefined) {
  const nonce: RequestHandler = (_req, res, next) => {
    res.locals.nonce = randomBytes(16).toString("base64");
    next();
  };
  if (!cache) return { nonce, capture: ((_req, _res, next) => next()) as RequestHandler };

  const capture = async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" || !isSharedRequest(req)) return next();
    // The visitor left during an earlier step (express.static's look at the disk, say): its
    // 'close' has fired already, so a render claimed now would never be released, and every
    // request for this page would wait for it (10 s each).
    if (req.socket.destroyed) return;
    const key = req.originalUrl;
    // A page that read the session last time will again: nothing to share, so its requests
    // render side by side rather than one after the other.
    const shareable = !cache.wasPersonal(key);
    let done = shareable ? cache.startRender(key) : null;
    if (shareable && !done) {
      // Another request is rendering this page: answer with its result rather than render it
      // again. Checked and claimed here, in one step: an earlier check (before helmet) would
      // leave a gap (express.static looks at the disk) in which a burst all render.
      const page = await cache.waitFor(key);
      if (page) {
        cache.counts.shared += 1;
        // Helmet already wrote this request's own nonce into the CSP: the page carries the one
        // it was rendered with.
        const csp = res.getHeader("content-security-policy");
        if (typeof csp === "string") res.setHeader("content-security-policy", csp.replaceAll(`'nonce-${res.locals.nonce}'`, `'nonce-${page.nonce}'`));
        res.locals.nonce = page.nonce;
        return sendPage(req, res, page);
      }
      // The visitor left while waiting (see above).
      if (req.socket.destroyed) return;
      done = cache.startRender(key);
    }
    res.setHeader("X-Cache", "MISS");
    cache.counts.renders += 1;
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
    // An aborted answer ("close" without "finish") gives the waiting requests nothing.
    res.on("close", () => {
      if (!res.writableFinished) done?.(null);
    });
    res.on("finish", () => {
      if (res.locals.personal) cache.rememberPersonal(key);
      if (!isStorable(res)) return done?.(null);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value !== undefined && !PER_ANSWER_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
      }
      const body = Buffer.concat(chunks);
      const stored = cache.set(key, { status: 200, headers, body, nonce: res.locals.nonce as string }, generation);
      if (!stored) return done?.(null);
      // Waiting requests are answered once the gzipped copy is there (most clients want it).
      gzip(body, (error, zipped) => {
        stored.gzip = error ? null : zipped;
        done?.(stored);
      });
    });
    next();
  };

  return { nonce, capture };
}

/** Answers with a stored page, gzipped when the client takes it. */
function sendPage(req: IncomingMessage, res: ServerResponse, page: CachedPage) {
  res.statusCode = page.status;
  for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
  res.setHeader("X-Cache", "HIT");
  res.setHeader("Vary", "Accept-Encoding");
  const gzipped = page.gzip !== null && acceptsGzip(req.headers["accept-encoding"]);
  const body = gzipped ? page.gzip! : page.body;
  if (gzipped) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Whether an Accept-Encoding header takes gzip (listed, or `*`, and not with q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const refused = q !== undefined && Number(q.slice(2)) === 0;
    if (coding.trim() === "gzip") return !refused;
    if (coding.trim() === "*") star = !refused;
  }
  return star;
}
