import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { dropIdentityCodes, dropQueue, outboxEmails, productDrops, products } from "~/db/schema";
import { CODE_ATTEMPTS, CODE_MINUTES } from "~/domain/drop-identity";
import { TICKETS_PER_IPV4_ADDRESS } from "~/domain/waiting-room";
import { type Auth, createAuth } from "~/lib/auth.server";
import { createUserWithPassword } from "~/services/users.server";
import { advanceQueue } from "~/services/waiting-room.server";
import { dropQueueRoutes } from "../../server/drop-queue-endpoint";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * One chance per collector in a fair start (issue 50, point 3), over the waiting room's own HTTP
 * handler on a real database: a ticket belongs to a mailbox, proven by a confirmed account or a
 * code e-mailed at join; e-mail variants of one mailbox and many addresses still make one
 * ticket, while collectors behind one carrier's NAT all get theirs.
 */
const SECRET = "secret-des-collectionneurs-0123456789";
const minutes = (n: number) => n * 60_000;

describe(`one ticket per collector in a fair start on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let server: http.Server;
  let base = "";
  let serial = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    const noMail = async () => {};
    auth = createAuth({ db: database.db, secret: "integration-secret-collectors-0123456789", baseUrl: "http://127.0.0.1", mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail } });
    const routes = dropQueueRoutes({
      db: database.db,
      publicUrl: () => base,
      configuredOrigin: null,
      // The test speaks for many clients through X-Forwarded-For.
      trustProxy: () => true,
      logger: pino({ level: "silent" }),
      dropSecret: SECRET,
      auth,
      shop: () => ({ name: "Comptoir", email: "contact@comptoir.test", publicUrl: base }),
    });
    server = http.createServer((req, res) => {
      if (!routes(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await database?.close();
  });

  /** A fair start whose room opened a minute ago; its draw 10 minutes from now. */
  async function fairStart(options: { accountRequired?: boolean; stock?: number; dropTime?: Date } = {}) {
    const [product] = await database.db
      .insert(products)
      .values({ title: `Départ équitable ${++serial}`, priceCents: 9_999, stock: options.stock ?? 10, category: "TCG", subCategory: "Scellés", status: "a_venir", dropTime: options.dropTime ?? new Date(Date.now() + minutes(9)) })
      .returning();
    await database.db.insert(productDrops).values({ productId: product!.id, startMode: "fair_start", fairWindowMinutes: 10, accountRequired: options.accountRequired ?? false });
    return product!.id;
  }

  /** A browser: its address, its cookie jar. */
  function browser(ip: string) {
    const jar = new Map<string, string>();
    async function call(path: string, init: { method?: string; json?: unknown } = {}) {
      const response = await fetch(`${base}${path}`, {
        method: init.method ?? "GET",
        headers: {
          "x-forwarded-for": ip,
          ...(init.method === "POST" ? { origin: base } : {}),
          ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
          ...(jar.size ? { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } : {}),
        },
        body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const at = pair!.indexOf("=");
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }
    return {
      jar,
      join: (productId: number) => call(`/api/drops/${productId}/file`, { method: "POST" }),
      askCode: (productId: number, email: string) => call(`/api/drops/${productId}/identite`, { method: "POST", json: { email } }),
      confirm: (productId: number, email: string, code: string) => call(`/api/drops/${productId}/identite/code`, { method: "POST", json: { email, code } }),
    };
  }

  /** The code of the last e-mail to `email`, as its owner reads it. */
  async function codeSentTo(email: string): Promise<string> {
    const [mail] = await database.db.select({ text: outboxEmails.text }).from(outboxEmails).where(and(eq(outboxEmails.to, email), eq(outboxEmails.kind, "drop-code"))).orderBy(desc(outboxEmails.createdAt)).limit(1);
    const code = /Votre code : (\d{6})/.exec(mail?.text ?? "")?.[1];
    expect(code, `a code e-mailed to ${email}`).toBeDefined();
    return code!;
  }

  async function confirmedBrowser(productId: number, ip: string, email: string) {
    const client = browser(ip);
    expect((await client.askCode(productId, email)).status).toBe(202);
    expect(await client.confirm(productId, email, await codeSentTo(email))).toMatchObject({ status: 200, body: { confirmed: true } });
    return client;
  }

  const ticketsOf = async (productId: number) =>
    database.db.select({ identity: dropQueue.identity, network: dropQueue.network }).from(dropQueue).where(eq(dropQueue.productId, productId));

  it("gives 20 scripts with e-mail variants and many addresses 20 tickets at most, and each of 300 collectors behind six carrier NATs one", async () => {
    const productId = await fairStart();
    // 300 collectors, 50 behind each of six IPv4 addresses (a carrier's NAT): more than the 10 tickets an address had.
    for (let i = 0; i < 300; i++) {
      const collector = await confirmedBrowser(productId, `198.51.100.${1 + (i % 6)}`, `collectionneur.${i}@example.org`);
      expect((await collector.join(productId)).status, `collector ${i}`).toBe(200);
    }
    // 20 scripts: one Gmail mailbox each, 25 spellings of it, 25 cookie jars, a new address for each.
    for (let s = 0; s < 20; s++) {
      const variants = Array.from({ length: 25 }, (_, v) => (v === 0 ? `script${s}@gmail.com` : v % 2 ? `s.cript${s}+${v}@gmail.com` : `SCRIPT${s}+x${v}@googlemail.com`));
      const confirmed = await confirmedBrowser(productId, `192.0.2.${s + 1}`, variants[0]!);
      const tickets = new Set<string>();
      for (let v = 0; v < 25; v++) {
        const jar = browser(`203.0.${s}.${v + 1}`);
        // Every variant reaches the same mailbox: its code can be read. The mailbox's limit stops the asking after 3.
        const asked = await jar.askCode(productId, variants[v]!);
        if (asked.status === 202) expect((await jar.confirm(productId, variants[v]!, await codeSentTo(variants[v]!))).status).toBe(200);
        else {
          expect(asked).toMatchObject({ status: 429, body: { error: expect.stringMatching(/^Trop de tentatives\. Réessayez dans \d+ minutes?\.$/) } });
          jar.jar.set("drop_collector", confirmed.jar.get("drop_collector")!);
        }
        const joined = await jar.join(productId);
        expect(joined.status).toBe(200);
        tickets.add(jar.jar.get(`drop_ticket_${productId}`)!);
      }
      // The same ticket each time.
      expect(tickets.size).toBe(1);
    }
    const tickets = await ticketsOf(productId);
    const scripts = tickets.filter((ticket) => ticket.identity?.startsWith("script"));
    expect(scripts.length).toBeLessThanOrEqual(20);
    expect(tickets).toHaveLength(320);
    expect(new Set(tickets.map((ticket) => ticket.identity)).size).toBe(320);
  }, 240_000);

  it("asks for a mailbox first, takes the same ticket from a second browser of the collector, and keeps the flood bound per network", async () => {
    const productId = await fairStart();
    const stranger = browser("198.51.100.77");
    expect(await stranger.join(productId)).toMatchObject({ status: 401, body: { needs: "email", error: "Une place par collectionneur : confirmez votre adresse e-mail pour rejoindre la file d'attente." } });
    expect(await stranger.askCode(productId, "pas-une-adresse")).toMatchObject({ status: 422, body: { error: "Adresse e-mail invalide" } });
    const phone = await confirmedBrowser(productId, "198.51.100.78", "Lea.Martin@Example.org");
    const first = await phone.join(productId);
    expect(first).toMatchObject({ status: 200, body: { state: "waiting" } });
    const laptop = await confirmedBrowser(productId, "198.51.100.79", "lea.martin+drop@example.org");
    expect(await laptop.join(productId)).toMatchObject({ status: 200, body: { state: "waiting", position: first.body.position } });
    expect(await ticketsOf(productId)).toHaveLength(1);
    // Tickets with a collector: far more than a first come's 10 from one IPv4 address.
    for (let i = 0; i < TICKETS_PER_IPV4_ADDRESS + 5; i++) {
      const collector = await confirmedBrowser(productId, "198.51.100.80", `voisin.${i}@example.org`);
      expect((await collector.join(productId)).status).toBe(200);
    }
  }, 60_000);

  it("refuses a wrong code, kills it after its tries, and refuses an expired one", async () => {
    const productId = await fairStart();
    const client = browser("198.51.100.90");
    expect((await client.askCode(productId, "essais@example.org")).status).toBe(202);
    const code = await codeSentTo("essais@example.org");
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await client.confirm(productId, "essais@example.org", "12ab")).toMatchObject({ status: 422, body: { error: "Le code reçu par e-mail a 6 chiffres" } });
    for (let i = 0; i < CODE_ATTEMPTS; i++) {
      expect(await client.confirm(productId, "essais@example.org", wrong)).toMatchObject({ status: 422, body: { error: "Code incorrect ou expiré. Vérifiez le dernier e-mail reçu, ou demandez un nouveau code." } });
    }
    // The right code after the last try: dead too.
    expect((await client.confirm(productId, "essais@example.org", code)).status).toBe(422);
    expect(client.jar.has("drop_collector")).toBe(false);
    // A new code, past its minutes.
    expect((await client.askCode(productId, "essais@example.org")).status).toBe(202);
    const late = await codeSentTo("essais@example.org");
    await database.db
      .update(dropIdentityCodes)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(dropIdentityCodes.identity, "essais@example.org"));
    expect((await client.confirm(productId, "essais@example.org", late)).status).toBe(422);
    expect(CODE_MINUTES).toBeGreaterThanOrEqual(10);
    // A forged cookie is no collector.
    client.jar.set("drop_collector", "eyJrIjoiY29sbGVjdG9yIiwiYyI6ImEiLCJlIjo5OTk5OTk5OTk5OTk5fQ.faux");
    expect((await client.join(productId)).status).toBe(401);
  });

  it("asks for an account when the seller reserves the drop to accounts, and takes the account's mailbox as the collector", async () => {
    const productId = await fairStart({ accountRequired: true });
    const guest = browser("198.51.100.100");
    expect(await guest.join(productId)).toMatchObject({ status: 401, body: { needs: "account", error: "Cette sortie est réservée aux clients connectés : connectez-vous pour rejoindre la file d'attente." } });
    expect((await guest.askCode(productId, "invite@example.org")).status).toBe(409);
    await createUserWithPassword(database.db, { name: "Camille", email: "camille@example.org", password: "mot-de-passe-solide-42", role: "user", emailVerified: true });
    const signedIn = await auth.api.signInEmail({ body: { email: "camille@example.org", password: "mot-de-passe-solide-42" }, headers: new Headers(), returnHeaders: true });
    const account = browser("198.51.100.101");
    for (const cookie of signedIn.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      account.jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    expect(await account.join(productId)).toMatchObject({ status: 200, body: { state: "waiting", position: 1 } });
    const [ticket] = await ticketsOf(productId);
    expect(ticket!.identity).toBe("camille@example.org");
  });

  it("puts a collector whose admission lapsed back at the end of the line, with the same ticket", async () => {
    // Opened a minute ago (the room reads its drop at most once a second: no change of time under it).
    const productId = await fairStart({ stock: 1, dropTime: new Date(Date.now() - minutes(1)) });
    const first = await confirmedBrowser(productId, "198.51.100.110", "premier@example.org");
    const second = await confirmedBrowser(productId, "198.51.100.111", "second@example.org");
    await first.join(productId);
    await second.join(productId);
    // Both admitted (1.5 per free unit); they let their admissions lapse.
    await advanceQueue(database.db, productId, new Date());
    await database.db
      .update(dropQueue)
      .set({ status: "expired" })
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.status, "admitted")));
    const lapsed = (await database.db.select({ identity: dropQueue.identity }).from(dropQueue).where(and(eq(dropQueue.productId, productId), eq(dropQueue.status, "expired"))))[0]!.identity!;
    const again = lapsed === "premier@example.org" ? first : second;
    const ticket = again.jar.get(`drop_ticket_${productId}`);
    // A new browser of the collector: the join finds the lapsed ticket and puts it at the back.
    const other = browser("198.51.100.112");
    other.jar.set("drop_collector", again.jar.get("drop_collector")!);
    expect(await other.join(productId)).toMatchObject({ status: 200, body: { state: "waiting", position: 1 } });
    expect(other.jar.get(`drop_ticket_${productId}`)).toBe(ticket);
    const rows = await database.db.select({ n: sql<number>`count(*)::int` }).from(dropQueue).where(and(eq(dropQueue.productId, productId), isNotNull(dropQueue.identity)));
    expect(rows[0]!.n).toBe(2);
  });
});
