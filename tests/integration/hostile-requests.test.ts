import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { suiteServerDataDir } from "./test-database";

/**
 * Requests no browser sends, as a script would send them to the built server: each gets a 4xx
 * in French, never a 500, and is not buffered past its ceiling. Each case here answered 500 (or
 * was read whole) before lib/request-input.server.ts and the address check in server/app.ts.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(onPostgres)("hostile requests to the built server", () => {
  const dataDir = suiteServerDataDir("comptoir-hostile-");
  let server: RunningServer;

  const form = (pathname: string, body: string, contentType = "application/x-www-form-urlencoded") =>
    fetch(`${server.url}${pathname}`, { method: "POST", body, headers: { "content-type": contentType, origin: server.url }, redirect: "manual" });

  beforeAll(async () => {
    ensureBuild();
    server = await startServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a NUL character in the address with a 400", async () => {
    for (const pathname of ["/catalog?q=a%00b", "/api/search?q=ab%00cd", "/product/1%00", "/tcg?q=%00"]) {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status, pathname).toBe(400);
      expect(await response.text()).toBe("Adresse invalide : elle contient un caractère nul (%00).");
    }
  });

  it("reads forms without their NUL characters", async () => {
    expect((await form("/login", "email=a%00%40b.fr&password=motdepasse-faux")).status).toBe(401);
    expect((await form("/admin/login", "email=ad%00min%40comptoir.local&password=faux")).status).toBe(401);
    expect((await form("/signup", "name=Ma%00rie&email=marie.nul%40example.com&password=motdepasse-tres-long")).status).toBe(200);
    expect((await form("/forgot-password", "email=ma%00rie%40example.com")).status).toBeLessThan(500);
  });

  it("answers 400 to a form route sent something other than a form", async () => {
    const notAForm = await form("/login", "email=a@b.fr", "text/plain");
    expect(notAForm.status).toBe(400);
    // The error page says why, in French.
    expect(await notAForm.text()).toContain("Le formulaire envoyé est illisible. Rechargez la page et réessayez.");
    expect((await form("/signup", "{}", "application/json")).status).toBe(400);
    expect((await form("/login", "--x\r\nbroken", "multipart/form-data; boundary=x")).status).toBe(400);
  });

  it("stops reading an oversized post: 413", async () => {
    const padding = "a".repeat(2 * 1024 * 1024);
    expect((await form("/login", `email=a%40b.fr&password=${padding}`)).status).toBe(413);
    const webhook = await fetch(`${server.url}/api/payments/test/webhook`, { method: "POST", body: padding });
    expect(webhook.status).toBe(413);
    expect(await webhook.json()).toEqual({ received: false, error: "Événement trop volumineux." });
  });

  it("reads a discount code without its NUL characters at checkout: a French 400", async () => {
    const response = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: '{"items":[{"productId":1,"quantity":1}],"insuranceSelected":false,"discountCode":"AB\\u0000C"}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "DISCOUNT", error: "Code promo invalide" });
  });

  it("is still up and logged no server error", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output()).not.toMatch(/invalid byte sequence|Erreur interne/);
  });
});
