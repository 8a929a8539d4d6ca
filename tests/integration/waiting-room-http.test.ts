import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { productDrops, products } from "~/db/schema";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, serverDataDir, suiteServerDatabase } from "./test-database";

/**
 * A drop's waiting room over HTTP, against the built server (issue 39): a browser joins, the
 * server's own round admits it, its admission comes as a cookie that the checkout uses once.
 */
describe(`the waiting room over HTTP on ${databaseLabel}`, () => {
  const database = suiteServerDatabase("comptoir_queue_http");
  let dataDir = "";
  let server: RunningServer;
  let productId = 0;

  /** A drop opened a minute ago, 2 units, limited to 1 per customer. */
  async function seed(open: () => Promise<{ db: Awaited<ReturnType<typeof openDatabase>>["db"]; close: () => Promise<void> }>) {
    const handle = await open();
    try {
      const [product] = await handle.db
        .insert(products)
        .values({ title: "Coffret sortie HTTP", priceCents: 9_999, stock: 2, category: "TCG", subCategory: "Scellés", dropTime: new Date(Date.now() - 60_000) })
        .returning();
      await handle.db.insert(productDrops).values({ productId: product!.id, perCustomerLimit: 1 });
      productId = product!.id;
    } finally {
      await handle.close();
    }
  }

  beforeAll(async () => {
    ensureBuild();
    dataDir = await serverDataDir("comptoir-queue-http-");
    // PGlite: one process per directory, so the drop is written before the server starts; PostgreSQL: once it has migrated.
    if (!database.DATABASE_URL) await seed(() => openDatabase({ kind: "pglite", dataDir }));
    server = await startServer({ DATA_DIR: dataDir, ...database, TRUST_PROXY: "loopback" });
    if (database.DATABASE_URL) await seed(() => openDatabase({ kind: "postgres", url: database.DATABASE_URL, poolSize: 1 }));
  }, 120_000);

  afterAll(async () => {
    // 0: stopped at once, no connection left open (else it is forced out after 10 s, with 1).
    expect(await server?.stop()).toBe(0);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The answer, read whole (an unread body keeps its connection busy and the server's stop waiting); a copy to read. */
  const whole = async (answer: Promise<Response>) => {
    const response = await answer;
    const copy = response.clone();
    await response.arrayBuffer();
    return copy;
  };
  const queue = (cookie = "", init: RequestInit = {}) => whole(fetch(`${server.url}/api/drops/${productId}/file`, { ...init, headers: { cookie, ...(init.headers ?? {}) } }));
  const checkout = (cookie: string, email: string) =>
    whole(
      fetch(`${server.url}/api/checkout`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url, cookie },
        body: JSON.stringify({ items: [{ productId, quantity: 1 }], insuranceSelected: false, email }),
      }),
    );
  const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);

  it("admits a browser that joined and sells it one unit with its admission, once", async () => {
    expect(await (await queue()).json()).toMatchObject({ state: "open", figures: { available: 2, held: 0, sold: 0 } });
    // From another site: refused.
    expect((await queue("", { method: "POST", headers: { origin: "https://evil.example" } })).status).toBe(403);

    const joined = await queue("", { method: "POST", headers: { origin: server.url } });
    expect(joined.status).toBe(200);
    const [ticket] = cookiesOf(joined);
    expect(ticket).toMatch(new RegExp(`^drop_ticket_${productId}=`));
    expect(joined.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    // Joining again with the ticket: the same place, no second ticket.
    expect(cookiesOf(await queue(ticket!, { method: "POST", headers: { origin: server.url } })).some((cookie) => cookie.startsWith("drop_ticket_"))).toBe(false);

    // The server's round (every second) admits it; the answer then carries the admission.
    let admission = "";
    await expect
      .poll(
        async () => {
          const response = await queue(ticket!);
          admission = cookiesOf(response).find((cookie) => cookie.startsWith(`drop_admission_${productId}=`)) ?? "";
          return ((await response.json()) as { state: string }).state;
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe("admitted");
    expect(admission).not.toBe("");

    const refused = await checkout("", "sans-tour@example.com");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "DROP_ADMISSION", error: "Attendez votre tour" });

    expect((await checkout(admission, "tour@example.com")).status).toBe(200);
    const again = await checkout(admission, "autre@example.com");
    expect(again.status).toBe(403);
    // The figures every page shares are at most a second old.
    await expect.poll(async () => ((await (await queue(ticket!)).json()) as { figures: unknown }).figures, { timeout: 5_000, interval: 300 }).toEqual({ available: 1, held: 1, sold: 0 });
  });

  it("takes a 'Prévenez-moi' request only from this site, with an address and the consent, and counts each post before reading it, per client network", async () => {
    // Every post from another address of one IPv6 /64 (X-Forwarded-For, TRUST_PROXY=loopback): one count.
    let n = 0;
    const client = (network = "2001:db8:a1:1") => ({ "x-forwarded-for": `${network}::${(++n).toString(16)}` });
    const alert = (body: Record<string, string>, origin = server.url) =>
      whole(fetch(`${server.url}/api/alerts/${productId}`, { method: "POST", headers: { origin, ...client() }, body: new URLSearchParams(body) }));
    const unreadable = (network?: string) =>
      whole(fetch(`${server.url}/api/alerts/${productId}`, { method: "POST", headers: { origin: server.url, "content-type": "multipart/form-data; boundary=x", ...client(network) }, body: "--x\r\nillisible" }));
    expect((await alert({ email: "a@example.com", consent: "on" }, "https://evil.example")).status).toBe(403);
    const missing = await alert({ email: "a@example.com" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ fieldErrors: { consent: "Cochez la case pour accepter de recevoir cet e-mail." } });
    const done = await alert({ email: "a@example.com", consent: "on" });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ ok: true, message: "Vérifiez votre boîte de réception : un e-mail vous demande de confirmer l'alerte." });
    // The network's limit (20 an hour) is counted before the body is read: unreadable posts too.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await unreadable()).status);
    expect(statuses.slice(0, 18).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(18)).toEqual([429, 429]);
    // Another /64 is another client.
    expect((await unreadable("2001:db8:a1:2")).status).toBe(400);
  });

  it("refuses a join that carries a body, unread, and takes none", async () => {
    const big = new Uint8Array(8 * 1024 * 1024);
    const refused = await queue("", { method: "POST", headers: { origin: server.url, "content-type": "application/octet-stream" }, body: big });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: "Rejoindre la file d'attente n'attend aucune donnée." });
    expect(cookiesOf(refused).some((cookie) => cookie.startsWith("drop_ticket_"))).toBe(false);
  });

  it("answers 404 for a product without a waiting room", async () => {
    expect((await whole(fetch(`${server.url}/api/drops/987654/file`))).status).toBe(404);
    expect((await whole(fetch(`${server.url}/api/drops/abc/file`))).status).toBe(404);
  });
});
