import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bestEncoding, precompressedFiles } from "./precompressed";

describe("bestEncoding", () => {
  it("prefers Brotli whatever the order the browser lists them in", () => {
    expect(bestEncoding("gzip, deflate, br, zstd", ["br", "gzip"])?.name).toBe("br");
    expect(bestEncoding("br, gzip", ["br", "gzip"])?.name).toBe("br");
  });
  it("honours q-values, q=0 and the wildcard", () => {
    expect(bestEncoding("br;q=0.5, gzip", ["br", "gzip"])?.name).toBe("gzip");
    expect(bestEncoding("br;q=0, gzip;q=0.2", ["br", "gzip"])?.name).toBe("gzip");
    expect(bestEncoding("*", ["gzip"])?.name).toBe("gzip");
    expect(bestEncoding("gzip;q=0", ["gzip"])).toBeUndefined();
  });
  it("gives nothing when the browser accepts none of what is on offer", () => {
    expect(bestEncoding(undefined, ["br", "gzip"])).toBeUndefined();
    expect(bestEncoding("identity", ["br", "gzip"])).toBeUndefined();
    expect(bestEncoding("br", ["gzip"])).toBeUndefined();
  });
});

describe("precompressedFiles", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-precompressed-"));
  const script = "export const hello = 'bonjour';\n".repeat(100);
  let base = "";
  let server: http.Server;

  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, "app-x1.js"), script);
    fs.writeFileSync(path.join(dir, "app-x1.js.br"), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dir, "app-x1.js.gz"), zlib.gzipSync(script));
    fs.writeFileSync(path.join(dir, "plain-x2.js"), script);
    const app = express();
    app.use(compression());
    const options = { maxAge: "1y", immutable: true };
    app.use("/assets", precompressedFiles(dir, options), express.static(dir, { ...options, index: false }));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Raw bytes and headers, undecoded (fetch would decompress). */
  function get(pathname: string, acceptEncoding?: string, method = "GET") {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(base + pathname, { method, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("serves the Brotli file as it is, typed as the script and cached like it", async () => {
    const res = await get("/assets/app-x1.js", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.body.equals(fs.readFileSync(path.join(dir, "app-x1.js.br")))).toBe(true);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it("serves the gzip file to a browser without Brotli", async () => {
    const res = await get("/assets/app-x1.js", "gzip");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(res.body).toString()).toBe(script);
  });

  it("falls back to the plain file for a client that accepts no compression", async () => {
    const res = await get("/assets/app-x1.js");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(script);
  });

  it("leaves a file without a compressed copy to express.static and on-the-fly compression", async () => {
    const res = await get("/assets/plain-x2.js", "gzip");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(res.body).toString()).toBe(script);
  });

  it("answers HEAD with the headers only, and 404 for a missing file or a path out of the folder", async () => {
    const head = await get("/assets/app-x1.js", "br", "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
    expect((await get("/assets/missing.js", "br")).status).toBe(404);
    expect((await get("/assets/..%2Fapp-x1.js", "br")).status).toBe(404);
  });
});
