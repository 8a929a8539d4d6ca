import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type RunningServer, startServer, suiteDataDir } from "./server-process";
import { runsOn } from "../support/by-design";

/**
 * A scheduled launch with two server instances on one PostgreSQL database (the scale path):
 * the product opens once, and the open pages of both instances hear it. Runs in the PostgreSQL
 * pass of `npm test` only (two processes cannot share a PGlite directory).
 */
const serverUrl = process.env.TEST_DATABASE_URL;

/** An open page's live stream: the catalogue changes it receives. */
async function listen(base: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/live`, { signal: controller.signal });
  const changes: { op: string; id?: number }[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
          if (data) changes.push(JSON.parse(data));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // aborted at the end of the test
    }
  })();
  return { changes, close: () => controller.abort() };
}

describe.skipIf(!serverUrl)("a scheduled launch with two instances on PostgreSQL", runsOn("PostgreSQL"), () => {
  const dataDirs = [suiteDataDir("comptoir-drop-a-"), suiteDataDir("comptoir-drop-b-")];
  const name = `comptoir_drop_${randomBytes(5).toString("hex")}`;
  let url: string;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    ensureBuild();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(serverUrl!);
    target.pathname = `/${name}`;
    url = target.toString();
    // One after the other: the first migrates and seeds.
    for (const dataDir of dataDirs) servers.push(await startServer({ DATA_DIR: dataDir, DATABASE_URL: url }));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  });

  it("opens the product once, at its time, and both instances' open pages hear it", async () => {
    const pages = await Promise.all(servers.map((server) => listen(server.url)));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const dropAt = new Date(Date.now() + 1_500);
      const { rows } = await client.query<{ id: number }>(
        "insert into products (title, price_cents, stock, category, sub_category, status, drop_time) values ('Display lancement double', 14999, 5, 'TCG', 'Scellés', 'a_venir', $1) returning id",
        [dropAt],
      );
      const id = rows[0]!.id;
      const opened = async () => (await client.query<{ status: string }>("select status from products where id = $1", [id])).rows[0]!.status;
      // Well before the sweepers' 30 s round: they woke at the drop time (a loaded CI may be slow).
      const deadline = Date.now() + 15_000;
      while ((await opened()) !== "en_ligne" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await opened()).toBe("en_ligne");
      // Both sweepers woke at the drop time; only one UPDATE matched: one change, heard twice.
      await new Promise((r) => setTimeout(r, 1_000));
      for (const page of pages) {
        expect(page.changes.filter((change) => change.id === id)).toEqual([
          { op: "insert", id },
          { op: "update", id },
        ]);
      }
      // And each instance serves it now.
      for (const server of servers) {
        const page = await fetch(`${server.url}/product/${id}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("Display lancement double");
      }
    } finally {
      await client.end();
      for (const page of pages) page.close();
    }
  });

  it("shows a site message written behind both instances' backs on each one's next page", async () => {
    const title = `Message ${randomBytes(3).toString("hex")}`;
    // Each instance has read (and cached) the active messages for a page already.
    for (const server of servers) expect(await (await fetch(`${server.url}/`)).text()).not.toContain(title);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("insert into site_messages (title, content, location) values ($1, 'Livraison offerte ce week-end', 'global')", [title]);
    } finally {
      await client.end();
    }
    // The change event reaches both: the page cache is purged and the next render reads it.
    for (const server of servers) {
      await expect.poll(async () => (await (await fetch(`${server.url}/`)).text()).includes(title), { timeout: 5_000 }).toBe(true);
    }
  });
});
