import Stripe from "stripe";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe-server";
import { LOCAL_S3_BUCKET, LOCAL_S3_CREDENTIALS, type LocalS3, startLocalS3 } from "../support/local-s3";
import sharp from "sharp";
import { signInAdmin } from "./http-accounts";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { type SmtpRelay, startSmtpServer } from "./smtp-server";
import { databaseLabel, onPostgresPass, suiteServerDataDir, suiteServerDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

/**
 * The built server with every outside service configured, each played by its most faithful
 * local stand-in: S3 (s3rver), Stripe (the official SDK against a fake API) and an SMTP relay.
 * The same code runs without them (the other suites); this checks the wiring of server/main.ts
 * for a real deployment: images from the bucket, a checkout on Stripe, e-mails by SMTP.
 */
// Not started on the PostgreSQL pass, which skips this suite (test-database.ts, onPostgresPass).
const local = onPostgresPass ? { skipped: "the PostgreSQL pass" } : await startLocalS3();
if ("skipped" in local && !onPostgresPass) console.warn(`configured-services.test.ts SKIPPED: the local S3 server (s3rver) could not start: ${local.skipped}`);

const WEBHOOK_SECRET = "whsec_comptoir_configured";
const SELLER = "vendeur@comptoir.test";
const BUYER = "marie@example.com";
const ADMIN = { email: "admin-services@comptoir.test", password: "admin-services-mot-de-passe" };

describe.skipIf("skipped" in local || onPostgresPass)(`the built server with S3, Stripe and SMTP configured on ${databaseLabel}`, runsOn("PGlite"), () => {
  if ("skipped" in local) return;
  const s3: LocalS3 = local;
  const dataDir = suiteServerDataDir("comptoir-configured-");
  const database = suiteServerDatabase("comptoir_configured");
  let stripe: FakeStripe;
  let smtp: SmtpRelay;
  let server: RunningServer;
  // The admin signs in once, when a test first needs it.
  let adminSession: Promise<string> | null = null;
  const adminCookie = () => (adminSession ??= signInAdmin(server.url, ADMIN));

  beforeAll(async () => {
    ensureBuild();
    [stripe, smtp] = await Promise.all([startFakeStripe(), startSmtpServer()]);
    server = await startServer({
      DATA_DIR: dataDir,
      ...database,
      LOG_LEVEL: "info",
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: LOCAL_S3_BUCKET,
      S3_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
      STRIPE_SECRET_KEY: "sk_test_comptoir",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SELLER_EMAIL: SELLER,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
  }, 90_000);
  afterAll(async () => {
    const code = await server?.stop();
    await Promise.all([stripe?.close(), smtp?.close(), s3.stop()]);
    // 0: stopped at once. An answer left unread holds its connection: forced out after 10 s, with 1.
    if (server) expect(code).toBe(0);
  });

  it("puts the sample images in the bucket and the pages link to them there", async () => {
    expect(server.output()).toMatch(/"storage":"s3"/);
    const html = await (await fetch(`${server.url}/catalog`)).text();
    const bucketUrl = `${s3.endpoint}/${LOCAL_S3_BUCKET}/`;
    const sources = [...html.matchAll(/<img[^>]* src="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source.startsWith(bucketUrl), source).toBe(true);

    const image = await fetch(sources[0]!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
    await image.arrayBuffer();
  });

  it("sends the buyer to Stripe's page, takes the signed payment and mails both e-mails through the relay", async () => {
    const catalog = await (await fetch(`${server.url}/catalog?sort=price-asc`)).text();
    const productId = Number(/href="\/product\/(\d+)-/.exec(catalog)?.[1]);
    expect(productId).toBeGreaterThan(0);

    const started = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ items: [{ productId, quantity: 1 }], insuranceSelected: false }),
    });
    expect(started.status).toBe(200);
    const { url, orderNumber } = (await started.json()) as { url: string; orderNumber: string };
    const created = stripe.requests.find((request) => request.path === "/v1/checkout/sessions");
    expect(created?.headers.authorization).toBe("Bearer sk_test_comptoir");
    const session = created!.response as { id: string; url: string; amount_total: number };
    expect(url).toBe(session.url);

    // Stripe's webhook, signed with the endpoint's secret as Stripe signs it.
    const event = {
      id: "evt_configured_paid",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: session.id,
          object: "checkout.session",
          payment_status: "paid",
          payment_intent: "pi_configured",
          amount_total: session.amount_total,
          customer_details: { email: BUYER, name: "Marie Curie", phone: null, address: null },
          collected_information: {
            shipping_details: { name: "Marie Curie", address: { line1: "12 rue des Lilas", line2: null, postal_code: "75011", city: "Paris", country: "FR", state: null } },
          },
        },
      },
    };
    const payload = JSON.stringify(event);
    const forged = await fetch(`${server.url}/api/payments/stripe/webhook`, { method: "POST", body: payload, headers: { "stripe-signature": "t=1,v1=forged" } });
    expect(forged.status, server.output().slice(-3000)).toBe(400);
    await forged.arrayBuffer();
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const received = await fetch(`${server.url}/api/payments/stripe/webhook`, { method: "POST", body: payload, headers: { "stripe-signature": signature } });
    expect(received.status).toBe(200);
    await received.arrayBuffer();

    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const mails = await Promise.all(smtp.received.map(async ({ to, raw }) => ({ to, subject: (await PostalMime.parse(raw)).subject })));
    expect(mails).toEqual(
      expect.arrayContaining([
        { to: [BUYER], subject: expect.stringContaining(`Confirmation de votre commande ${orderNumber}`) },
        { to: [SELLER], subject: expect.stringContaining(`Nouvelle commande ${orderNumber}`) },
      ]),
    );
  });

  it("does not fulfil a Stripe payment of another amount: the order stays unpaid and the seller is told", async () => {
    const catalog = await (await fetch(`${server.url}/catalog?sort=price-asc`)).text();
    const productId = Number(/href="\/product\/(\d+)-/.exec(catalog)?.[1]);
    const started = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ items: [{ productId, quantity: 1 }], insuranceSelected: false }),
    });
    expect(started.status).toBe(200);
    const { orderNumber } = (await started.json()) as { orderNumber: string };
    const session = stripe.requests.filter((request) => request.path === "/v1/checkout/sessions").at(-1)!.response as { id: string; amount_total: number };
    const event = {
      id: "evt_configured_other_amount",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: session.id,
          object: "checkout.session",
          payment_status: "paid",
          payment_intent: "pi_other_amount",
          // One cent: a session tampered with, or an order changed after its session.
          amount_total: 1,
          currency: "eur",
          customer_details: { email: BUYER, name: "Marie Curie", phone: null, address: null },
        },
      },
    };
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const received = await fetch(`${server.url}/api/payments/stripe/webhook`, { method: "POST", body: payload, headers: { "stripe-signature": signature } });
    expect(received.status).toBe(200);
    expect(((await received.json()) as { outcome: string }).outcome).toBe("amount-mismatch");

    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const subjects = await Promise.all(smtp.received.map(async ({ raw }) => (await PostalMime.parse(raw)).subject));
    expect(subjects).toContain(`Paiement à vérifier – ${orderNumber}`);
    expect(subjects.filter((subject) => subject?.includes(`Confirmation de votre commande ${orderNumber}`))).toEqual([]);
    const admin = await adminCookie();
    const page = await (await fetch(`${server.url}/admin/orders/${orderNumber}`, { headers: { cookie: admin } })).text();
    expect(page).toContain("En attente de paiement");
    expect(page).toContain("Paiement refusé : montant différent de la commande");
  });

  it("keeps a buy-back photo in the bucket's private part, shown to the admin through the shop", async () => {
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#c33" } }).png().toBuffer();
    const form = new FormData();
    for (const [name, value] of Object.entries({ lastName: "Curie", firstName: "Marie", email: BUYER, phone: "0601020304", message: "Une collection de cartes Base Set à estimer." })) {
      form.append(name, value);
    }
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/png" }), "collection.png");
    const sent = await fetch(`${server.url}/rachat`, { method: "POST", body: form, headers: { origin: server.url } });
    expect(sent.status).toBe(200);
    await sent.arrayBuffer();

    const admin = await adminCookie();
    const inbox = await (await fetch(`${server.url}/admin/inbox`, { headers: { cookie: admin } })).text();
    const id = /\/admin\/inbox\/([0-9a-f-]{36})/.exec(inbox)?.[1];
    expect(id).toBeTruthy();
    const message = await (await fetch(`${server.url}/admin/inbox/${id}`, { headers: { cookie: admin } })).text();
    const key = /\/admin\/inbox\/photos\/([\w.-]+)/.exec(message)?.[1];
    expect(key).toBeTruthy();

    const shown = await fetch(`${server.url}/admin/inbox/photos/${key}`, { headers: { cookie: admin } });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await shown.arrayBuffer())).metadata()).format).toBe("webp");
    // In the bucket under private/, stored for no shared cache; a visitor gets nothing from the shop.
    const stored = await fetch(`${s3.endpoint}/${LOCAL_S3_BUCKET}/private/${key}`);
    expect(stored.status).toBe(200);
    expect(stored.headers.get("cache-control")).toBe("private, no-store");
    await stored.arrayBuffer();
    const visitor = await fetch(`${server.url}/admin/inbox/photos/${key}`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/admin\/login/);
    await visitor.arrayBuffer();
  });
});
