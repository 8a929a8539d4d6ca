import { type Server, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import express from "express";
import { describe, expect, it } from "vitest";
import { PageCache, acceptsGzip, pageCacheMiddleware, privateWhenPersonal, servePageFromCache } from "./page-cache";

const page = (body: string) => ({ status: 200, headers: { "content-type": "text/html" }, body: Buffer.from(body), nonce: "n" });

describe("PageCache", () => {
  it("serves what it stored until it expires", () => {
    let now = 1_000;
    const cache = new PageCache({ ttlMs: 60_000, now: () => now });
    cache.set("/catalog", page("a"), cache.generation);
    expect(cache.get("/catalog")?.body.toString()).toBe("a");
    now += 60_000;
    expect(cache.get("/catalog")).toBeUndefined();
  });

  it("forgets everything on a purge, and refuses a render that started before it", () => {
    const cache = new PageCache();
    const startedAt = cache.generation;
    cache.set("/a", page("a"), startedAt);
    cache.clear();
    expect(cache.get("/a")).toBeUndefined();
    // A render begun before the purge may show the old stock: it must not be stored.
    expect(cache.set("/b", page("stale"), startedAt)).toBeNull();
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.set("/b", page("fresh"), cache.generation)).not.toBeNull();
  });

  it("evicts the least recently used pages beyond its byte budget", () => {
    const cache = new PageCache({ maxBytes: 10_000 });
    const body = "x".repeat(600); // stored size about 1.2 kB
    for (const key of ["/1", "/2", "/3", "/4", "/5", "/6", "/7", "/8"]) cache.set(key, page(body), cache.generation);
    cache.get("/1"); // used: kept
    cache.set("/9", page(body), cache.generation);
    expect(cache.get("/1")).toBeDefined();
    expect(cache.get("/2")).toBeUndefined();
    expect(cache.get("/9")).toBeDefined();
  });

  it("does not store a page too large for its budget", () => {
    const cache = new PageCache({ maxBytes: 1_000 });
    expect(cache.set("/big", page("x".repeat(1_000)), cache.generation)).toBeNull();
  });
});

describe("PageCache renders in progress", () => {
  it("lets one request render a page while the others wait for what it stores", async () => {
    const cache = new PageCache();
    const done = cache.startRender("/catalog");
    expect(done).not.toBeNull();
    expect(cache.startRender("/catalog")).toBeNull(); // already being rendered
    const waiting = [cache.waitFor("/catalog"), cache.waitFor("/catalog")];
    const stored = cache.set("/catalog", page("rendered once"), cache.generation);
    done!(stored);
    const pages = await Promise.all(waiting);
    expect(pages.map((p) => p?.body.toString())).toEqual(["rendered once", "rendered once"]);
    // Finished: the next miss renders again.
    expect(cache.startRender("/catalog")).not.toBeNull();
  });

  it("gives the waiting requests nothing when the render has nothing to share, or takes too long", async () => {
    const cache = new PageCache();
    const done = cache.startRender("/missing");
    const waiting = cache.waitFor("/missing");
    done!(null); // a 404, a private answer, an aborted request
    expect(await waiting).toBeNull();

    cache.startRender("/slow");
    expect(await cache.waitFor("/slow", 20)).toBeNull();
    // Whoever claimed it may never finish (a lost request): the next one renders rather than waits.
    expect(cache.startRender("/slow")).not.toBeNull();
    expect(await cache.waitFor("/nobody-renders-this")).toBeNull();
  });

  it("does not make requests arriving after a purge wait for a render begun before it", async () => {
    const cache = new PageCache();
    const before = cache.startRender("/catalog");
    cache.clear();
    expect(await cache.waitFor("/catalog", 20)).toBeNull();
    const after = cache.startRender("/catalog");
    expect(after).not.toBeNull();
    before!(null); // the old render ending does not end the new one
    expect(cache.startRender("/catalog")).toBeNull();
  });
});

/** A visitor's page a moment after others left (their connections closed): its body, and how long it took. */
async function nextVisit(base: string, path: string): Promise<{ body: string; ms: number }> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  const body = await (await fetch(`${base}${path}`)).text();
  return { body, ms: Date.now() - started };
}

describe("pageCacheMiddleware", () => {
  /** An app whose only page takes 50 ms to render, counting its renders; hits answered ahead of it as in server/app.ts. */
  async function slowPageServer() {
    const cache = new PageCache();
    const middleware = pageCacheMiddleware(cache);
    const app = express();
    let renders = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    app.use(middleware.nonce);
    app.use(privateWhenPersonal);
    app.use((_req, res, next) => {
      // As helmet does: security headers, the CSP with this answer's nonce.
      res.setHeader("Content-Security-Policy", `script-src 'nonce-${res.locals.nonce}'`);
      res.setHeader("X-Frame-Options", "SAMEORIGIN");
      next();
    });
    // A step that looks elsewhere before the page (express.static looks at the disk).
    app.use((req, _res, next) => (req.path === "/late-page" ? setTimeout(next, 40) : next()));
    app.use(middleware.capture);
    app.get("/late-page", (_req, res) => {
      renders += 1;
      res.setHeader("Cache-Control", "public, max-age=0");
      res.type("html").send("Page tardive");
    });
    // A page that read the session (getViewer marks it personal), though its route says public.
    app.get("/greeting", (req, res) => {
      renders += 1;
      res.locals.personal = true;
      res.setHeader("Cache-Control", "public, max-age=0");
      res.type("html").send(`Bonjour ${req.headers.cookie ?? "inconnu"}`);
    });
    // A slow page that read the session: nothing to share with the requests that waited for it.
    app.get("/account-page", (_req, res) => {
      renders += 1;
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.locals.personal = true;
        res.type("html").send("Votre compte");
      }, 50);
    });
    app.get("/page", (_req, res) => {
      renders += 1;
      setTimeout(() => {
        res.setHeader("Cache-Control", "public, max-age=0");
        res.type("html").send(`<script nonce="${res.locals.nonce}"></script> render ${renders}`);
      }, 50);
    });
    const early = servePageFromCache(cache);
    const server = await new Promise<Server>((resolve) => {
      const s = createServer((req, res) => early(req, res) || app(req, res)).listen(0, "127.0.0.1", () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    return { base: `http://127.0.0.1:${port}`, cache, renders: () => renders, mostInFlight: () => mostInFlight, close: () => new Promise((r) => server.close(r)) };
  }

  it("does not keep later visitors waiting for a render that visitors who left had claimed", async () => {
    const server = await slowPageServer();
    try {
      // They leave (10 ms) while the first renders and the others wait for it.
      const left = await Promise.allSettled(Array.from({ length: 6 }, () => fetch(`${server.base}/account-page`, { signal: AbortSignal.timeout(10) }).then((a) => a.text())));
      expect(left.every((outcome) => outcome.status === "rejected")).toBe(true);
      const next = await nextVisit(server.base, "/account-page");
      expect(next.body).toBe("Votre compte");
      // Without the fix: the waiters' 10 s timeout.
      expect(next.ms).toBeLessThan(2_000);
    } finally {
      await server.close();
    }
  });

  it("does not keep later visitors waiting for a render claimed by a visitor who left before it began", async () => {
    const server = await slowPageServer();
    try {
      // It leaves (10 ms) while an earlier step still holds it (40 ms).
      await expect(fetch(`${server.base}/late-page`, { signal: AbortSignal.timeout(10) }).then((a) => a.text())).rejects.toThrow();
      const next = await nextVisit(server.base, "/late-page");
      expect(next.body).toBe("Page tardive");
      // Without the fix: the 10 s wait for a render nobody does.
      expect(next.ms).toBeLessThan(2_000);
    } finally {
      await server.close();
    }
  });

  it("renders a page that read the session side by side once it is known to, not one request after another", async () => {
    const server = await slowPageServer();
    try {
      await (await fetch(`${server.base}/account-page`)).text();
      const bodies = await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.base}/account-page`).then((a) => a.text())));
      expect(bodies).toEqual(Array(4).fill("Votre compte"));
      // Without the memory: the first renders alone while the three others wait for it.
      expect(server.mostInFlight()).toBe(4);
    } finally {
      await server.close();
    }
  });

  it("renders a page once for a burst of requests, each answer with the nonce its CSP allows", async () => {
    const server = await slowPageServer();
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.base}/page`)));
      const bodies = await Promise.all(answers.map((a) => a.text()));
      expect(server.renders()).toBe(1);
      expect(new Set(bodies)).toEqual(new Set(["" + bodies[0]]));
      expect(answers.filter((a) => a.headers.get("x-cache") === "MISS")).toHaveLength(1);
      for (const [i, answer] of answers.entries()) {
        const nonce = /nonce="([^"]+)"/.exec(bodies[i]!)?.[1];
        expect(answer.headers.get("content-security-policy")).toBe(`script-src 'nonce-${nonce}'`);
      }
    } finally {
      await server.close();
    }
  });

  it("serves a hit before the app runs, with the page's headers and nonce, gzipped when asked, without a body for HEAD", async () => {
    const server = await slowPageServer();
    try {
      const first = await fetch(`${server.base}/page`);
      const body = await first.text();
      const nonce = /nonce="([^"]+)"/.exec(body)?.[1];
      expect(first.headers.get("x-cache")).toBe("MISS");
      await new Promise((r) => setTimeout(r, 20)); // the gzipped copy is made after the answer

      const hit = await get(`${server.base}/page`, { "accept-encoding": "gzip" });
      expect(hit.headers["x-cache"]).toBe("HIT");
      expect(hit.headers["content-encoding"]).toBe("gzip");
      expect(hit.headers["content-security-policy"]).toBe(`script-src 'nonce-${nonce}'`);
      expect(hit.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(hit.headers["cache-control"]).toBe("public, max-age=0");
      expect(gunzipSync(hit.body).toString()).toBe(body);

      const plain = await get(`${server.base}/page`, { "accept-encoding": "gzip;q=0, br" });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.toString()).toBe(body);

      const head = await get(`${server.base}/page`, {}, "HEAD");
      expect(head.headers["x-cache"]).toBe("HIT");
      expect(head.body.length).toBe(0);

      // A signed-in visitor's browser sends cookies: the page does not depend on them, it is shared.
      const signedIn = await get(`${server.base}/page`, { cookie: "session_token=x" });
      expect(signedIn.headers["x-cache"]).toBe("HIT");
      expect(signedIn.body.toString()).toBe(body);
      // An Authorization header still means "this client only".
      const authorized = await get(`${server.base}/page`, { authorization: "Basic eDp5" });
      expect(authorized.headers["x-cache"]).toBeUndefined();
      expect(server.renders()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("never stores nor lets anyone keep an answer that read the session", async () => {
    const server = await slowPageServer();
    try {
      for (const cookie of ["session_token=alice", "session_token=bob"]) {
        const answer = await get(`${server.base}/greeting`, { cookie });
        expect(answer.body.toString()).toBe(`Bonjour ${cookie}`);
        expect(answer.headers["cache-control"]).toBe("private, no-store");
        expect(answer.headers["x-cache"]).toBe("MISS");
      }
      expect(server.renders()).toBe(2);
      expect([...server.cache.entries()].map(([key]) => key)).not.toContain("/greeting");
    } finally {
      await server.close();
    }
  });
});

/** A raw GET (fetch would decode gzip and hide the encoding). */
function get(url: string, headers: Record<string, string>, method = "GET") {
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("acceptsGzip", () => {
  it("reads Accept-Encoding as HTTP says", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("*;q=0")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
