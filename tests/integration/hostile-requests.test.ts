import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, onPostgresPass, suiteServerDataDir, suiteServerDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

/**
 * Requests no browser sends, as a script would send them to the built server: each gets a 4xx
 * in French, never a 500, and is not buffered past its ceiling. Each case here answered 500 (or
 * was read whole) before lib/request-input.server.ts and the address check in server/app.ts.
 */

describe.skipIf(onPostgresPass)(`hostile requests to the built server on ${databaseLabel}`, runsOn("PGlite"), () => {
  const dataDir = suiteServerDataDir("comptoir-hostile-");
  const database = suiteServerDatabase("comptoir_hostile");
  let server: RunningServer;

  const form = (pathname: string, body: string, contentType = "application/x-www-form-urlencoded") =>
    fetch(`${server.url}${pathname}`, { method: "POST", body, headers: { "content-type": contentType, origin: server.url }, redirect: "manual" });

  /** Any method, TRACE included (fetch refuses to send it). */
  const raw = (method: string, pathname: string, headers: Record<string, string> = {}, body = "") =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const request = http.request(`${server.url}${pathname}`, { method, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      });
      request.on("error", reject);
      request.end(body);
    });
  const checkout = (body: string) => fetch(`${server.url}/api/checkout`, { method: "POST", headers: { "content-type": "application/json", origin: server.url }, body });

  beforeAll(async () => {
    ensureBuild();
    server = await startServer({ DATA_DIR: dataDir, ...database });
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

  it("answers a small post refused before its body is read, and keeps reading the connection", async () => {
    // /admin/csv refuses a signed-out post from its headers (requireAdmin): the answer leaves
    // before the body. The client then finishes its body and sends a second request on the same
    // connection, as a browser or fetch still uploading would: neither may meet a closed socket.
    const { port } = new URL(server.url);
    // The server listens on 127.0.0.1 (the tests' HOST); "localhost" may resolve to ::1 first.
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`no answer; received: ${received.slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const body = "--x\r\nContent-Disposition: form-data; name=\"intent\"\r\n\r\npreview\r\n--x--\r\n";
    socket.write(`POST /admin/csv HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${body.length}\r\n\r\n`);
    await until(() => received.includes("\r\n\r\n"));
    expect(received).toMatch(/^HTTP\/1\.1 401/);
    expect(received).not.toMatch(/^connection: close/im);
    socket.write(body);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await until(() => received.includes("HTTP/1.1 200"));
    socket.destroy();
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

  it("answers a method the shop does not take with a French 405, and OPTIONS with the ones it takes", async () => {
    for (const [method, pathname] of [["TRACE", "/catalog"], ["TRACE", "/api/checkout"], ["PUT", "/api/search?q=dr"], ["DELETE", "/sitemap.xml"], ["PATCH", "/"]] as const) {
      const answer = await raw(method, pathname);
      expect({ method, pathname, status: answer.status, text: answer.text, allow: answer.headers.allow }).toEqual({ method, pathname, status: 405, text: "Méthode non autorisée.", allow: "GET, HEAD, POST" });
    }
    const options = await raw("OPTIONS", "/api/search?q=dr");
    expect(options).toMatchObject({ status: 204, text: "", headers: { allow: "GET, HEAD, POST" } });
  });

  it("answers a post to an address that takes none with a French 405", async () => {
    for (const [pathname, allow] of [["/api/search?q=dr", "GET, HEAD"], ["/api/cart/products?ids=1", "GET, HEAD"], ["/sitemap.xml", "GET, HEAD"], ["/robots.txt", "GET, HEAD"], ["/api/viewer", "GET, HEAD"]] as const) {
      const answer = await form(pathname, "a=1");
      expect({ pathname, status: answer.status, text: await answer.text(), allow: answer.headers.get("allow") }).toEqual({ pathname, status: 405, text: "Méthode non autorisée.", allow });
    }
    // The seller's downloads and uploads, whatever the session: French too (they said "null").
    for (const [pathname, method, allow] of [["/admin/csv/export", "POST", "GET, HEAD"], ["/admin/users/x/export", "POST", "GET, HEAD"], ["/admin/inbox/photos/x", "POST", "GET, HEAD"], ["/admin/api/images", "GET", "POST"]] as const) {
      const answer = method === "POST" ? await form(pathname, "a=1") : await raw("GET", pathname).then((r) => ({ status: r.status, text: () => Promise.resolve(r.text), headers: new Headers({ allow: String(r.headers.allow) }) }));
      expect({ pathname, status: answer.status, text: await answer.text(), allow: answer.headers.get("allow") }).toEqual({ pathname, status: 405, text: "Méthode non autorisée.", allow });
    }
    const page = await form("/", "a=1");
    expect(page.status).toBe(405);
    // What the page shows (its scripts carry React Router's error for hydration, unseen).
    const shown = (await page.text()).replace(/<script[^>]*>[\s\S]*?<\/script>/g, "");
    expect(shown).toContain("Cette page ne reçoit pas de formulaire.");
    expect(shown).not.toContain("did not provide an");
    // React Router's own requests (`.data`) to such a page say it in French too.
    for (const pathname of ["/catalog.data", "/_root.data", "/product/1.data"]) {
      const answer = await form(pathname, "a=1");
      const text = await answer.text();
      expect({ pathname, status: answer.status }).toEqual({ pathname, status: 405 });
      expect(text).toContain(JSON.stringify("Cette page ne reçoit pas de formulaire."));
      expect(text).not.toContain("did not provide an");
    }
  });

  it("signs out to a return address that is not ASCII, percent-encoded (it answered 500 after ending the session)", async () => {
    for (const [target, location] of [["/€", "/%E2%82%AC"], ["/．/evil.example", "/%EF%BC%8E/evil.example"], ["/catalog?q=café#x", "/catalog?q=caf%C3%A9"]] as const) {
      const answer = await form("/logout", new URLSearchParams({ redirectTo: target }).toString());
      expect({ target, status: answer.status, location: answer.headers.get("location") }).toEqual({
        target,
        status: 302,
        location: target.includes("#") ? `${location}&notice=deconnecte#x` : `${location}?notice=deconnecte`,
      });
    }
  });

  it("answers an address that does not decode with a French 400", async () => {
    for (const pathname of ["/%FF", "/product/%C3%28", "/catalog/%E0%A4%A", "/account/orders/%"]) {
      const answer = await raw("GET", pathname);
      expect({ pathname, status: answer.status, text: answer.text }).toEqual({ pathname, status: 400, text: "Adresse invalide : elle contient un encodage incorrect." });
    }
  });

  it("refuses a form posted from another site with a French 403, the log-out included", async () => {
    for (const [pathname, origin] of [["/login", "https://evil.example"], ["/contact", "null"], ["/logout", "https://evil.example"], ["/login", "pas une adresse"]] as const) {
      const answer = await raw("POST", pathname, { origin, "content-type": "application/x-www-form-urlencoded" }, "email=a%40b.fr&password=x&redirectTo=%2F");
      expect({ pathname, origin, status: answer.status, text: answer.text }).toEqual({ pathname, origin, status: 403, text: "Requête refusée : ce formulaire a été envoyé depuis un autre site." });
    }
    // The shop's own pages still post.
    expect((await form("/login", "email=a%40b.fr&password=motdepasse-faux")).status).toBe(401);
  });

  it("reads a refused form post to its end before answering, so the client gets the answer, not a reset", async () => {
    // 200 KB sent in two halves: the refusal is ready after the first, while the client still sends.
    const half = `note=${"a".repeat(100 * 1024)}`;
    const answer = await new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
      const request = http.request(`${server.url}/contact`, { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded", "content-length": String(half.length * 2) } }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, connection: response.headers.connection, text }));
      });
      request.on("error", reject);
      request.write(half);
      setTimeout(() => request.end(half), 150);
    });
    expect(answer).toEqual({ status: 403, connection: "keep-alive", text: "Requête refusée : ce formulaire a été envoyé depuis un autre site." });
  });

  it("takes a mistyped e-mail at log-in as a wrong login: 401 in French", async () => {
    const shop = await form("/login", "email=jean.dupont&password=motdepasse-faux");
    expect(shop.status).toBe(401);
    expect(await shop.text()).toContain("Email ou mot de passe incorrect.");
    const admin = await form("/admin/login", "email=admin&password=faux");
    expect(admin.status).toBe(401);
    expect(await admin.text()).toContain("Email ou mot de passe incorrect.");
  });

  it("sends the log-out home when its target holds a tab or a line break", async () => {
    for (const target of ["/\t/evil.example/x", "/\r\nSet-Cookie: x=1"]) {
      const answer = await form("/logout", `redirectTo=${encodeURIComponent(target)}`);
      expect({ target, status: answer.status, location: answer.headers.get("location") }).toEqual({ target, status: 302, location: "/?notice=deconnecte" });
    }
  });

  it("answers a checkout a script shaped in French, and caps a product's quantity over several lines", async () => {
    for (const body of ["null", "[]", '{"items":[1,"x"],"email":5}', '{"items":[],"discountCode":["X"]}']) {
      const response = await checkout(body);
      expect(response.status, body).toBe(400);
      expect(JSON.stringify(await response.json()), body).not.toMatch(/Invalid input|expected|received/);
    }
    const split = await checkout('{"items":[{"productId":2,"quantity":99},{"productId":2,"quantity":21}]}');
    expect(split.status).toBe(400);
    expect(JSON.stringify(await split.json())).toContain("La quantité ne peut pas dépasser 99.");
  });

  it("answers a form a script left empty with the form's French messages", async () => {
    const html = await (await form("/signup", "")).text();
    for (const message of ["Le nom doit contenir au moins 2 caractères", "Email invalide", "Le mot de passe doit contenir au moins 8 caractères"]) expect(html).toContain(message);
    expect(html).not.toMatch(/Invalid input/);
  });

  it("refuses at sign-up a common password that only the server's full list knows (decision 034)", async () => {
    const body = new URLSearchParams({ name: "Zoé Martin", email: "zoe-liste@example.com", password: "dragonball" }).toString();
    const response = await form("/signup", body);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Ce mot de passe est trop courant");
  });

  it("is still up and logged no server error", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output()).not.toMatch(/invalid byte sequence|Erreur interne|did not provide an|Failed to decode|TypeError|APIError|request failed/);
  });
});
