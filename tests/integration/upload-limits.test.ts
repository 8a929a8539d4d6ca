import fs from "node:fs";
import http from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, onPostgresPass, suiteServerDataDir, suiteServerDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

/**
 * /rachat attacked on the built server: ten posts of 50 MB at once. Before the streaming reader
 * (lib/multipart.server.ts) each was buffered whole and copied into its parts, then its photos
 * decoded: ~2 GB for ten. Now each stops at the first photo over 10 MB (413), and the server
 * process stays under 600 MB resident at its peak (VmHWM). A genuine post still goes through.
 */

const MB = 1024 * 1024;
const BOUNDARY = "----comptoir-attack";
const FIELDS = { lastName: "Curie", firstName: "Marie", email: "marie.curie@example.fr", phone: "0601020304", message: "Une collection de cartes Base Set à estimer." };

/** The server process's peak and current resident memory, in MB. */
function memoryOf(pid: number): { peakMb: number; residentMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { peakMb: kb("VmHWM") / 1024, residentMb: kb("VmRSS") / 1024 };
}

/**
 * A buy-back post of `photos` files of `photoBytes` each, sent as it is made (64 KB writes,
 * waiting when the socket is full), with its length declared or chunked. Resolves with the
 * status once the answer comes: the server answers a refusal while the client still sends, then
 * closes the connection, and the writes after that fail (EPIPE, a reset), as a browser's would.
 */
function attack(url: string, { photos, photoBytes, chunked }: { photos: number; photoBytes: number; chunked: boolean }) {
  const head = Object.entries(FIELDS)
    .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join("");
  const partHead = (i: number) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="photo-${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  const tail = `--${BOUNDARY}--\r\n`;
  const length = Buffer.byteLength(head) + Array.from({ length: photos }, (_, i) => Buffer.byteLength(partHead(i)) + photoBytes + 2).reduce((a, b) => a + b, 0) + Buffer.byteLength(tail);
  return new Promise<{ status: number; sentMb: number }>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request(`${url}/rachat`, {
      method: "POST",
      agent: false,
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, origin: url, ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(length) }) },
    });
    request.on("response", (response) => {
      answered = true;
      response.resume();
      resolve({ status: response.statusCode!, sentMb: sent / MB });
      request.destroy();
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 0xff);
    const write = (bytes: Buffer | string) => {
      if (answered || request.destroyed) return Promise.resolve();
      sent += Buffer.byteLength(bytes);
      return request.write(bytes) ? Promise.resolve() : new Promise<void>((done) => request.once("drain", done).once("close", done));
    };
    void (async () => {
      await write(head);
      for (let i = 0; i < photos && !answered; i++) {
        await write(partHead(i));
        for (let left = photoBytes; left > 0 && !answered; left -= chunk.length) await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
        await write("\r\n");
      }
      await write(tail);
      if (!answered && !request.destroyed) request.end();
    })();
  });
}

describe.skipIf(onPostgresPass)(`/rachat under ten parallel 50 MB posts on ${databaseLabel}`, runsOn("PGlite"), () => {
  const dataDir = suiteServerDataDir("comptoir-uploads-");
  const database = suiteServerDatabase("comptoir_uploads");
  let server: RunningServer;

  beforeAll(async () => {
    ensureBuild();
    server = await startServer({ DATA_DIR: dataDir, ...database });
  });
  afterAll(async () => {
    // 0: stopped at once, no connection left open (else it is forced out after 10 s, with 1).
    expect(await server?.stop()).toBe(0);
  });

  it("refuses each with a 413 or a 429 and keeps the server under 600 MB resident", async () => {
    const pid = server.child.pid!;
    const before = memoryOf(pid);
    // Half one photo of 50 MB, half five of 10 MB and a byte; half with their length, half chunked.
    const posts = Array.from({ length: 10 }, (_, i) => attack(server.url, { ...(i % 2 === 0 ? { photos: 1, photoBytes: 50 * MB } : { photos: 5, photoBytes: 10 * MB + 1 }), chunked: i % 4 >= 2 }));
    const answers = await Promise.all(posts);
    const after = memoryOf(pid);
    console.info(`server memory: ${before.peakMb.toFixed(0)} MB peak before the posts, ${after.peakMb.toFixed(0)} MB peak after (VmHWM), ${after.residentMb.toFixed(0)} MB resident now; sent before the answer: ${answers.map((a) => a.sentMb.toFixed(1)).join(", ")} MB`);
    for (const answer of answers) expect([413, 429]).toContain(answer.status);
    expect(after.peakMb).toBeLessThan(600);
    // The server read little of each: it answered at the first photo over 10 MB.
    for (const answer of answers) expect(answer.sentMb).toBeLessThan(45);
  }, 120_000);

  it("still takes a genuine buy-back request with two small photos", async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...FIELDS, email: "irene.curie@example.fr" })) form.append(name, value);
    const photo = (background: string) => sharp({ create: { width: 800, height: 600, channels: 3, background } }).jpeg().toBuffer();
    form.append("photos", new Blob([new Uint8Array(await photo("#c33"))], { type: "image/jpeg" }), "classeur.jpg");
    form.append("photos", new Blob([new Uint8Array(await photo("#33c"))], { type: "image/jpeg" }), "detail.jpg");
    const sent = await fetch(`${server.url}/rachat`, { method: "POST", body: form, headers: { origin: server.url } });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Rachat de collection");
    const stored = fs.readdirSync(dataDir, { recursive: true, encoding: "utf8" }).filter((file) => /rachat_\d+_[0-9a-f]+\.webp$/.test(file));
    expect(stored).toHaveLength(2);
  }, 60_000);

  it("answers a chunked form post past its ceiling with the French 413, not a reset", async () => {
    // /contact's ceiling is 1 MB; 20 MB sent without a length, so only reading finds it out.
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(`${server.url}/contact`, { method: "POST", agent: false, headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked", origin: server.url } });
      let answered = false;
      request.on("response", (response) => {
        answered = true;
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve({ status: response.statusCode!, text }));
      });
      request.on("error", (error) => !answered && reject(error));
      void (async () => {
        request.write("message=");
        const chunk = "a".repeat(64 * 1024);
        for (let i = 0; i < 320 && !answered && !request.destroyed; i++) {
          if (!request.write(chunk)) await new Promise((done) => request.once("drain", done).once("close", done));
        }
        if (!answered && !request.destroyed) request.end();
      })();
    });
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("L&#x27;envoi est trop volumineux (le message est bien trop long).");
  }, 60_000);

  it("refuses an address over its limit with a 429 before reading its post", async () => {
    // The genuine request above counted once; nine more reach the limit (10 an hour per address).
    for (let i = 0; i < 9; i++) {
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...FIELDS, email: `collection-${i}@example.fr` })) form.append(name, value);
      const answer = await fetch(`${server.url}/rachat`, { method: "POST", body: form, headers: { origin: server.url } });
      await answer.arrayBuffer(); // read whole: an unread body keeps its connection, and the server's stop, waiting
      expect(answer.status).toBe(200);
    }
    const refused = await attack(server.url, { photos: 1, photoBytes: 50 * MB, chunked: false });
    expect(refused.status).toBe(429);
    // Answered from the headers: the client had sent no more than its socket buffers take.
    expect(refused.sentMb).toBeLessThan(8);
  }, 60_000);
});
