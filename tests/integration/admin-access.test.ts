import fs from "node:fs";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { confirmationLink, signInAdmin, signUpCustomer, tableRows } from "./http-accounts";
import { databaseLabel, serverDataDir, suiteServerDatabase } from "./test-database";

/**
 * Access to the admin area and brute-force limits, over HTTP against the built server (as a
 * browser without JavaScript, or a script, would reach it).
 */
const ADMIN = { email: "admin@comptoir.test", password: "admin-acces-mot-de-passe" };
const CUSTOMER = { name: "Client Test", email: "client@example.com", password: "Ronflex-2026" };

/**
 * Every admin path of app/routes.ts, except the two public ones and the image upload (POST
 * only), with each parameter replaced by `ids[param]` (a product's id under /products).
 */
type PathIds = { id: string; userId: string; messageId: string; number: string; key: string };
function adminPaths(entries: RouteConfigEntry[], ids: PathIds, parent = ""): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, "/") : parent;
    const children = entry.children ? adminPaths(entry.children, ids, own) : [];
    const self = entry.path !== undefined || entry.index ? [withIds(own, ids)] : [];
    return [...self, ...children];
  }).filter((p, i, all) => p.startsWith("/admin") && !["/admin/login", "/admin/unauthorized", UPLOAD_PATH].includes(p) && all.indexOf(p) === i);
}
function withIds(pathname: string, ids: PathIds): string {
  const id = pathname.includes("/products/") ? PRODUCT_ID : pathname.includes("/users/") ? ids.userId : pathname.includes("/inbox/") ? ids.messageId : ids.id;
  return pathname.replace(/:id\b/, id).replace(/:productId\b/, PRODUCT_ID).replace(/:number\b/, ids.number).replace(/:key\b/, ids.key);
}
/** Pages of things this server has none of (no order, no photo): the admin gets a 404, not a refusal. */
const MISSING = { number: "CPT-000000-0000", key: "rachat_0_absent.webp" };
/** A product of the sample catalogue. */
const PRODUCT_ID = "1";
const UPLOAD_PATH = "/admin/api/images";
/** Downloads asked by a form post (the e-mail address stays out of URLs): no page to GET. */
const POST_ONLY = new Set(["/admin/privacy/export", "/admin/exports/comptes-fec"]);
/**
 * This server's shop has no SIREN: its FEC cannot be named, and says so (docs/decisions/052).
 * The sample product is sold from stock, not as a pre-order: it has no pre-order page.
 */
const ADMIN_REFUSED = new Map([
  ["/admin/exports/fec.txt", 409],
  [`/admin/precommandes/${PRODUCT_ID}`, 404],
]);

/** A 1×1 PNG. */
const PNG_BYTES = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

function form(values: Record<string, string>) {
  return new URLSearchParams(values);
}

/**
 * The status of an answer whose page the test does not look at, read all the same: an answer
 * left unread holds its connection, and the server then waits 10 s before it stops.
 */
async function statusOf(answer: Promise<Response>): Promise<number> {
  const response = await answer;
  await response.arrayBuffer();
  return response.status;
}

// Both suites' servers start side by side (a start is seconds, much of it waiting on the database).
const database = suiteServerDatabase("comptoir_access");
const noProxyDatabase = suiteServerDatabase("comptoir_noproxy");
const dataDirs: string[] = [];
let server: RunningServer;
let noProxyServer: RunningServer;

beforeAll(async () => {
  ensureBuild();
  const start = async (prefix: string, env: Record<string, string>) => {
    const dataDir = await serverDataDir(prefix);
    dataDirs.push(dataDir);
    return startServer({ DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env });
  };
  const started = await Promise.allSettled([
    start("comptoir-access-", { ...database, TRUST_PROXY: "loopback" }).then((s) => (server = s)),
    start("comptoir-noproxy-", noProxyDatabase).then((s) => (noProxyServer = s)),
  ]);
  for (const result of started) if (result.status === "rejected") throw result.reason;
}, 120_000);

afterAll(async () => {
  const codes = await Promise.all([server, noProxyServer].filter(Boolean).map((s) => s.stop()));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  // 0: stopped at once, no connection left open (else it is forced out after 10 s, with 1).
  expect(codes).toEqual(codes.map(() => 0));
});

describe(`admin access and sign-in limits over HTTP on ${databaseLabel}`, () => {
  let adminCookie = "";
  let customerCookie = "";
  let emailId = "";
  let ids: PathIds;

  const post = (pathname: string, values: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${pathname}`, { method: "POST", body: form(values), headers, redirect: "manual" });
  const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${server.url}${pathname}`, { headers, redirect: "manual" });

  beforeAll(async () => {
    // A contact request, for the inbox page, sent while the admin signs in.
    const contact = { lastName: "Durand", firstName: "Léa", email: "lea@example.com", message: "Avez-vous des displays Écarlate et Violet ?" };
    const [contacted, admin] = await Promise.all([post("/contact", contact), signInAdmin(server.url, ADMIN)]);
    expect(contacted.status).toBe(200);
    await contacted.arrayBuffer();
    adminCookie = admin;
    customerCookie = await signUpCustomer(server.url, adminCookie, CUSTOMER);

    // The confirmation e-mail, the message's id and the customer's id, for their pages.
    const [link, inbox, users] = await Promise.all([
      confirmationLink(server.url, adminCookie, CUSTOMER.email),
      get("/admin/inbox", { cookie: adminCookie }).then((r) => r.text()),
      get(`/admin/users?q=${encodeURIComponent(CUSTOMER.email)}`, { cookie: adminCookie }).then((r) => r.text()),
    ]);
    emailId = link.id;
    const messageId = inbox.match(/\/admin\/inbox\/([0-9a-f-]{36})/)?.[1];
    const userId = users.match(/\/admin\/users\/([\w-]+)"/)?.[1];
    expect(messageId && userId).toBeTruthy();
    ids = { id: emailId, userId: userId!, messageId: messageId!, ...MISSING };
  }, 120_000);

  it("lists the admin pages of the route table", () => {
    const paths = adminPaths(routes, { id: "ID", userId: "U", messageId: "M", number: "N", key: "K" });
    expect(paths).toEqual(expect.arrayContaining(["/admin", "/admin/products", "/admin/emails", "/admin/emails/ID", "/admin/users/U", "/admin/inbox/M", "/admin/orders/N", "/admin/shipping", "/admin/product-safety"]));
  });

  it("shows every admin page to the admin", async () => {
    // All at once: only their statuses are checked.
    await Promise.all(
      adminPaths(routes, ids).map(async (pathname) => {
        const missing = pathname.endsWith(MISSING.number) || pathname.endsWith(MISSING.key);
        expect(await statusOf(get(pathname, { cookie: adminCookie })), pathname).toBe(POST_ONLY.has(pathname) ? 405 : missing ? 404 : (ADMIN_REFUSED.get(pathname) ?? 200));
      }),
    );
    // A product id is digits: "0x10" and "1e0" are no product, not products 16 and 1.
    await Promise.all(
      ["0x1", "1e0", "01.0", "-1", "0"].map(async (id) => expect(await statusOf(get(`/admin/products/edit/${id}`, { cookie: adminCookie })), id).toBe(404)),
    );
  });

  const visitors = {
    "signed-out visitor": { cookie: () => "", page: "/admin/login", api: 401 },
    "forged session cookie": { cookie: () => "better-auth.session_token=forged.c2lnbmF0dXJl", page: "/admin/login", api: 401 },
    "signed-in customer": { cookie: () => customerCookie, page: "/admin/unauthorized", api: 403 },
  };

  for (const [who, expected] of Object.entries(visitors)) {
    it(`refuses every admin page, its data and its actions to a ${who}`, async () => {
      const headers: Record<string, string> = expected.cookie() ? { cookie: expected.cookie() } : {};
      // The paths side by side, each one's requests in turn.
      await Promise.all(adminPaths(routes, ids).map(async (pathname) => {
        if (POST_ONLY.has(pathname)) {
          // Nothing to GET for anyone; its post is refused like any admin action.
          expect(await statusOf(get(pathname, headers)), pathname).toBe(405);
          const refused = await post(pathname, { email: CUSTOMER.email }, headers);
          expect(refused.status, `POST ${pathname}`).toBe(expected.api);
          expect(await refused.text(), `POST ${pathname}`).not.toContain(CUSTOMER.email);
          return;
        }
        const page = await get(pathname, headers);
        await page.arrayBuffer();
        expect(page.status, pathname).toBe(302);
        expect(page.headers.get("location"), pathname).toBe(expected.page);

        // The client-side navigation data (single fetch) redirects too, with nothing else inside.
        const dataUrl = pathname === "/admin" ? "/admin.data" : `${pathname}.data`;
        const turbo = await get(dataUrl, headers);
        const body = await turbo.text();
        expect(body, dataUrl).toContain(expected.page);
        expect(body, dataUrl).not.toContain(CUSTOMER.email);
        expect(body, dataUrl).not.toContain("verify-email");

        const action = await post(pathname, {}, headers);
        expect([expected.api, 405], `POST ${pathname}`).toContain(action.status);
        expect(await action.text(), `POST ${pathname}`).not.toContain("verify-email");
      }));
      // The admin's one action (putting an e-mail back in the queue) is refused with the status.
      expect(await statusOf(post(`/admin/emails/${emailId}`, {}, headers))).toBe(expected.api);
      const upload = new FormData();
      upload.append("file", new Blob([PNG_BYTES], { type: "image/png" }), "a.png");
      expect(await statusOf(fetch(`${server.url}${UPLOAD_PATH}`, { method: "POST", body: upload, headers }))).toBe(expected.api);
    });
  }

  it("refuses a customer's real catalogue actions with 403 and changes nothing", async () => {
    const customer = { cookie: customerCookie };
    const product = { name: "Intrus", description: "Écrit par un client", price: "1", stock: "1", category: "Accessoires", image: "seed/x", status: "en_ligne" };
    const before = await (await get("/admin/products?sort=price&order=asc", { cookie: adminCookie })).text();
    const attempts: [string, Record<string, string>][] = [
      ["/admin/products", { intent: "featured", id: PRODUCT_ID, featured: "false" }],
      ["/admin/products", { intent: "delete", id: PRODUCT_ID }],
      ["/admin", { lowStockThreshold: "0" }],
      ["/admin/products/add", { intent: "save", ...product }],
      [`/admin/products/edit/${PRODUCT_ID}`, { intent: "save", ...product }],
      [`/admin/products/edit/${PRODUCT_ID}`, { intent: "duplicate" }],
    ];
    for (const [pathname, values] of attempts) {
      expect(await statusOf(post(pathname, values, customer)), `${pathname} ${values.intent}`).toBe(403);
    }
    // The same list, to the row and the switch.
    expect(tableRows(await (await get("/admin/products?sort=price&order=asc", { cookie: adminCookie })).text())).toEqual(tableRows(before));
  });

  it("refuses an admin action posted from another site, and changes nothing", async () => {
    const list = async () => tableRows(await (await get("/admin/products?featured=oui", { cookie: adminCookie })).text());
    const before = await list();
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<string, string>[]) {
      const answer = post("/admin/products", { intent: "featured", id: PRODUCT_ID, featured: "false" }, { cookie: adminCookie, ...headers });
      // Another site's Origin is refused before any route (server/request-guards.ts), the rest by requireAdmin.
      expect(await statusOf(answer)).toBe(403);
    }
    expect(await list()).toEqual(before);
  });

  it("gives nothing to an account signed up with the admin's e-mail in other letters", async () => {
    const lookalike = { name: "Imposteur", email: ADMIN.email.toUpperCase(), password: "Imposteur-2026" };
    const signup = await post("/signup", lookalike);
    // The same answer as any sign-up: nobody learns that the address has an account.
    expect(signup.status).toBe(200);
    expect(await signup.text()).toContain("Inscription réussie");
    for (const email of [lookalike.email, ` ${ADMIN.email} `]) {
      expect(await statusOf(post("/login", { email, password: lookalike.password }))).toBe(401);
      expect(await statusOf(post("/admin/login", { email, password: lookalike.password }))).toBe(401);
    }
    // The admin can still sign in with their own password (then the code).
    expect(await signInAdmin(server.url, ADMIN)).toContain("session_token=");
  });

  it("answers a repeated sign-up with a known address like any other, and e-mails its owner at most 3 times an hour", async () => {
    for (let i = 0; i < 5; i++) {
      const signup = await post("/signup", { ...CUSTOMER, password: `Autre-mot-${i}` }, { "x-forwarded-for": `198.51.100.${100 + i}` });
      expect(signup.status).toBe(200);
      expect(await signup.text()).toContain("Inscription réussie");
    }
    const outbox = await (await get("/admin/emails", { cookie: adminCookie })).text();
    const notices = tableRows(outbox).filter((row) => row.includes(CUSTOMER.email) && row.includes("Vous avez déjà un compte"));
    expect(notices).toHaveLength(3);
  });

  it("answers 429 in French after a burst of wrong passwords from one address; another address still signs in", async () => {
    const attacker = { "x-forwarded-for": "203.0.113.7" };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push(await statusOf(post("/login", { email: CUSTOMER.email, password: `faux-${i}` }, attacker)));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);

    const blocked = await post("/login", CUSTOMER, attacker);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await blocked.text();
    expect(html).toContain("Trop de tentatives");
    expect(html).toMatch(/Réessayez dans \d+ minutes?\./);

    const elsewhere = await post("/login", CUSTOMER, { "x-forwarded-for": "198.51.100.20" });
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get("location")).toBe("/account");
  });
});

describe(`without TRUST_PROXY on ${databaseLabel}`, () => {
  it("ignores X-Forwarded-For: a new forged address per request does not escape the limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = fetch(`${noProxyServer.url}/login`, {
        method: "POST",
        body: form({ email: `personne${i}@example.com`, password: "mauvais" }),
        headers: { "x-forwarded-for": `192.0.2.${i + 1}` },
        redirect: "manual",
      });
      statuses.push(await statusOf(response));
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});
