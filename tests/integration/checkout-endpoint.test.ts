import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, suiteServerDataDir, suiteServerDatabase } from "./test-database";

/**
 * POST /api/checkout over HTTP against the built server: it is answered ahead of Express
 * (server/checkout-endpoint.ts), so the client address, the same-origin rule and the body limits
 * are its own and are checked here as a script would meet them.
 */
const UNKNOWN_PRODUCT = 987_654;

describe(`POST /api/checkout over HTTP on ${databaseLabel}`, () => {
  const dataDir = suiteServerDataDir("comptoir-checkout-http-");
  const database = suiteServerDatabase("comptoir_checkout_http");
  let server: RunningServer;

  const checkout = (body: string, headers: Record<string, string> = {}, pathname = "/api/checkout") =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", origin: server.url, ...headers },
    });
  const cart = (productId: number) => JSON.stringify({ items: [{ productId, quantity: 1 }], insuranceSelected: false });

  beforeAll(async () => {
    ensureBuild();
    server = await startServer({ DATA_DIR: dataDir, ...database, TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses unreadable, oversized and empty carts with a French 400, and other sites with a 403", async () => {
    const unreadable = await checkout("{ pas du json", { "x-forwarded-for": "198.51.100.1" });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.json()).toMatchObject({ code: "INVALID", error: "Requête illisible" });

    const oversized = await checkout(JSON.stringify({ items: [], padding: "x".repeat(70_000) }), { "x-forwarded-for": "198.51.100.1" });
    expect(oversized.status).toBe(400);
    expect((await oversized.json()).code).toBe("INVALID");

    const empty = await checkout(JSON.stringify({ items: [], insuranceSelected: false }), { "x-forwarded-for": "198.51.100.1" });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toBe("Panier vide");

    const crossSite = await checkout(cart(1), { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("cache-control")).toBe("no-store");
    const noOrigin = await fetch(`${server.url}/api/checkout`, { method: "POST", body: cart(1), headers: { "content-type": "application/json" } });
    expect(noOrigin.status).toBe(403);
  });

  it("answers the route with a trailing slash or a query string as Express would, and leaves other methods to the pages", async () => {
    const slash = await checkout(cart(UNKNOWN_PRODUCT), { "x-forwarded-for": "198.51.100.2" }, "/api/checkout/?from=panier");
    expect(slash.status).toBe(409);
    expect(await slash.json()).toMatchObject({ code: "UNAVAILABLE", productId: UNKNOWN_PRODUCT });
    const get = await fetch(`${server.url}/api/checkout`);
    expect(get.status).toBe(404);
  });

  it("counts attempts per client address behind the trusted proxy: the 31st in 10 minutes gets 429 and Retry-After, another address goes on", async () => {
    const script = { "x-forwarded-for": "203.0.113.50" };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await checkout(cart(UNKNOWN_PRODUCT), script)).status);
    expect(statuses).toEqual(Array(30).fill(409));

    const blocked = await checkout(cart(UNKNOWN_PRODUCT), script);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await blocked.json()).error).toMatch(/^Trop de tentatives/);

    const neighbour = await checkout(cart(UNKNOWN_PRODUCT), { "x-forwarded-for": "203.0.113.51" });
    expect(neighbour.status).toBe(409);
  });

  it("answers the same attempt sent again (its Idempotency-Key) with the same order, never a second one", async () => {
    const { suggestions } = (await (await fetch(`${server.url}/api/search?q=pikachu`)).json()) as { suggestions: { id: number; stock: number }[] };
    const product = suggestions.find((suggestion) => suggestion.stock > 1)!;
    const attempt = { "idempotency-key": "essai-0123456789abcdef", "x-forwarded-for": "203.0.113.60" };
    const first = await checkout(cart(product.id), attempt);
    expect(first.status).toBe(200);
    const answer = (await first.json()) as { orderId: string; url: string };
    const [again, other] = await Promise.all([checkout(cart(product.id), attempt), checkout(cart(product.id), { "idempotency-key": "essai-fedcba9876543210", "x-forwarded-for": "203.0.113.60" })]);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(answer);
    // Another attempt is another order.
    expect(other.status).toBe(200);
    expect(((await other.json()) as { orderId: string }).orderId).not.toBe(answer.orderId);
  });

  it("shows the paid order on /merci only to the browser that started its checkout; its address alone opens a thank-you without personal data", async () => {
    const { suggestions } = (await (await fetch(`${server.url}/api/search?q=pikachu`)).json()) as { suggestions: { id: number; stock: number }[] };
    const product = suggestions.find((suggestion) => suggestion.stock > 0)!;
    const buyer = { "x-forwarded-for": "203.0.113.70" };
    const started = await checkout(JSON.stringify({ items: [{ productId: product.id, quantity: 1 }], insuranceSelected: false, email: "ombeline.receipt@example.org" }), buyer);
    expect(started.status).toBe(200);
    const { url, orderNumber } = (await started.json()) as { url: string; orderNumber: string };
    const receipt = started.headers.getSetCookie().find((cookie) => cookie.startsWith("comptoir_receipt="))!;
    expect(receipt).toMatch(/; Path=\/;/);
    expect(receipt).toMatch(/; HttpOnly/);
    expect(receipt).toMatch(/; SameSite=Lax/);
    const browser = receipt.split(";")[0]!;
    // The buyer pays on the test payment page and comes back to /merci.
    const paymentPath = new URL(url).pathname;
    const paid = await fetch(`${server.url}${paymentPath}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, cookie: browser, ...buyer },
      body: new URLSearchParams({
        fullName: "Ombeline Reçu",
        line1: "4 rue des Tanneurs",
        postalCode: "67000",
        city: "Strasbourg",
        country: "FR",
        phone: "0611223344",
        cardNumber: "4242 4242 4242 4242",
        cardExpiry: "12/30",
        cardCvc: "123",
        billingSame: "on",
      }),
    });
    expect(paid.status, await paid.clone().text()).toBe(302);
    const merci = new URL(paid.headers.get("location")!);
    expect(merci.pathname).toBe("/merci");
    const personal = [orderNumber, "ombeline.receipt@example.org", "Ombeline", "4 rue des Tanneurs", "/commande/"];

    const own = await fetch(`${server.url}${merci.pathname}${merci.search}`, { headers: { cookie: browser } });
    expect(own.status).toBe(200);
    const ownPage = await own.text();
    for (const text of personal.slice(0, 4)) expect(ownPage).toContain(text);

    // Anyone else with the address (history, a referrer, a proxy's log), or a forged cookie: no personal data.
    // The forgery changes the signature's first character: its last carries padding bits, and
    // one time in 16 it is already the character a blind replacement would write.
    const token = browser.split("=")[1]!;
    const dot = token.indexOf(".");
    const forged = `${token.slice(0, dot + 1)}${token[dot + 1] === "A" ? "B" : "A"}${token.slice(dot + 2)}`;
    for (const cookie of ["", `comptoir_receipt=${forged}`]) {
      const other = await fetch(`${server.url}${merci.pathname}${merci.search}`, { headers: cookie ? { cookie } : {} });
      expect(other.status).toBe(200);
      expect(other.headers.get("cache-control")).toMatch(/private|no-store/);
      const page = await other.text();
      expect(page).toContain("Merci pour votre commande");
      expect(page).toContain("le détail de la commande ne s&#x27;affiche ici que dans le navigateur qui l&#x27;a passée, pendant 2 heures");
      for (const text of personal) expect(page).not.toContain(text);
    }
  });
});
