import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEWER_COOKIE, parseViewerHint } from "~/lib/viewer";
import { cookiesOf, signInAdmin, signUpCustomer } from "./http-accounts";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, onPostgresPass, serverDataDir, suiteServerDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

/**
 * Public pages are one cached HTML for every visitor, signed in or not (issue 13). Two customers
 * and the admin load the same pages: no answer, and so none of the bytes the page cache serves
 * again, holds a name, an e-mail, a session or an admin link; private pages stay private.
 */
const ADMIN = { name: "Administrateur", email: "gerant.prive@comptoir.test", password: "admin-partage-mot-de-passe" };
const ALICE = { name: "Aurélie Zéphyrine", email: "aurelie.zephyrine@example.com", password: "Ronflex-2026" };
const BRUNO = { name: "Bruno Quillard", email: "bruno.quillard@example.com", password: "Lokhlass-2026" };

/** Public pages (and the data of their client-side navigation). The product is found on /catalog. */
const PUBLIC_PATHS = ["/", "/tcg", "/tcg?category=cards", "/catalog", "/accessories", "/entertainment", "/about", "/legal", "/construction", "/catalog.data", "/_root.data"];

describe.skipIf(onPostgresPass)(`one cached page for every visitor on ${databaseLabel}`, runsOn("PGlite"), () => {
  const database = suiteServerDatabase("comptoir_privacy");
  let dataDir = "";
  let server: RunningServer;
  const cookies = { admin: "", alice: "", bruno: "" };
  let paths: string[] = [];

  const get = (pathname: string, cookie?: string) => fetch(`${server.url}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

  beforeAll(async () => {
    ensureBuild();
    dataDir = await serverDataDir("comptoir-privacy-");
    server = await startServer({ DATA_DIR: dataDir, ...database, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    cookies.admin = await signInAdmin(server.url, ADMIN);
    cookies.alice = await signUpCustomer(server.url, cookies.admin, ALICE);
    cookies.bruno = await signUpCustomer(server.url, cookies.admin, BRUNO);
    const product = /href="(\/product\/\d+-[a-z0-9-]+)"/.exec(await (await get("/catalog")).text())?.[1];
    expect(product).toBeTruthy();
    paths = [...PUBLIC_PATHS, product!, `${product}.data`];
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("tells the browser who signed in with a readable hint, and clears it at sign-out", async () => {
    const hint = parseViewerHint(cookies.alice);
    expect(hint).toEqual({ name: ALICE.name, role: "user" });
    expect(parseViewerHint(cookies.admin)).toEqual({ name: expect.any(String), role: "admin" });

    const viewer = await get("/api/viewer", cookies.bruno);
    expect(viewer.headers.get("cache-control")).toBe("private, no-store");
    expect(await viewer.json()).toEqual({ viewer: { name: BRUNO.name, role: "user" } });
    // A hint without a session (expired, revoked): the server clears it.
    const stale = await get("/api/viewer", `${VIEWER_COOKIE}=${cookies.alice.split(`${VIEWER_COOKIE}=`)[1]!.split(";")[0]}`);
    expect(await stale.json()).toEqual({ viewer: null });
    expect(stale.headers.getSetCookie().some((c) => c.startsWith(`${VIEWER_COOKIE}=;`) && c.includes("Max-Age=0"))).toBe(true);
  });

  it("serves the same public pages to everyone from the shared cache, with nothing of anyone in them", async () => {
    // Names, e-mails, every cookie's value (sessions and hints), the admin's header link.
    const cookieValues = Object.values(cookies).flatMap((cookie) => cookie.split("; ").map((pair) => pair.slice(pair.indexOf("=") + 1)));
    const names = [ALICE.name, ALICE.email, BRUNO.name, BRUNO.email, ADMIN.email, ...cookieValues, "Test e-mail", 'href="/test-email'];
    // The footer's "Administration" (sign-in page) is for everyone; any other admin link is the admin's own.
    const adminLink = /href="\/admin(?!\/login")/;
    const visitors = [
      ["Aurélie", cookies.alice],
      ["the admin", cookies.admin],
      ["Bruno", cookies.bruno],
      ["a visitor without cookies", ""],
    ] as const;
    for (const [i, [who, cookie]] of visitors.entries()) {
      for (const pathname of paths) {
        const answer = await get(pathname, cookie);
        const body = await answer.text();
        expect(answer.status, `${pathname} for ${who}`).toBe(200);
        expect(answer.headers.get("cache-control"), pathname).toMatch(/^public\b/);
        expect(answer.headers.get("set-cookie"), pathname).toBeNull();
        // The first visitor filled the cache: everyone after is served the stored bytes themselves.
        if (i > 0) expect(answer.headers.get("x-cache"), `${pathname} for ${who}`).toBe("HIT");
        for (const name of names) expect(body.includes(name), `${pathname} for ${who} holds "${name}"`).toBe(false);
        expect(adminLink.test(body), `${pathname} for ${who} holds an admin link`).toBe(false);
      }
    }
  });

  it("keeps private pages private: each customer sees only their own, never stored", async () => {
    for (const [customer, cookie, other] of [
      [ALICE, cookies.alice, BRUNO],
      [BRUNO, cookies.bruno, ALICE],
    ] as const) {
      const account = await get("/account", cookie);
      const body = await account.text();
      expect(account.status).toBe(200);
      expect(account.headers.get("cache-control")).toBe("private, no-store");
      expect(account.headers.get("x-cache")).not.toBe("HIT");
      expect(body).toContain(customer.email);
      expect(body).not.toContain(other.email);
      expect(body).not.toContain(other.name);
      // The order history: private too, and its search's 400 as well.
      for (const path of ["/account/orders", `/account/orders?q=${"x".repeat(81)}`]) {
        const orders = await get(path, cookie);
        expect(orders.status, path).toBe(path.includes("?") ? 400 : 200);
        expect(orders.headers.get("cache-control"), path).toBe("private, no-store");
        expect(await orders.text()).toContain("Mes commandes");
      }
    }
    // Signing out clears the session and the hint.
    const logout = await fetch(`${server.url}/logout`, {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/" }),
      headers: { cookie: cookies.bruno, origin: server.url },
      redirect: "manual",
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.getSetCookie().some((c) => c.startsWith(`${VIEWER_COOKIE}=;`))).toBe(true);
    expect(cookiesOf(logout)).not.toContain(VIEWER_COOKIE);
  });
});
