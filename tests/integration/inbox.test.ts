import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { inboxEvents, inboxMessages, outboxEmails, rateLimits } from "~/db/schema";
import { IMAGE_UPLOAD_ERRORS } from "~/domain/image-upload";
import { RATE_LIMITS, rateLimitKey, tooManyAttemptsMessage } from "~/domain/rate-limits";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import type { AppContext } from "~/lib/context";
import { loader as photoLoader } from "~/routes/admin/inbox-photo";
import { action as inboxAction, loader as inboxMessageLoader } from "~/routes/admin/inbox-message";
import { action as contactAction } from "~/routes/contact";
import { action as rachatAction } from "~/routes/rachat";
import { type InboxDeps, getInboxRequest, markContactRead, moveInboxRequest, replyToRequest, submitInboxRequest } from "~/services/inbox.server";
import { sendOffer } from "~/services/buyback.server";
import { cleanUpUnusedImages } from "~/services/product-images.server";
import { type FileStore, localDiskStore } from "~/services/storage.server";
import { createUserWithPassword } from "~/services/users.server";
import { pngAnnouncing } from "./png-header";
import { databaseLabel, openTestDatabase } from "./test-database";
import { signInAdminWithCode } from "./admin-second-factor";
import { testAuth } from "./route-context";

/**
 * Contact and buy-back requests: received through the service and the route actions (what a
 * form post without JavaScript reaches too), refused in French when they should be, and worked
 * through by the seller (statuses, reply, offer), with the e-mails in the outbox.
 */
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const SELLER = "vendeur@comptoir.example";
const MARKUP = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
/** Without an e-mail: each request gets a new one (nextEmail) unless the test gives one. */
const contact = { lastName: "Dupont", firstName: "Marie", message: `Bonjour,\nAvez-vous un Dracaufeu ?\n${MARKUP}` };
const buyback = { ...contact, phone: "06 12 34 56 78", message: "Classeur de 300 cartes Base Set, état excellent." };

/** A picture large enough to be scaled down, with EXIF to be dropped. */
async function photo(format: "png" | "jpeg", width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 200 } } })
    .withExif({ IFD0: { Copyright: "Marie Dupont", Artist: "Marie Dupont" } })
    .toFormat(format)
    .toBuffer();
}

describe(`contact and buy-back inbox on ${databaseLabel}`, () => {
  let database: Database;
  let filesDir: string;
  let privateFiles: FileStore;
  let deps: InboxDeps;
  let pictures: { png: Buffer; jpeg: Buffer };
  let ip = 0;
  /** A new client address per request: the rate limits have their own tests. */
  const nextIp = () => `198.51.100.${++ip}`;
  let emailN = 0;
  /** A new e-mail address per request, for the same reason. */
  const nextEmail = () => `client${++emailN}@example.com`;

  const counts = async () => {
    const [[messages], [emails]] = await Promise.all([
      database.db.select({ n: count() }).from(inboxMessages),
      database.db.select({ n: count() }).from(outboxEmails),
    ]);
    return { messages: messages!.n, emails: emails!.n, photos: (await privateFiles.list("")).length };
  };
  const submit = (kind: "contact" | "rachat", values: Record<string, unknown>, photos: { name: string; bytes: Buffer }[] = [], clientIp = nextIp()) =>
    submitInboxRequest(deps, { kind, values: { email: nextEmail(), ...values }, photos, clientIp });
  const emailsTo = (to: string) => database.db.select().from(outboxEmails).where(eq(outboxEmails.to, to)).orderBy(outboxEmails.createdAt);

  beforeAll(async () => {
    // The pictures are drawn while the database opens.
    const [opened, png, jpeg] = await Promise.all([openTestDatabase(), photo("png", 2400, 1800), photo("jpeg", 1200, 1600)]);
    database = opened;
    pictures = { png, jpeg };
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    filesDir = await fs.mkdtemp(path.join(os.tmpdir(), "comptoir-inbox-"));
    privateFiles = localDiskStore(filesDir);
    deps = { db: database.db, privateFiles, shop, sellerEmail: SELLER };
  });
  afterEach(() => fs.rm(filesDir, { recursive: true, force: true }));

  describe("receiving requests", () => {
    it("writes a contact message and queues the seller's notice and the customer's acknowledgement", async () => {
      const email = nextEmail();
      const result = await submit("contact", { ...contact, email });
      if (!result.ok) throw new Error(JSON.stringify(result));
      const found = await getInboxRequest(database.db, result.id);
      // Stored as typed, markup included: it is shown as text, never run.
      expect(found?.request).toMatchObject({ kind: "contact", lastName: "Dupont", firstName: "Marie", email, phone: null, message: contact.message, status: "nouveau", photos: [] });

      const [notice] = (await emailsTo(SELLER)).filter((e) => e.html.includes(result.id));
      expect(notice).toMatchObject({ kind: "inbox-contact-seller", subject: "Nouveau message de contact – Marie Dupont", status: "pending", replyTo: email });
      expect(notice!.html).toContain(`mailto:${email}?subject=`);
      expect(notice!.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
      expect(notice!.html).not.toContain("<script>");
      expect(notice!.text).toContain(`https://comptoir.example/admin/inbox/${result.id}`);
      const [ack] = await emailsTo(email);
      expect(ack).toMatchObject({ kind: "inbox-contact-ack", subject: "Nous avons bien reçu votre message – Comptoir", replyTo: null });
      expect(ack!.text).not.toContain("Dracaufeu");
    });

    it("stores two buy-back photos privately as metadata-free WebP of at most 1600 px, which the product sweep never touches", async () => {
      expect(pictures.jpeg.includes("Marie Dupont")).toBe(true);
      const result = await submit("rachat", buyback, [
        { name: "classeur.png", bytes: pictures.png },
        { name: "detail.jpg", bytes: pictures.jpeg },
      ]);
      if (!result.ok) throw new Error(JSON.stringify(result));
      const { request } = (await getInboxRequest(database.db, result.id))!;
      expect(request.photos).toHaveLength(2);
      expect(await privateFiles.list("")).toEqual([...request.photos].sort());
      const sizes = [];
      for (const key of request.photos) {
        expect(key).toMatch(/^rachat_\d{13}_[0-9a-f]{16}\.webp$/);
        const stored = (await privateFiles.get(key))!;
        const meta = await sharp(stored).metadata();
        expect(meta.format).toBe("webp");
        expect(meta.exif).toBeUndefined();
        expect(stored.includes("Marie Dupont")).toBe(false);
        sizes.push([meta.width, meta.height]);
      }
      expect(sizes).toEqual([
        [1600, 1200],
        [1200, 1600],
      ]);
      const notice = (await emailsTo(SELLER)).find((e) => e.html.includes(result.id))!;
      expect(notice.text).toContain("Photos : 2 (sur la page de la demande)");
      expect(notice.text).toContain("Téléphone : 06 12 34 56 78");

      // The same store on S3 is the image bucket under "private/": the sweep of unused product
      // images (pokemon_ keys) leaves the photos alone even there, long after their upload.
      const asBucket = { ...privateFiles, publicBaseUrl: "" };
      expect(await cleanUpUnusedImages(database.db, asBucket, { now: new Date(Date.now() + 365 * 86_400_000), graceMs: 0 })).toEqual({ deleted: [] });
      expect(await privateFiles.list("")).toHaveLength(2);
    });

    it("refuses short fields and an invalid e-mail with SPEC.md's messages, and writes nothing", async () => {
      const before = await counts();
      const result = await submit("rachat", { lastName: "D", firstName: "M", email: "marie@", phone: "06", message: "court" }, [{ name: "a.png", bytes: pictures.png }]);
      expect(result).toEqual({
        ok: false,
        status: 400,
        fieldErrors: {
          lastName: "Le nom doit contenir au moins 2 caractères",
          firstName: "Le prénom doit contenir au moins 2 caractères",
          email: "Merci d'entrer une adresse email valide",
          phone: "Merci d'entrer un numéro de téléphone valide",
          message: "La description doit contenir au moins 10 caractères",
        },
      });
      expect(await counts()).toEqual(before);
    });

    it("refuses a 100 KB message clearly and writes nothing", async () => {
      const before = await counts();
      expect(await submit("contact", { ...contact, message: "a".repeat(100 * 1024) })).toEqual({
        ok: false,
        status: 400,
        fieldErrors: { message: "Le message doit contenir au plus 5\u00a0000 caractères" },
      });
      expect(await counts()).toEqual(before);
    });

    it("refuses a filled honeypot with a French 400, before counting anything", async () => {
      const before = await counts();
      const result = await submit("contact", { ...contact, website: "https://spam.example" });
      expect(result).toEqual({ ok: false, status: 400, message: expect.stringMatching(/^Envoi refusé .*contact@comptoir\.example\.$/) });
      expect(await counts()).toEqual(before);
      expect(await database.db.select().from(rateLimits).where(eq(rateLimits.key, `inboxPerIp:198.51.100.${ip}`))).toEqual([]);
    });

    it.each([
      ["an 11 MB image", () => Buffer.concat([pictures.png, Buffer.alloc(11 * 1024 * 1024)]), 413, IMAGE_UPLOAD_ERRORS.tooLarge],
      ["a text file named .png", () => Buffer.from("Ceci n'est pas une image.\n".repeat(20)), 415, IMAGE_UPLOAD_ERRORS.unsupported],
      ["a truncated JPEG", () => pictures.jpeg.subarray(0, Math.floor(pictures.jpeg.length / 3)), 422, IMAGE_UPLOAD_ERRORS.unreadable],
      ["a PNG of 16,000 × 16,000 pixels", () => pngAnnouncing(16_000, 16_000), 422, IMAGE_UPLOAD_ERRORS.tooManyPixels],
    ])("refuses %s among the photos with the product images' message, storing nothing", async (_what, bytes, status, message) => {
      const before = await counts();
      const result = await submit("rachat", buyback, [
        { name: "bonne.png", bytes: pictures.png },
        { name: "mauvaise.png", bytes: bytes() },
      ]);
      expect(result).toEqual({ ok: false, status, fieldErrors: { photos: `mauvaise.png : ${message}` } });
      expect(await counts()).toEqual(before);
    });

    it("refuses a sixth photo", async () => {
      const result = await submit("rachat", buyback, Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, bytes: pictures.png })));
      expect(result).toEqual({ ok: false, status: 400, fieldErrors: { photos: "Vous pouvez joindre 5 photos au maximum." } });
      expect((await privateFiles.list("")).length).toBe(0);
    });

    it("limits requests per client network, then per e-mail, with a French 429; nothing is written twice", async () => {
      // Contact and buy-back posts from one IPv6 /64, each from another of its addresses: one count.
      const [network, neighbour] = [`2001:db8:${++ip}:1`, `2001:db8:${ip}:2`];
      for (let i = 0; i < RATE_LIMITS.inboxPerIp.limit; i++) {
        expect((await (i % 2 ? submit("rachat", buyback, [], `${network}::${i + 1}`) : submit("contact", contact, [], `${network}::${i + 1}`))).ok).toBe(true);
      }
      const before = await counts();
      const blocked = await submit("contact", contact, [], `${network}:ffff::1`);
      expect(blocked).toEqual({ ok: false, status: 429, message: tooManyAttemptsMessage(60 * 60_000), retryAfterMs: expect.any(Number) });
      expect(blocked.ok === false && "message" in blocked && blocked.message).toBe("Trop de tentatives. Réessayez dans 60 minutes.");
      expect(await counts()).toEqual(before);
      expect(await submit("rachat", buyback, [], `${network}::ffff`)).toMatchObject({ ok: false, status: 429 });
      // Another /64 is another client.
      expect((await submit("contact", contact, [], `${neighbour}::1`)).ok).toBe(true);

      const email = nextEmail();
      for (let i = 0; i < RATE_LIMITS.inboxPerEmail.limit; i++) expect((await submit("contact", { ...contact, email })).ok).toBe(true);
      const again = await submit("contact", { ...contact, email: email.toUpperCase() });
      expect(again).toMatchObject({ ok: false, status: 429 });
      expect(await database.db.select({ n: count() }).from(inboxMessages).where(eq(inboxMessages.email, email))).toEqual([{ n: RATE_LIMITS.inboxPerEmail.limit }]);
    });

    it("writes nothing and keeps no photo when the transaction fails", async () => {
      const before = await counts();
      const broken = { ...deps, sellerEmail: "pas une adresse" };
      await expect(
        submitInboxRequest(broken, { kind: "rachat", values: { ...buyback, email: nextEmail() }, photos: [{ name: "a.png", bytes: pictures.png }], clientIp: nextIp() }),
      ).rejects.toThrow();
      expect(await counts()).toEqual(before);
    });
  });

  describe("the seller's work", () => {
    let adminId: string;
    beforeAll(async () => {
      ({ id: adminId } = await createUserWithPassword(database.db, { email: "vendeuse@comptoir.test", password: "mot-de-passe-admin", name: "Vendeuse", role: "admin", emailVerified: true }));
    });
    const received = async (kind: "contact" | "rachat") => {
      const result = await submit(kind, kind === "rachat" ? buyback : contact);
      if (!result.ok) throw new Error(JSON.stringify(result));
      return result.id;
    };
    const eventsOf = (id: string) => database.db.select().from(inboxEvents).where(eq(inboxEvents.messageId, id)).orderBy(inboxEvents.createdAt);

    it("walks a contact message nouveau → lu → traité; a skipped or repeated step gets a French 409", async () => {
      const id = await received("contact");
      expect(await moveInboxRequest(database.db, { id, expected: "nouveau", to: "traite", actorId: adminId })).toEqual({
        ok: false,
        status: 409,
        message: "Une demande au statut « Nouveau » ne peut pas passer au statut « Traité ».",
      });
      expect(await markContactRead(database.db, id, adminId)).toBe(true);
      expect(await markContactRead(database.db, id, adminId)).toBe(false);
      expect(await moveInboxRequest(database.db, { id, expected: "lu", to: "traite", actorId: adminId })).toMatchObject({ ok: true, request: { status: "traite" } });
      expect(await moveInboxRequest(database.db, { id, expected: "lu", to: "traite", actorId: adminId })).toMatchObject({ ok: false, status: 409 });
      expect((await eventsOf(id)).map((e) => [e.type, e.fromStatus, e.toStatus, e.actorId])).toEqual([
        ["status", "nouveau", "lu", adminId],
        ["status", "lu", "traite", adminId],
      ]);
      expect(await moveInboxRequest(database.db, { id: "pas-un-id", expected: "lu", to: "traite", actorId: adminId })).toMatchObject({ ok: false, status: 404 });
    });

    it("acts once on two simultaneous clicks", async () => {
      const id = await received("rachat");
      const clicks = await Promise.all([1, 2].map(() => moveInboxRequest(database.db, { id, expected: "nouveau", to: "en_estimation", actorId: adminId })));
      expect(clicks.filter((c) => c.ok)).toHaveLength(1);
      expect(clicks.find((c) => !c.ok)).toMatchObject({ status: 409 });
      expect(await eventsOf(id)).toHaveLength(1);
    });

    it("replies by e-mail through the outbox, escaped, and records it", async () => {
      const id = await received("contact");
      const { request } = (await getInboxRequest(database.db, id))!;
      const outcome = await replyToRequest(deps, { id, reply: "Bonjour Marie,\nOui, nous l'avons <b>en stock</b>.", actorId: adminId });
      expect(outcome.ok).toBe(true);
      const [reply] = (await emailsTo(request.email)).filter((e) => e.kind === "inbox-contact-reply");
      expect(reply!.subject).toBe("Réponse à votre message – Comptoir");
      expect(reply!.html).toContain("Oui, nous l&#39;avons &lt;b&gt;en stock&lt;/b&gt;.");
      expect(reply!.html).not.toContain("<script>");
      expect(await eventsOf(id)).toEqual([expect.objectContaining({ type: "reply", body: "Bonjour Marie,\nOui, nous l'avons <b>en stock</b>.", emailId: reply!.id, actorId: adminId })]);
    });

    it("sends a buy-back offer once, from « En estimation » only, with its lines and link in the e-mail", async () => {
      const id = await received("rachat");
      const { request } = (await getInboxRequest(database.db, id))!;
      const offer = { lines: [{ description: "Dracaufeu", condition: "good" as const, quantity: 1, unitPriceCents: 12_050 }], note: "Cartes en très bon état." };
      const offerDeps = { db: database.db, shop, secret: "test-secret" };
      expect(await sendOffer(offerDeps, { id, ...offer, actorId: adminId })).toMatchObject({ ok: false, status: 409 });
      await moveInboxRequest(database.db, { id, expected: "nouveau", to: "en_estimation", actorId: adminId });
      const sent = await Promise.all([1, 2].map(() => sendOffer(offerDeps, { id, ...offer, actorId: adminId })));
      expect(sent.filter((s) => s.ok)).toHaveLength(1);

      const after = (await getInboxRequest(database.db, id))!;
      expect(after.request).toMatchObject({ status: "offre_envoyee", offerCents: 12_050, offerNote: "Cartes en très bon état." });
      const offers = (await emailsTo(request.email)).filter((e) => e.kind === "inbox-rachat-offer");
      expect(offers).toHaveLength(1);
      expect(offers[0]!.subject).toBe("Notre offre pour votre collection : 120,50\u00a0€ – Comptoir");
      expect(offers[0]!.text).toContain("Dracaufeu (Bon état) × 1 : 120,50\u00a0€");
      expect(offers[0]!.text).toContain("https://comptoir.example/rachat/offre/");
      expect(after.events.at(-1)).toMatchObject({ type: "offer", fromStatus: "en_estimation", toStatus: "offre_envoyee", amountCents: 12_050, emailId: offers[0]!.id, actorName: "Vendeuse" });

      expect(await moveInboxRequest(database.db, { id, expected: "offre_envoyee", to: "refusee", actorId: adminId })).toMatchObject({ ok: true });
      expect(await moveInboxRequest(database.db, { id, expected: "refusee", to: "payee", actorId: adminId })).toMatchObject({ ok: false, status: 409 });
    });
  });

  describe("through the route actions", () => {
    const PUBLIC_URL = "http://shop.test";
    let context: AppContext;
    let adminCookie = "";
    let customerCookie = "";
    let kicks = 0;

    async function cookieOf(email: string, password: string) {
      const result = await context.auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
      return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    }

    beforeAll(async () => {
      const auth = testAuth(database.db, PUBLIC_URL);
      context = {
        db: database.db,
        shop: { name: shop.name, email: shop.email, socials: [], legal: { ...EMPTY_IDENTITY, companyName: "Comptoir SAS" } },
        publicUrl: PUBLIC_URL,
        nonce: "",
        logger: pino({ level: "silent" }),
        auth,
        clientIp: "203.0.113.1",
        kickMail: () => void (kicks += 1),
        checkout: { orderPrefix: "CPT", reservationMinutes: 30, sellerEmail: SELLER },
        dropSecret: "inbox-test-drop-secret",
      } as Partial<AppContext> as AppContext;
      // Each account on its own (their passwords are hashed side by side).
      const account = async (email: string, password: string, role: "admin" | "user", name: string) => {
        await createUserWithPassword(database.db, { email, password, name, role, emailVerified: true });
        return role === "admin" ? signInAdminWithCode(context.auth, email, password) : cookieOf(email, password);
      };
      [adminCookie, customerCookie] = await Promise.all([
        account("admin-routes@comptoir.test", "mot-de-passe-admin", "admin", "Admin"),
        account("cliente@example.com", "mot-de-passe-client", "user", "Cliente"),
      ]);
    });
    beforeEach(() => {
      context = { ...context, privateFiles, clientIp: nextIp() };
    });

    const post = (pathname: string, body: FormData | URLSearchParams, cookie = "") =>
      new Request(`${PUBLIC_URL}${pathname}`, { method: "POST", body, headers: cookie ? { cookie } : {} });
    const form = (values: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(values)) body.append(name, value);
      return body;
    };
    // React Router's data() result: the answer and its status.
    type Answer = { data: Record<string, unknown>; init: { status?: number; headers?: Record<string, string> } | null };
    const call = async (run: () => unknown) => {
      try {
        return (await run()) as Answer;
      } catch (thrown) {
        return thrown as Answer | Response;
      }
    };

    it("answers a contact post (with or without JavaScript, the same action) and kicks the mail worker", async () => {
      const kicked = kicks;
      const answer = (await call(() => contactAction({ request: post("/contact", new URLSearchParams({ ...contact, email: nextEmail(), website: "" })), context, params: {} } as never))) as Answer;
      expect(answer.data).toEqual({ ok: true });
      expect(answer.init?.status ?? 200).toBe(200);
      expect(kicks).toBe(kicked + 1);
    });

    it("answers a buy-back post with two photos, multipart", async () => {
      const body = form({ ...buyback, email: nextEmail() });
      body.append("photos", new Blob([new Uint8Array(pictures.png)], { type: "image/png" }), "classeur.png");
      body.append("photos", new Blob([new Uint8Array(pictures.jpeg)], { type: "image/jpeg" }), "detail.jpg");
      const answer = (await call(() => rachatAction({ request: post("/rachat", body), context, params: {} } as never))) as Answer;
      expect(answer.data).toEqual({ ok: true });
      expect(await privateFiles.list("")).toHaveLength(2);
    });

    it("answers refusals in French with their status and the values to refill the form", async () => {
      const invalid = (await call(() => contactAction({ request: post("/contact", new URLSearchParams({ ...contact, email: "marie@", message: "court" })), context, params: {} } as never))) as Answer;
      expect(invalid.init?.status).toBe(400);
      expect(invalid.data).toEqual({
        ok: false,
        failure: { title: "Erreur", description: "Certains champs sont à corriger : voyez le message sous chacun d'eux." },
        fieldErrors: { email: "Merci d'entrer une adresse email valide", message: "Le message doit contenir au moins 10 caractères" },
        values: { lastName: "Dupont", firstName: "Marie", email: "marie@", message: "court" },
      });

      const trap = (await call(() => contactAction({ request: post("/contact", new URLSearchParams({ ...contact, email: nextEmail(), website: "x" })), context, params: {} } as never))) as Answer;
      expect(trap.init?.status).toBe(400);
      expect(trap.data).toMatchObject({ ok: false, failure: { title: "Erreur", description: expect.stringMatching(/^Envoi refusé/) } });

      const corrupt = form({ ...buyback, email: nextEmail() });
      corrupt.append("photos", new Blob(["pas une image"], { type: "image/png" }), "faux.png");
      const refused = (await call(() => rachatAction({ request: post("/rachat", corrupt), context, params: {} } as never))) as Answer;
      expect(refused.init?.status).toBe(415);
      expect(refused.data).toMatchObject({ fieldErrors: { photos: IMAGE_UPLOAD_ERRORS.unsupported } });

      const huge = new Request(`${PUBLIC_URL}/contact`, { method: "POST", body: "x", headers: { "content-length": String(2 * 1024 * 1024), "content-type": "application/x-www-form-urlencoded" } });
      const tooLarge = (await call(() => contactAction({ request: huge, context, params: {} } as never))) as Answer;
      expect(tooLarge.init?.status).toBe(413);
    });

    it("sends Retry-After with a 429, to every address of the network at its limit", async () => {
      const network = `2001:db8:${++ip}:1`;
      context = { ...context, clientIp: `${network}::2` };
      await database.db.insert(rateLimits).values({ key: rateLimitKey("inboxPerIp", `${network}::1`), count: RATE_LIMITS.inboxPerIp.limit, resetAt: new Date(Date.now() + 30 * 60_000) });
      const answer = (await call(() => contactAction({ request: post("/contact", new URLSearchParams({ ...contact, email: nextEmail() })), context, params: {} } as never))) as Answer;
      expect(answer.init?.status).toBe(429);
      expect(answer.data).toMatchObject({ failure: { description: "Trop de tentatives. Réessayez dans 30 minutes." } });
      expect(Number(answer.init?.headers?.["Retry-After"])).toBeGreaterThan(1700);
    });

    it("refuses a customer's posts to the inbox actions with 403 and changes nothing; the admin's go through", async () => {
      const id = (await submit("rachat", buyback)) as { id: string };
      const attempts: Record<string, string>[] = [
        { intent: "status", expected: "nouveau", to: "en_estimation" },
        { intent: "reply", reply: "Bonjour, faux vendeur ici." },
        { intent: "offer", "lines.0.description": "Carte", "lines.0.condition": "good", "lines.0.quantity": "1", "lines.0.unitPrice": "1", note: "" },
      ];
      const before = await counts();
      for (const values of attempts) {
        for (const cookie of [customerCookie, ""]) {
          const refused = (await call(() => inboxAction({ request: post(`/admin/inbox/${id.id}`, form(values), cookie), context, params: { id: id.id } } as never))) as Answer;
          expect(refused.init?.status, `${values.intent} ${cookie ? "customer" : "anonymous"}`).toBe(cookie ? 403 : 401);
        }
      }
      expect(await counts()).toEqual(before);
      expect((await getInboxRequest(database.db, id.id))!.request.status).toBe("nouveau");

      const moved = (await call(() => inboxAction({ request: post(`/admin/inbox/${id.id}`, form(attempts[0]!), adminCookie), context, params: { id: id.id } } as never))) as Answer;
      expect(moved.data).toMatchObject({ ok: true, toast: { title: "Statut mis à jour", description: "La demande est maintenant « En estimation »." } });
      const again = (await call(() => inboxAction({ request: post(`/admin/inbox/${id.id}`, form(attempts[0]!), adminCookie), context, params: { id: id.id } } as never))) as Answer;
      expect(again.init?.status).toBe(409);
      const badOffer = (await call(() => inboxAction({ request: post(`/admin/inbox/${id.id}`, form({ intent: "offer", "lines.0.description": "Carte", "lines.0.condition": "good", "lines.0.quantity": "1", "lines.0.unitPrice": "douze" }), adminCookie), context, params: { id: id.id } } as never))) as Answer;
      expect(badOffer.init?.status).toBe(400);
      expect(badOffer.data).toMatchObject({ fieldErrors: { "lines.0.unitPrice": "Merci d'entrer un prix en euros, par exemple 12,50" } });
      const offer = (await call(() => inboxAction({ request: post(`/admin/inbox/${id.id}`, form({ intent: "offer", "lines.0.description": "Carte", "lines.0.condition": "good", "lines.0.quantity": "1", "lines.0.unitPrice": "45,50", note: "" }), adminCookie), context, params: { id: id.id } } as never))) as Answer;
      expect(offer.data).toMatchObject({ ok: true, toast: { title: "Offre envoyée" } });
    });

    it("marks a new contact message read when the admin opens it", async () => {
      const id = ((await submit("contact", contact)) as { id: string }).id;
      const page = (await call(() => inboxMessageLoader({ request: new Request(`${PUBLIC_URL}/admin/inbox/${id}`, { headers: { cookie: adminCookie } }), context, params: { id } } as never))) as unknown as Awaited<ReturnType<typeof getInboxRequest>>;
      expect(page!.request.status).toBe("lu");
      expect(page!.events).toEqual([expect.objectContaining({ type: "status", fromStatus: "nouveau", toStatus: "lu", actorName: "Admin" })]);
    });

    it("serves a photo to admins only, privately, and nothing for a bad key", async () => {
      const result = await submit("rachat", buyback, [{ name: "a.png", bytes: pictures.png }]);
      const [key] = (await getInboxRequest(database.db, (result as { id: string }).id))!.request.photos;
      const get = (cookie: string, photoKey = key!) =>
        call(() => photoLoader({ request: new Request(`${PUBLIC_URL}/admin/inbox/photos/${photoKey}`, { headers: cookie ? { cookie } : {} }), context, params: { key: photoKey } } as never));

      for (const [cookie, location] of [
        ["", "/admin/login"],
        [customerCookie, "/admin/unauthorized"],
      ] as const) {
        const refused = (await get(cookie)) as unknown as Response;
        expect(refused.status).toBe(302);
        expect(refused.headers.get("location")).toBe(location);
      }
      const served = (await get(adminCookie)) as unknown as Response;
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/webp");
      expect(served.headers.get("cache-control")).toMatch(/^private/);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe("webp");

      for (const bad of ["..%2F..%2Fetc%2Fpasswd", "pokemon_1_ab-320.webp", "rachat_1773482400000_0000000000000000.webp"]) {
        const missing = (await get(adminCookie, bad)) as unknown as Response;
        expect({ bad, status: missing.status, text: await missing.text() }).toEqual({ bad, status: 404, text: "Photo introuvable." });
      }
    });
  });
});
