import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/domain/rate-limits";
import { signInAdmin, signUpCustomer } from "./http-accounts";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, serverDataDir, suiteServerDatabase } from "./test-database";

/**
 * Attacks on the sign-in limits over HTTP, against the built server (issue 38): a burst of
 * parallel guesses, guesses between sign-ins to one's own account, and a spread-out attack on
 * the admin's account; addresses of one IPv6 /64 counted as one client. Each address is given in
 * X-Forwarded-For (TRUST_PROXY=loopback).
 */
const ADMIN = { email: "admin@comptoir.test", password: "admin-attaque-mot-de-passe" };
const VICTIM = { name: "Victime Test", email: "victime@example.com", password: "Salameche-2026" };
const ATTACKER = { name: "Attaquant Test", email: "attaquant@example.com", password: "Carapuce-2026" };

describe(`sign-in limits under attack over HTTP on ${databaseLabel}`, () => {
  const database = suiteServerDatabase("comptoir_attacks");
  let dataDir = "";
  let server: RunningServer;

  // Each answer is read whole: a body left unread keeps its connection busy, and the server then
  // takes 10 s to stop (see afterAll).
  const post = async (pathname: string, values: Record<string, string>, address: string) => {
    const response = await fetch(`${server.url}${pathname}`, {
      method: "POST",
      body: new URLSearchParams(values),
      headers: { "x-forwarded-for": address },
      redirect: "manual",
    });
    await response.arrayBuffer();
    return response;
  };

  beforeAll(async () => {
    ensureBuild();
    dataDir = await serverDataDir("comptoir-attacks-");
    server = await startServer({ DATA_DIR: dataDir, ...database, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: "loopback" });
    const adminCookie = await signInAdmin(server.url, ADMIN);
    await signUpCustomer(server.url, adminCookie, VICTIM);
    await signUpCustomer(server.url, adminCookie, ATTACKER);
  }, 120_000);

  afterAll(async () => {
    // 0: stopped at once, no connection left open (else it is forced out after 10 s, with 1).
    expect(await server?.stop()).toBe(0);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("lets at most the network's limit of 200 parallel wrong passwords reach the password check, at many accounts from as many addresses of one IPv6 /64", async () => {
    const guesser = (n: number) => `2001:db8:50:1::${n.toString(16)}`;
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post("/login", { email: i % 2 ? VICTIM.email : `compte${i}@example.com`, password: `devine-${i}` }, guesser(i + 1)).then((r) => r.status)),
    );
    const checked = statuses.filter((s) => s === 401).length;
    const refused = statuses.filter((s) => s === 429).length;
    expect(checked + refused).toBe(200);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(RATE_LIMITS.signInPerIp.limit);
    // Even the right password is refused from that network now, before it is checked.
    expect((await post("/login", VICTIM, guesser(0xffff))).status).toBe(429);
    // Another /64 is another client (at another account: the victim's count is the next test's).
    expect((await post("/login", { email: "voisin@example.com", password: "devine" }, "2001:db8:50:2::1")).status).toBe(401);
  });

  it("keeps counting when guesses alternate with sign-ins to one's own account", async () => {
    const address = "198.51.100.60";
    const guesses: number[] = [];
    const own: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 9; i++) guesses.push((await post("/login", { email: VICTIM.email, password: `essai-${round}-${i}` }, address)).status);
      own.push((await post("/login", ATTACKER, address)).status);
    }
    // The first round gets through (9 checks, then the attacker's own sign-in, which takes back
    // its own attempt only); the second round's first guess is the 10th, and from then on every
    // post is refused, the own sign-in too.
    expect(guesses.filter((s) => s === 401)).toHaveLength(RATE_LIMITS.signInPerIp.limit);
    expect(guesses.slice(RATE_LIMITS.signInPerIp.limit).every((s) => s === 429)).toBe(true);
    expect(own).toEqual([302, 429, 429, 429]);
  });

  it("lets the owner sign in again and again from one address: a success takes back its own attempt", async () => {
    for (let i = 0; i < 2 * RATE_LIMITS.signInPerIp.limit; i++) expect((await post("/login", ATTACKER, "198.51.100.70")).status).toBe(302);
  });

  it("does not lock the admin out of a network they signed in from when 5 addresses guess their password", async () => {
    // Their home's IPv6 /64: the address they sign in from changes within it (privacy addresses).
    const home = (n: number) => `2001:db8:66:1::${n}`;
    expect((await post("/admin/login", ADMIN, home(1))).status).toBe(302);

    const statuses: number[] = [];
    for (let a = 0; a < 5; a++) {
      for (let i = 0; i < RATE_LIMITS.signInPerIp.limit; i++) {
        statuses.push((await post("/admin/login", { email: ADMIN.email, password: `pirate-${a}-${i}` }, `203.0.113.${80 + a}`)).status);
      }
    }
    // The attackers together get the account's shared count, no more.
    expect(statuses.filter((s) => s === 401)).toHaveLength(RATE_LIMITS.signInPerAccount.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5 * RATE_LIMITS.signInPerIp.limit - RATE_LIMITS.signInPerAccount.limit);

    // The admin signs in from their own network (a 6th one) all the same, even after a typo,
    // from addresses of their /64 other than the first.
    expect((await post("/admin/login", { email: ADMIN.email, password: "faute-de-frappe" }, home(2))).status).toBe(401);
    const signedIn = await post("/admin/login", ADMIN, home(3));
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toMatch(/^\/admin/);
    // An address that never signed into the account waits for the shared window's end.
    const newcomer = await post("/admin/login", ADMIN, "198.51.100.99");
    expect(newcomer.status).toBe(429);
    expect(Number(newcomer.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("counts new passwords posted with reset tokens per address before checking the token", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.resetTokenPerIp.limit + 2; i++) {
      statuses.push((await post("/reset-password", { token: `jeton-devine-${i}`, password: "Nouveau-Mot-2026", confirm: "Nouveau-Mot-2026" }, "203.0.113.120")).status);
    }
    expect(statuses.slice(0, RATE_LIMITS.resetTokenPerIp.limit)).toEqual(Array(RATE_LIMITS.resetTokenPerIp.limit).fill(400));
    expect(statuses.slice(RATE_LIMITS.resetTokenPerIp.limit)).toEqual([429, 429]);
  });

  it("counts every account form's post on its client network before reading its body", async () => {
    // Bodies that cannot be parsed (a multipart post without its parts): were the limit counted
    // after reading, each would be a 400 and count nothing, and a flood of them would never stop.
    const unreadable = (pathname: string, address: string) =>
      fetch(`${server.url}${pathname}`, {
        method: "POST",
        body: "--x\r\nnot a part",
        headers: { "x-forwarded-for": address, "content-type": "multipart/form-data; boundary=x" },
        redirect: "manual",
      }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    const forms = [
      ["/login", RATE_LIMITS.signInPerIp.limit],
      ["/admin/login", RATE_LIMITS.signInPerIp.limit],
      ["/signup", RATE_LIMITS.signUpPerIp.limit],
      ["/forgot-password", RATE_LIMITS.resetPerIp.limit],
      ["/reset-password?token=x", RATE_LIMITS.resetTokenPerIp.limit],
    ] as const;
    // Each form's posts come from one IPv6 /64, each post from another of its addresses: one count.
    await Promise.all(
      forms.map(async ([pathname, limit], i) => {
        const statuses: number[] = [];
        for (let n = 0; n <= limit; n++) statuses.push(await unreadable(pathname, `2001:db8:${200 + i}:1::${n + 1}`));
        expect(statuses.slice(0, limit), pathname).toEqual(Array(limit).fill(400));
        expect(statuses[limit], pathname).toBe(429);
        // Another /64 is another client.
        expect(await unreadable(pathname, `2001:db8:${200 + i}:2::1`), pathname).toBe(400);
      }),
    );
  });
});
