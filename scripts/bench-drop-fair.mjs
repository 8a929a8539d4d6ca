// The waiting-room part of the drop scenario of `npm run bench` (issue 39's benchmark, tightened
// to issue 50's burst): a drop of 10 units, limited to 1 per customer, bought through its waiting
// room by 300 honest collectors and 20 hoarding scripts. Honest buyers (own IPv4 address, own
// mailbox): a share of them join in the room's first 100 ms, the rest at times spread over the
// window; they poll their place every 2 s as the product page does, check out with their
// admission and pay through the test payment page (a fifth of them cancel instead). Each script
// is one IPv6 /64 (a new address in it for every request) with 40 cookie jars and 40 e-mails
// (half the scripts: variants of one Gmail mailbox; the other half: 40 mailboxes): all 40 join
// within the room's first 100 ms (20 × 40 = 800 joins), retry, poll every second, check out with
// whatever admission they get, cycle e-mails on a refusal, cancel their first order and grab again.
// With collector identities (issue 50, point 3; BENCH_DROP_IDENTITY, the fair start by default):
// every buyer confirms a mailbox before joining, with the code the shop e-mails (a local SMTP
// catcher in this process gets it), honest buyers their own, each script every spelling of its
// one Gmail mailbox (one per cookie jar); a jar whose code did not come takes a sibling's cookie.
// Run twice per database, first come then fair start. PGlite: one server; PostgreSQL: two
// instances on one database, buyers split between them.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { BUSY, HEADERS, cpuMs, fmt, label, seed, sleep, startServer, withScenarioDatabase } from "./bench.mjs";
import { countBy, dropDb, machineBusyMs, testPaymentForm } from "./bench-drop.mjs";

export const ROOM = {
  stock: 10,
  limit: 1,
  /** Honest collectors (issue 50: 300; issue 39 had 980). */
  honest: Number(process.env.BENCH_DROP_ROOM_HONEST ?? 300),
  /** Of them, how many join in the room's first `burstMs` with the scripts; the rest spread over the window. */
  honestInBurst: Number(process.env.BENCH_DROP_ROOM_HONEST_BURST ?? 50),
  scripts: Number(process.env.BENCH_DROP_SCRIPTS ?? 20),
  /** Cookie jars (pages) per script, each joining once in the burst, and as many e-mails. */
  joinsPerScript: Number(process.env.BENCH_DROP_SCRIPT_JOINS ?? 40),
  /** The line's first moments: every script join, and `honestInBurst` honest ones, are fired within it. */
  burstMs: 100,
  get emailsPerScript() {
    return this.joinsPerScript;
  },
  /** fair_window_minutes: the room opens this long before the drop (the shortest the form allows). */
  windowMinutes: 1,
  modes: (process.env.BENCH_DROP_MODES ?? "first_come,fair_start").split(","),
  /** As the product page (QUEUE_POLL_MS, IDLE_POLL_MS of drop-waiting-room.tsx). */
  pollMs: 2_000,
  idlePollMs: 10_000,
  scriptPollMs: 1_000,
  /** Honest buyers who, once their order is made, cancel it on the payment page instead of paying. */
  abandonShare: 0.2,
  roomP99Ms: 500,
  /** How long before the opening the burst's pages open their connections (a look at the closed room). */
  warmLeadMs: 2_000,
  /** This process's priority (nice) while the buyers run, above the servers' 0. */
  benchPriority: -10,
  soldOutSeenMs: 5_000,
  /** PGlite: the drop time goes in before the server opens the directory: the room opens this long after the seed. */
  pgliteOpenLeadMs: 30_000,
  postgresOpenLeadMs: 3_000,
  /**
   * The start modes whose buyers confirm a mailbox before joining (issue 50, point 3: a fair
   * start's ticket is a collector's). BENCH_DROP_IDENTITY="" joins without (as before it).
   */
  identityModes: (process.env.BENCH_DROP_IDENTITY ?? "fair_start").split(",").filter(Boolean),
  /** With identities: the burst's buyers ask for their code this long before the room opens (the mail worker looks every 5 s). */
  identityLeadMs: 20_000,
  /** With identities: the other honest buyers arrive this long before the drop at the latest (asking, reading and typing the code, then joining). */
  identityMarginMs: 12_000,
  /** How long a buyer waits for a code's e-mail before giving up. */
  codeWaitMs: 30_000,
  /** After the drop, how long the run may last: past an admission's 5 minutes (ADMISSION_MINUTES), a stalled line moves again. */
  afterDropMs: 390_000,
  /** After the last sale, how long the waiting pages have to show "épuisé" before the run ends. */
  afterSoldOutMs: 15_000,
};

const BASE_PRIORITY = os.getPriority();
v8.setFlagsFromString("--expose-gc");
// A young generation big enough that the burst allocates in it without a collection.
v8.setFlagsFromString("--max-semi-space-size=64");
const collectGarbage = vm.runInNewContext("gc");

export const ROOM_START = "<!-- bench:drop-room:start (written by `npm run bench`, do not edit by hand) -->";
export const ROOM_END = "<!-- bench:drop-room:end -->";


// ── HTTP as a browser ────────────────────────────────────────────────────────────────────
/**
 * One request from a visitor: its address (X-Forwarded-For; the servers trust loopback), its
 * cookie jar (Set-Cookie applied), same-origin Origin on POSTs. Every answer is read in full and
 * logged by kind; a connection error or a 30 s silence is logged as an error.
 */
function request(run, server, { method = "GET", url, ip, jar, json, form, kind, who }) {
  const target = new URL(url, server.base);
  const body = json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : null;
  const headers = { "user-agent": HEADERS["user-agent"], accept: "application/json", "x-forwarded-for": ip };
  if (method === "POST") headers.origin = server.base;
  if (body !== null) {
    headers["content-type"] = json !== undefined ? "application/json" : "application/x-www-form-urlencoded";
    headers["content-length"] = Buffer.byteLength(body);
  }
  if (jar?.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const started = Date.now();
  return new Promise((resolve) => {
    const done = (answer) => {
      const entry = { kind, who, instance: server.index, at: started, ms: Date.now() - started, ...answer };
      run.log.push(entry);
      resolve(entry);
    };
    const req = http.request(target, { method, headers, agent: server.agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", (e) => done({ status: null, error: e.code ?? e.message }));
      res.on("end", () => {
        applyCookies(jar, res.headers["set-cookie"]);
        let parsed = null;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          // an HTML page or a redirect: the status and location say enough
        }
        done({ status: res.statusCode, json: parsed, location: res.headers.location ?? "" });
      });
    });
    req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
    req.on("error", (e) => done({ status: null, error: e.message === "timeout" ? "timeout" : (e.code ?? e.message) }));
    req.end(body ?? undefined);
  });
}

/** Sets a response's cookies in a jar (a deleted or expired one is removed). */
function applyCookies(jar, setCookies) {
  for (const line of setCookies ?? []) {
    const [pair, ...attrs] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (!value || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar?.delete(name);
    else jar?.set(name, value);
  }
}

/** A connection opened ahead for one page's first request (the burst): resolves once connected. */
function openConnection(server) {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(server.base).port), "127.0.0.1");
    socket.setNoDelay(true);
    socket.once("connect", () => resolve(socket));
    socket.once("error", () => resolve(null));
  });
}

/**
 * As `request`, a bodiless one, written as bytes on a connection opened ahead (openConnection),
 * then closed: the burst's joins. http.request costs this process about 60 µs of CPU a request,
 * which on a shared core spread 800 joins over several hundred ms; a write costs a few µs, so the
 * burst leaves within its 100 ms. Same log entry as `request`.
 */
function rawRequest(run, server, socket, { method = "GET", url, ip, jar, kind, who }) {
  const lines = [`${method} ${url} HTTP/1.1`, `host: ${new URL(server.base).host}`, `user-agent: ${HEADERS["user-agent"]}`, "accept: application/json", `x-forwarded-for: ${ip}`];
  if (method === "POST") lines.push(`origin: ${server.base}`, "content-length: 0");
  if (jar?.size) lines.push(`cookie: ${[...jar].map(([k, v]) => `${k}=${v}`).join("; ")}`);
  const started = Date.now();
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    let finished = false;
    const done = (answer) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // Left open, as a browser keeps its connection (closed at the end of the run): closing 800
      // connections at once is work for the server that a burst of joins does not bring.
      socket.removeAllListeners("data");
      socket.on("error", () => {});
      run.openSockets.push(socket);
      const entry = { kind, who, instance: server.index, at: started, ms: Date.now() - started, ...answer };
      run.log.push(entry);
      resolve(entry);
    };
    const timer = setTimeout(() => done({ status: null, error: "timeout" }), 30_000);
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1").split("\r\n");
      const status = Number(head[0].split(" ")[1]);
      const headers = head.slice(1).map((h) => [h.slice(0, h.indexOf(":")).trim().toLowerCase(), h.slice(h.indexOf(":") + 1).trim()]);
      const length = Number(headers.find(([k]) => k === "content-length")?.[1] ?? NaN);
      if (Number.isNaN(length)) return done({ status: null, error: "no content-length" });
      if (buffer.length < end + 4 + length) return;
      applyCookies(jar, headers.filter(([k]) => k === "set-cookie").map(([, v]) => v));
      let parsed = null;
      try {
        parsed = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString("utf8"));
      } catch {
        // not JSON: the status says enough
      }
      done({ status, json: parsed, location: headers.find(([k]) => k === "location")?.[1] ?? "" });
    });
    socket.on("error", (e) => done({ status: null, error: e.code ?? e.message }));
    socket.on("close", () => done({ status: null, error: "closed" }));
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  });
}

/**
 * CPU time (ms) of a throwaway PostgreSQL cluster's processes (its postmaster and their children,
 * the backends): null on another server (DATABASE_URL) or PGlite.
 */
function postgresCpuMs(dataDir) {
  if (!dataDir) return null;
  let postmaster;
  try {
    postmaster = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return null;
  }
  let total = cpuMs(postmaster);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster) total += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

// ── The buyers' mailboxes ───────────────────────────────────────────────────────────────
/** A mail's text parts, decoded (quoted-printable or base64), one string. */
function mailText(raw) {
  const out = [];
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const split = part.search(/\r?\n\r?\n/);
    const head = split < 0 ? "" : part.slice(0, split);
    const body = split < 0 ? part : part.slice(split).trim();
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
    if (encoding === "base64") out.push(Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8"));
    else if (encoding === "quoted-printable") out.push(Buffer.from(body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8"));
    else out.push(body);
  }
  return out.join("\n");
}

/**
 * A local SMTP relay standing for the buyers' mailboxes: the servers' mail worker sends to it
 * (SMTP_URL), and a buyer reads the code of the mail sent to an address (`codeFor`, which waits
 * for it). Codes by recipient, as sent (lower case).
 */
async function startMailboxes() {
  const codes = new Map();
  const waiting = new Map();
  let received = 0;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        received += 1;
        const code = /Votre code\s*:\s*(\d{6})/.exec(mailText(Buffer.concat(chunks).toString("latin1")))?.[1];
        for (const { address } of session.envelope.rcptTo) {
          if (!code) continue;
          const to = address.toLowerCase();
          const list = codes.get(to) ?? [];
          list.push({ code, at: Date.now() });
          codes.set(to, list);
          for (const wake of waiting.get(to) ?? []) wake();
          waiting.delete(to);
        }
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    get received() {
      return received;
    },
    /** The codes mailed to these addresses so far (a mailbox that all of them reach), newest first. */
    codesFor: (addresses) => addresses.flatMap((a) => codes.get(a.toLowerCase()) ?? []).sort((a, b) => b.at - a.at),
    /** Waits until a code mailed to `address` after `since` is in, or `timeoutMs` has passed: the code, or null. */
    async codeFor(address, since, timeoutMs) {
      const to = address.toLowerCase();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const latest = (codes.get(to) ?? []).filter((c) => c.at >= since).at(-1);
        if (latest) return latest.code;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, left);
          const list = waiting.get(to) ?? [];
          list.push(() => {
            clearTimeout(timer);
            resolve();
          });
          waiting.set(to, list);
        });
      }
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A customer's delivery address: its own street number, so no two customers share an address key. */
function payForm(n, email) {
  return testPaymentForm({ email, fullName: `Client Salle ${n}`, line1: `${n} rue des Collectionneurs` });
}

// ── Who buys ─────────────────────────────────────────────────────────────────────────────
const honestIp = (i) => `10.${((i + 1) >> 16) & 255}.${((i + 1) >> 8) & 255}.${(i + 1) & 255}`;
/** A script's /64 (2001:db8:s:s::/64) and a fresh address in it for each request (per-address limits do not see it). */
const scriptIp = (s) => `2001:db8:${(s + 1).toString(16)}:${(s + 1).toString(16)}:${[0, 0, 0, 0].map(() => Math.floor(Math.random() * 0xffff).toString(16)).join(":")}`;

/**
 * `n` spellings of one Gmail mailbox (dots, +tags, capitals, googlemail.com): one customer to
 * the shop (its normalised e-mail), one mailbox that every code sent to them lands in.
 */
function gmailVariants(local, n) {
  const seen = new Set();
  const out = [];
  for (let k = 0; out.length < n; k++) {
    const at = 1 + (k % (local.length - 1));
    const dotted = k === 0 ? local : `${local.slice(0, at)}.${local.slice(at)}`;
    const tagged = k % 3 === 1 || k >= local.length - 1 ? `${dotted}+drop${k}` : dotted;
    const cased = k % 4 === 2 ? tagged.toUpperCase() : tagged;
    const email = `${cased}@${k % 5 === 4 ? "googlemail.com" : "gmail.com"}`;
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  return out;
}
const scriptMailbox = (s) => `collectionneur${s}`;

/**
 * A script's e-mails at checkout, one per page: even-numbered scripts spell one Gmail mailbox
 * that many ways; odd-numbered ones use as many mailboxes.
 */
function scriptEmails(s) {
  if (s % 2 === 1) return Array.from({ length: ROOM.emailsPerScript }, (_, k) => `bot${s}.${k}@example.net`);
  return gmailVariants(scriptMailbox(s), ROOM.emailsPerScript);
}

// ── One run: one database, one start mode ─────────────────────────────────────────────────
async function oneRun(kind, mode, { port }) {
  const outcome = await withScenarioDatabase(kind, "comptoir-room", { TRUST_PROXY: "loopback" }, async ({ env: scenarioEnv, postgres }) => {
    let env = scenarioEnv;
    const servers = [];
    const run = { log: [], stop: false, openSockets: [] };
    try {
      const instances = kind === "postgres" ? 2 : 1;
      const windowMs = ROOM.windowMinutes * 60_000;
      console.log(`\n━━ Drop with a waiting room, ${label(kind)}, ${mode}${postgres ? ` — ${postgres.origin}, ${instances} server instances` : ""}`);
      const seeded = seed(env);
      const identity = ROOM.identityModes.includes(mode);
      const mailboxes = identity ? await startMailboxes() : null;
      run.mailboxes = mailboxes;
      if (mailboxes) env = { ...env, SMTP_URL: mailboxes.url };
      const lead = identity ? ROOM.identityLeadMs + 2_000 : 0;
      const seededDropAt = kind === "pglite" ? Date.now() + ROOM.pgliteOpenLeadMs + lead + windowMs : Date.now() + 3_600_000;
      const rules = { perCustomerLimit: ROOM.limit, startMode: mode, fairWindowMinutes: ROOM.windowMinutes };
      const known = dropDb("seed", { ...env, DROP_AT: new Date(seededDropAt).toISOString(), DROP_STOCK: String(ROOM.stock), DROP_RULES: JSON.stringify(rules) });
      console.log(`  seeded ${seeded.total} products + the drop ${known.drop.path} (stock ${known.drop.stock}, ${JSON.stringify(rules)})${identity ? `; buyers confirm a mailbox before joining (codes caught at ${mailboxes.url})` : ""}`);
      for (let i = 0; i < instances; i++) {
        const server = await startServer(env, port + i);
        servers.push(Object.assign(server, { index: i, name: instances > 1 ? `instance ${String.fromCharCode(65 + i)}` : "server", agent: new http.Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 }) }));
      }
      let dropAt = seededDropAt;
      if (kind === "postgres") {
        dropAt = Date.now() + ROOM.postgresOpenLeadMs + lead + windowMs;
        const client = new pg.Client({ connectionString: postgres.url });
        await client.connect();
        await client.query("update products set drop_time = $1 where id = $2", [new Date(dropAt), known.drop.id]);
        await client.end();
      }
      const opensAt = dropAt - windowMs;
      if (Date.now() > opensAt) throw new Error(`the servers were up ${Date.now() - opensAt} ms after the room opened (start-up too slow)`);
      console.log(`  ${servers.map((s) => `${s.name} pid ${s.pid}`).join(", ")}; room opens ${new Date(opensAt).toISOString()}, drop at ${new Date(dropAt).toISOString()}`);

      const roomUrl = `/api/drops/${known.drop.id}/file`;
      const productId = known.drop.id;
      const pages = [];
      const payments = [];
      const serverOf = (i) => servers[i % instances];

      /** Polls a page's place until "épuisé", the buyer leaves, or the run ends; `onAdmitted` on each admitted answer. */
      async function poll(page, every, onAdmitted) {
        while (!run.stop && !page.left) {
          const r = await request(run, page.server, { who: page.script === null ? "honest" : "script", url: roomUrl, ip: page.ip(), jar: page.jar, kind: "status" });
          const state = r.json?.state ?? null;
          page.state = state;
          page.states.push([r.at + r.ms, state]);
          if (state === "sold_out") {
            page.soldOutAt ??= r.at + r.ms;
            return;
          }
          if (state === "admitted") {
            page.admittedAt ??= r.at + r.ms;
            await onAdmitted(r.json);
            if (page.left) return;
          }
          await sleep(state === "waiting" || state === "admitted" ? every : ROOM.idlePollMs);
        }
      }

      async function checkout(page, email) {
        const r = await request(run, page.server, { who: page.script === null ? "honest" : "script", method: "POST", url: "/api/checkout", ip: page.ip(), jar: page.jar, json: { items: [{ productId, quantity: 1 }], insuranceSelected: false, email }, kind: "checkout" });
        page.checkouts.push({ at: r.at, status: r.status, code: r.json?.code ?? null, email });
        return r;
      }

      async function pay(page, order, n, email) {
        const r = await request(run, page.server, { who: page.script === null ? "honest" : "script", method: "POST", url: order.url, ip: page.ip(), form: payForm(n, email), kind: "pay" });
        const ok = (r.status === 302 || r.status === 303) && r.location.includes("/merci?success=true");
        payments.push({ page: page.id, script: page.script, email, ok, doneAt: r.at + r.ms, status: r.status });
        return ok;
      }

      const cancel = (page, order) => request(run, page.server, { who: page.script === null ? "honest" : "script", method: "POST", url: "/api/checkout/cancel", ip: page.ip(), json: { orderId: order.orderId }, kind: "cancel" });

      // Honest buyers: one page each; the first `honestInBurst` arrive with the scripts in the
      // room's first 100 ms, the others at times spread evenly over the window (ending 0.5 s
      // before the drop).
      for (let i = 0; i < ROOM.honest; i++) {
        const ip = honestIp(i);
        const arriveAt = i < ROOM.honestInBurst ? opensAt + Math.random() * ROOM.burstMs : opensAt + 200 + Math.random() * (windowMs - (identity ? ROOM.identityMarginMs : 700));
        pages.push({ id: i, script: null, server: serverOf(i), ip: () => ip, jar: new Map(), email: `acheteur${i}@example.com`, arriveAt, states: [], checkouts: [], abandons: Math.random() < ROOM.abandonShare });
      }
      // Scripts: `joinsPerScript` pages each, all joining in the room's first 100 ms.
      const scripts = Array.from({ length: ROOM.scripts }, (_, s) => ({ s, emails: scriptEmails(s), variants: gmailVariants(scriptMailbox(s), ROOM.joinsPerScript), next: 0, cancelledOnce: false, units: 0, pages: [], tickets: new Set() }));
      for (const script of scripts) {
        for (let k = 0; k < ROOM.joinsPerScript; k++) {
          const page = { id: pages.length, script: script.s, server: serverOf(script.s + k), ip: () => scriptIp(script.s), jar: new Map(), email: script.variants[k], arriveAt: opensAt + Math.random() * ROOM.burstMs, states: [], checkouts: [], joins: [] };
          pages.push(page);
          script.pages.push(page);
        }
      }
      const identityUrl = `/api/drops/${productId}/identite`;

      /** Asks for a code for `email` from this page (its browser); the answer's status. */
      async function askCode(page, email) {
        const r = await request(run, page.server, { who: page.script === null ? "honest" : "script", method: "POST", url: identityUrl, ip: page.ip(), jar: page.jar, json: { email }, kind: "ask-code" });
        return r.status;
      }
      /** Types a code for `email` on this page: 200 sets the collector's cookie in its jar. */
      async function typeCode(page, email, code) {
        const r = await request(run, page.server, { who: page.script === null ? "honest" : "script", method: "POST", url: `${identityUrl}/code`, ip: page.ip(), jar: page.jar, json: { email, code }, kind: "confirm" });
        return r.status;
      }
      /** An honest buyer confirms their mailbox: asks, reads the mail, types the code; whether it worked. */
      async function confirmMailbox(page) {
        const since = Date.now();
        page.askedAt = since;
        if ((await askCode(page, page.email)) !== 202) return false;
        const code = await mailboxes.codeFor(page.email, since, ROOM.codeWaitMs);
        if (!code) return false;
        if ((await typeCode(page, page.email, code)) !== 200) return false;
        page.confirmedAt = Date.now();
        return true;
      }
      /**
       * A script confirms its one mailbox: every page (cookie jar) asks for a code for its own
       * spelling of it, all at once; every code lands in the one mailbox, and the script types
       * them, newest first, each on the page that asked for that spelling, until one is taken.
       * Its pages without the collector's cookie then copy it (a cookie is a string).
       */
      async function confirmScript(script) {
        const since = Date.now();
        const asked = await Promise.all(script.pages.map((page) => askCode(page, page.email)));
        script.codesAsked = countBy(asked, String);
        const accepted = script.pages.filter((_, k) => asked[k] === 202);
        await Promise.all(accepted.map((page) => mailboxes.codeFor(page.email, since, ROOM.codeWaitMs)));
        const mail = mailboxes.codesFor(script.variants).filter((c) => c.at >= since);
        script.confirmations = 0;
        script.typed = [];
        // Twice over the codes at most (two of them may be live at once), until one is taken.
        for (let pass = 0; pass < 2 && !script.pages.some((page) => page.jar.has("drop_collector")); pass++) {
          for (const { code } of mail) {
            for (const page of accepted) {
              if (page.jar.has("drop_collector")) continue;
              const status = await typeCode(page, page.email, code);
              script.typed.push(status);
              if (status === 200) script.confirmations += 1;
              if (status === 200 || status === 422) break;
            }
          }
        }
        script.codesReceived = mail.length;
        const cookie = script.pages.find((page) => page.jar.has("drop_collector"))?.jar.get("drop_collector");
        if (cookie) for (const page of script.pages) if (!page.jar.has("drop_collector")) page.jar.set("drop_collector", cookie);
        script.confirmed = cookie !== undefined;
      }

      /** A page's join: its first on the connection opened ahead, if any (the burst), else as any request. */
      function join(page) {
        const options = { who: page.script === null ? "honest" : "script", method: "POST", url: roomUrl, ip: page.ip(), jar: page.jar, kind: "join" };
        const socket = page.socket;
        page.socket = null;
        return socket ? rawRequest(run, page.server, socket, options) : request(run, page.server, options);
      }

      async function honest(page) {
        if (identity) {
          // In the burst: confirmed before the room opens; else on arrival, then joins.
          const inBurst = page.arriveAt < opensAt + ROOM.burstMs;
          await sleep((inBurst ? opensAt - ROOM.identityLeadMs + Math.random() * 5_000 : page.arriveAt) - Date.now());
          page.confirmed = await confirmMailbox(page);
          if (inBurst) await sleep(page.arriveAt - Date.now());
        } else await sleep(page.arriveAt - Date.now());
        const j = await join(page);
        page.joinedAt = j.at;
        page.joinStatus = j.status;
        page.ticket = j.status === 200 && page.jar.has(`drop_ticket_${productId}`);
        let lastCode = null;
        await poll(page, ROOM.pollMs, async (view) => {
          if (page.ordered) return;
          // Refused for want of stock: the page stays admitted and tries again when a unit is back.
          if (lastCode === "OUT_OF_STOCK" && view.figures.available <= 0) return;
          if (lastCode !== null && lastCode !== "OUT_OF_STOCK") return;
          const r = await checkout(page, page.email);
          lastCode = r.json?.code ?? (r.status === 200 ? null : `HTTP ${r.status}`);
          if (r.status !== 200 || !r.json?.url) return;
          page.ordered = true;
          if (page.abandons) {
            await cancel(page, r.json);
            page.cancelled = true;
            page.cancelledAt = Date.now();
            return; // back on the product page, whose room now says "open" (its ticket is used)
          }
          if (await pay(page, r.json, 1000 + page.id, page.email)) page.paidAt = Date.now();
          page.left = true; // on to /merci
        });
      }

      async function scriptPage(page) {
        const script = scripts[page.script];
        if (identity) {
          script.confirming ??= sleep(opensAt - ROOM.identityLeadMs + Math.random() * 5_000 - Date.now()).then(() => confirmScript(script));
          await script.confirming;
        }
        await sleep(page.arriveAt - Date.now());
        // Join, and join again twice when refused (the network's 10 tickets are taken).
        for (let attempt = 0; attempt < 3; attempt++) {
          const j = await join(page);
          page.joins.push(j.status);
          page.joinedAt ??= j.at;
          if (j.status === 200) break;
          await sleep(2_000);
        }
        page.ticket = page.jar.has(`drop_ticket_${productId}`);
        if (page.ticket) {
          // The collector's one ticket, given to several of its pages: one of them watches it.
          const ticketId = page.jar.get(`drop_ticket_${productId}`);
          if (script.tickets.has(ticketId)) {
            page.sameTicket = true;
            return;
          }
          script.tickets.add(ticketId);
        }
        if (!page.ticket) {
          // No place: try the checkout anyway at the opening, with no admission.
          await sleep(dropAt + Math.random() * 1_000 - Date.now());
          await checkout(page, script.emails[script.next++ % script.emails.length]);
          return;
        }
        let done = false;
        await poll(page, ROOM.scriptPollMs, async (view) => {
          if (done) return;
          if (view.figures.available <= 0 && page.checkouts.at(-1)?.code === "OUT_OF_STOCK") return;
          // Up to three e-mails per look: the next one when a limit refuses the last.
          for (let tries = 0; tries < 3 && !done; tries++) {
            const email = script.emails[script.next++ % script.emails.length];
            const r = await checkout(page, email);
            const code = r.json?.code ?? null;
            if (r.status === 200 && r.json?.url) {
              if (!script.cancelledOnce) {
                // Cancel and grab again: the unit goes back on sale, the script's other admitted pages race for it.
                script.cancelledOnce = true;
                await cancel(page, r.json);
                const again = await request(run, page.server, { who: page.script === null ? "honest" : "script", method: "POST", url: roomUrl, ip: page.ip(), jar: page.jar, kind: "join" });
                page.joins.push(again.status);
                continue;
              }
              if (await pay(page, r.json, 5000 + page.id, email)) script.units += 1;
              done = true;
            } else if (code === "OUT_OF_STOCK" || code === "DROP_ADMISSION" || r.status >= 500 || r.status === null) {
              if (code === "DROP_ADMISSION") done = true;
              return;
            }
          }
        });
      }

      // The buyers run on the servers' machine: this process (the 320 buyers' browsers) is given
      // a higher priority than the servers and PostgreSQL while they run (its children, started
      // before, keep theirs), so that the burst goes out when it is due and answers are read
      // when they come, rather than both waiting for a core the servers hold (root only).
      try {
        os.setPriority(ROOM.benchPriority);
      } catch {
        console.log(`  (could not raise this process's priority: the burst and the latencies include waits for a core)`);
      }
      const cpu0 = servers.map((s) => cpuMs(s.pid));
      const bench0 = process.cpuUsage();
      const machine0 = machineBusyMs();
      const t0 = Date.now();
      const all = pages.map((page) => (page.script === null ? honest(page) : scriptPage(page)));
      // The pages of the burst are on the product page before the room opens, as a browser waiting
      // for it is: each has its connection open (a keep-alive socket per page, opened by a look at
      // the closed room 2 s before), so that the burst is the joins themselves, fired within the
      // line's first 100 ms, and not this process opening 800 connections (logged apart, "look").
      await sleep(opensAt - ROOM.warmLeadMs - Date.now());
      const burstPages = pages.filter((p) => p.arriveAt < opensAt + ROOM.burstMs);
      await Promise.all(burstPages.map(async (p) => (p.socket = await openConnection(p.server))));
      // A full collection now, so that none falls in the burst (one took 100–200 ms of its 100 ms).
      collectGarbage();
      // The CPU the burst costs: the servers', and the machine's (PostgreSQL and this process
      // included), from just before the room opens until its last join is answered.
      const burstCpu = (async () => {
        // Sampled 300 ms ahead: reading /proc for every process takes this process some ms, which the burst's 100 ms cannot spare.
        await sleep(opensAt - 300 - Date.now());
        const statsClient = process.env.BENCH_PG_STATS && postgres ? new pg.Client({ connectionString: postgres.url }) : null;
        if (statsClient) { await statsClient.connect(); console.log("    backends before the burst:", JSON.stringify((await statsClient.query("select application_name, state, count(*)::int from pg_stat_activity where backend_type = 'client backend' group by 1, 2")).rows)); await statsClient.query("create extension if not exists pg_stat_statements"); await statsClient.query("select pg_stat_statements_reset()"); }
        const at0 = { servers: servers.map((s) => cpuMs(s.pid)), postgres: postgresCpuMs(postgres?.dataDir), machine: machineBusyMs(), bench: process.cpuUsage(), t: Date.now() };
        while (!run.stop && burstPages.some((p) => p.joinedAt === undefined)) await sleep(10);
        if (statsClient) {
          console.log("    backends after the burst:", JSON.stringify((await statsClient.query("select application_name, state, count(*)::int from pg_stat_activity where backend_type = 'client backend' group by 1, 2")).rows));
          const { rows } = await statsClient.query("select calls, round(total_exec_time::numeric,1) as exec_ms, round(total_plan_time::numeric,1) as plan_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) as q from pg_stat_statements order by total_exec_time + total_plan_time desc limit 25");
          console.log(rows.map((r) => `    ${r.calls} calls, exec ${r.exec_ms} ms, plan ${r.plan_ms} ms: ${r.q}`).join("\n"));
          await statsClient.end();
        }
        const bench = process.cpuUsage(at0.bench);
        const postgresMs = at0.postgres === null ? null : postgresCpuMs(postgres.dataDir) - at0.postgres;
        return { wallMs: Date.now() - at0.t, servers: servers.map((s, i) => cpuMs(s.pid) - at0.servers[i]), postgres: postgresMs, machine: machineBusyMs() - at0.machine, bench: (bench.user + bench.system) / 1000 };
      })();
      // Ends the run once every waiting page has seen "épuisé" after the last sale, or at the deadline.
      const watcher = (async () => {
        const deadline = dropAt + ROOM.afterDropMs;
        let soldOutSince = null;
        while (Date.now() < deadline) {
          await sleep(250);
          if (soldOutSince === null && payments.filter((p) => p.ok).length >= ROOM.stock) soldOutSince = Date.now();
          const watching = pages.filter((p) => !p.left && p.ticket && p.soldOutAt === undefined && (p.state === "waiting" || p.state === "admitted"));
          if (soldOutSince !== null && (watching.length === 0 || Date.now() - soldOutSince > ROOM.afterSoldOutMs)) break;
        }
        run.stop = true;
      })();
      await Promise.all([...all, watcher]);
      const burstCost = await burstCpu;
      const wallMs = Date.now() - t0;
      os.setPriority(BASE_PRIORITY);
      const cpu = servers.map((s, i) => cpuMs(s.pid) - cpu0[i]);
      const benchCpu = process.cpuUsage(bench0);
      const machineCpu = machineBusyMs() - machine0;
      for (const server of servers) {
        server.agent.destroy();
        const code = await server.stop();
        if (code !== 0) console.log(`  ${server.name} exit code ${code}:\n${server.output().slice(-2000)}`);
      }
      const serverErrors = servers.flatMap((s) => s.output().split("\n").filter((line) => /"level":(50|60)|^checkout|Error/.test(line)));
      const database = dropDb("customers", { ...env, DROP_PRODUCT_ID: String(productId) });
      const result = summarize({ kind, mode, origin: postgres?.origin ?? "PGlite (temporary DATA_DIR)", instances, seeded, pages, payments, log: run.log, opensAt, dropAt, windowMs, database, burstCost, identity, scripts, mailsReceived: mailboxes?.received ?? 0, cpu, benchCpu: (benchCpu.user + benchCpu.system) / 1000, machineCpu, wallMs, serverErrors });
      printRun(result);
      return result;
    } finally {
      os.setPriority(BASE_PRIORITY);
      run.stop = true;
      await run.mailboxes?.close();
      for (const socket of run.openSockets) socket.destroy();
      for (const server of servers) {
        server.agent?.destroy();
        await server.stop();
      }
    }
  });
  // A skipped run names its mode too.
  return outcome.skipped ? { kind, mode, skipped: outcome.skipped } : outcome;
}

const otherCpu = (cpu) => Math.max(0, cpu.machine - cpu.servers.reduce((a, b) => a + b, 0) - cpu.bench);

// ── Measures ─────────────────────────────────────────────────────────────────────────────
function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const spread = (values) => ({ n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99), max: values.length ? Math.max(...values) : null });


/** ln C(n, k) */
function lnChoose(n, k) {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * The scripts' fair share: `scripts` customers among `customers`, `units` won with an even
 * chance per customer, is hypergeometric; the bound is its 99th percentile (what chance alone
 * gives them 99 times out of 100).
 */
export function fairShareBound(customers, scripts, units) {
  let cumulative = 0;
  for (let x = 0; x <= Math.min(scripts, units); x++) {
    cumulative += Math.exp(lnChoose(scripts, x) + lnChoose(customers - scripts, units - x) - lnChoose(customers, units));
    if (cumulative >= 0.99) return x;
  }
  return Math.min(scripts, units);
}

function summarize(r) {
  const byKind = (kind) => r.log.filter((e) => e.kind === kind);
  const latency = (kind) => spread(byKind(kind).filter((e) => e.status !== null).map((e) => e.ms));
  const statuses = (kind) => countBy(byKind(kind), (e) => (e.status === null ? e.error : `${e.status}${e.json?.code ? ` ${e.json.code}` : ""}`));
  const honest = r.pages.filter((p) => p.script === null);
  const scriptPages = r.pages.filter((p) => p.script !== null);
  const paid = r.payments.filter((p) => p.ok).sort((a, b) => a.doneAt - b.doneAt);
  const lastSaleAt = paid.length >= ROOM.stock ? paid[ROOM.stock - 1].doneAt : null;
  // Waiting pages at the last sale: in line or admitted then, not gone to /merci.
  const stateAt = (page, t) => page.states.filter(([at]) => at <= t).at(-1)?.[1] ?? null;
  // (A page that cancelled its order before the last sale has left the line: its ticket is used.)
  const waitingAt = (list) => (lastSaleAt === null ? [] : list.filter((p) => p.ticket && (p.paidAt === undefined || p.paidAt > lastSaleAt) && !(p.cancelledAt < lastSaleAt) && ["waiting", "admitted"].includes(stateAt(p, lastSaleAt))));
  const soldOutSeen = (list) => {
    const waiting = waitingAt(list);
    const seen = waiting.filter((p) => p.soldOutAt !== undefined).map((p) => p.soldOutAt - lastSaleAt);
    // The pages that did not see it in time: what they saw around the last sale (to tell why).
    const late = waiting
      .filter((p) => p.soldOutAt === undefined || p.soldOutAt - lastSaleAt > ROOM.soldOutSeenMs)
      .slice(0, 3)
      .map((p) => ({ page: p.id, script: p.script, ordered: !!p.ordered, cancelled: !!p.cancelled, left: !!p.left, checkouts: p.checkouts.map((c) => `${c.status}${c.code ? ` ${c.code}` : ""}@${c.at - lastSaleAt}`), states: p.states.filter(([at]) => at >= lastSaleAt - 3_000).map(([at, st]) => `${st}@${at - lastSaleAt}`) }));
    return { pages: waiting.length, saw: seen.length, within: seen.filter((ms) => ms <= ROOM.soldOutSeenMs).length, late, ...spread(seen) };
  };
  // Database: units held (paid or pending) per normalised e-mail and per network.
  const holding = r.database.orders.filter((o) => o.status === "paid" || o.status === "pending_payment" || o.status === "shipped");
  const sum = (list) => list.reduce((a, o) => a + o.units, 0);
  const perKey = (key) => Object.values(holding.reduce((m, o) => ((m[o[key]] = (m[o[key]] ?? 0) + o.units), m), {}));
  const isScriptNetwork = (network) => String(network).startsWith("2001:db8:");
  const scriptUnits = sum(holding.filter((o) => isScriptNetwork(o.network)));
  const scriptNetworksWithUnits = countBy(holding.filter((o) => isScriptNetwork(o.network)), (o) => o.network);
  const soldPaid = sum(r.database.orders.filter((o) => o.status === "paid"));
  // Winners: pages whose order was paid; their arrival in the window, in tenths.
  const winners = paid.map((p) => r.pages[p.page]).map((page) => ({ script: page.script, arrival: page.joinedAt - r.opensAt }));
  const deciles = Array.from({ length: 10 }, (_, d) => winners.filter((w) => Math.min(9, Math.max(0, Math.floor((10 * w.arrival) / r.windowMs))) === d).length);
  const ticketed = r.pages.filter((p) => p.ticket);
  const ticketDeciles = Array.from({ length: 10 }, (_, d) => ticketed.filter((p) => Math.min(9, Math.max(0, Math.floor((10 * (p.joinedAt - r.opensAt)) / r.windowMs))) === d).length);
  const admitted = r.pages.filter((p) => p.admittedAt !== undefined);
  const all5xx = r.log.filter((e) => e.status !== null && e.status >= 500);
  const errors = r.log.filter((e) => e.status === null);
  const roomLog = r.log.filter((e) => (e.kind === "join" || e.kind === "status") && e.status !== null);
  const room = roomLog.map((e) => e.ms);
  // The burst: the joins fired in the line's first moments (every script page's first, and the honest ones sent with them).
  const burst = r.log.filter((e) => e.kind === "join" && e.at >= r.opensAt && e.at < r.opensAt + ROOM.burstMs);
  // A script's ticket: taken from its /64 (2001:db8:s:s::/64), or in the name of its mailbox (collectionneur<s>@gmail.com).
  const scriptOf = (t) => (isScriptNetwork(t.network) ? parseInt(t.network.split(":")[2], 16) - 1 : /^collectionneur(\d+)@gmail\.com$/.exec(t.identity ?? "")?.[1] ?? null);
  const scriptTickets = r.database.tickets.filter((t) => scriptOf(t) !== null);
  const honestPages = r.pages.filter((p) => p.script === null);
  const ticketRows = (list) => list.reduce((a, t) => a + t.n, 0);
  return {
    kind: r.kind,
    mode: r.mode,
    identity: r.identity ?? false,
    origin: r.origin,
    instances: r.instances,
    seeded: r.seeded,
    windowMs: r.windowMs,
    opensAt: new Date(r.opensAt).toISOString(),
    dropAt: new Date(r.dropAt).toISOString(),
    honest: honest.length,
    scriptPages: scriptPages.length,
    tickets: { honest: honest.filter((p) => p.ticket).length, scripts: scriptPages.filter((p) => p.ticket).length, deciles: ticketDeciles },
    requests: Object.fromEntries(["join", "status", "checkout", "cancel", "pay"].map((k) => [k, { count: byKind(k).length, latency: latency(k), statuses: statuses(k) }])),
    room: spread(room),
    identityFlow: r.identity
      ? {
          honestAsked: honestPages.filter((p) => p.askedAt !== undefined).length,
          honestConfirmed: honestPages.filter((p) => p.confirmed).length,
          askToConfirmed: spread(honestPages.filter((p) => p.confirmedAt !== undefined).map((p) => p.confirmedAt - p.askedAt)),
          scriptsConfirmed: r.scripts.filter((s) => s.confirmed).length,
          scriptCodes: r.scripts.reduce((m, s) => { for (const [k, v] of Object.entries(s.codesAsked ?? {})) m[k] = (m[k] ?? 0) + v; return m; }, {}),
          scriptConfirmations: r.scripts.reduce((a, s) => a + (s.confirmations ?? 0), 0),
          scriptsNotConfirmed: r.scripts.filter((s) => !s.confirmed).map((s) => ({ script: s.s, codesAsked: s.codesAsked, codesReceived: s.codesReceived, typed: s.typed })),
          ask: { latency: latency("ask-code"), statuses: statuses("ask-code") },
          confirm: { latency: latency("confirm"), statuses: statuses("confirm") },
          mails: r.mailsReceived,
        }
      : null,
    roomJoins: spread(roomLog.filter((e) => e.kind === "join").map((e) => e.ms)),
    roomPolls: spread(roomLog.filter((e) => e.kind === "status").map((e) => e.ms)),
    burst: { cost: r.burstCost, fired: burst.length, scripts: burst.filter((e) => e.who === "script").length, honest: burst.filter((e) => e.who === "honest").length, lastFiredMs: burst.length ? Math.max(...burst.map((e) => e.at - r.opensAt)) : null, statuses: countBy(burst, (e) => (e.status === null ? e.error : String(e.status))), ...spread(burst.filter((e) => e.status !== null).map((e) => e.ms)) },
    roomHonest: spread(r.log.filter((e) => (e.kind === "join" || e.kind === "status") && e.status !== null && e.who === "honest").map((e) => e.ms)),
    roomScripts: spread(r.log.filter((e) => (e.kind === "join" || e.kind === "status") && e.status !== null && e.who === "script").map((e) => e.ms)),
    s5xx: all5xx.length,
    s5xxKinds: countBy(all5xx, (e) => `${e.kind} ${e.status}`),
    errors: errors.length,
    errorKinds: countBy(errors, (e) => `${e.kind} ${e.error}`),
    admitted: {
      pages: admitted.length,
      honest: admitted.filter((p) => p.script === null).length,
      scripts: admitted.filter((p) => p.script !== null).length,
      // From joining to the page seeing its turn; and from the drop time (the wait of the first ones).
      joinToAdmitted: spread(admitted.map((p) => p.admittedAt - p.joinedAt)),
      dropToAdmitted: spread(admitted.map((p) => p.admittedAt - r.dropAt)),
    },
    payments: { ok: paid.length, refused: r.payments.length - paid.length, statuses: countBy(r.payments, (p) => String(p.status)) },
    cancelled: { honest: honest.filter((p) => p.cancelled).length },
    lastSaleMs: lastSaleAt === null ? null : lastSaleAt - r.dropAt,
    soldOut: { honest: soldOutSeen(honest), scripts: soldOutSeen(scriptPages) },
    database: {
      stock: r.database.stock,
      paidUnits: soldPaid,
      ordersByStatus: countBy(r.database.orders, (o) => o.status),
      maxPerEmailKey: Math.max(0, ...perKey("email_key")),
      overLimitEmailKeys: perKey("email_key").filter((n) => n > ROOM.limit).length,
      maxPerNetwork: Math.max(0, ...perKey("network")),
      overLimitNetworks: perKey("network").filter((n) => n > ROOM.limit).length,
      scriptUnits,
      scriptNetworksWithUnits,
      tickets: countBy(r.database.tickets.flatMap((t) => Array(t.n).fill(t)), (t) => t.status),
      ticketsByKind: { honest: ticketRows(r.database.tickets) - ticketRows(scriptTickets), scripts: ticketRows(scriptTickets) },
      scriptTicketsMaxPerNetwork: Math.max(0, ...Object.values(countBy(scriptTickets.flatMap((t) => Array(t.n).fill(t)), (t) => String(scriptOf(t))))),
    },
    // One identity per honest buyer and per script (one /64, one mailbox however spelled): the
    // scripts' share of the stock, rounded up, is the bound; the draw's 99th percentile for comparison.
    share: { customers: honest.length + ROOM.scripts, scripts: ROOM.scripts, expected: (ROOM.stock * ROOM.scripts) / (honest.length + ROOM.scripts), bound: Math.ceil((ROOM.stock * ROOM.scripts) / (honest.length + ROOM.scripts)), chance99: fairShareBound(honest.length + ROOM.scripts, ROOM.scripts, ROOM.stock) },
    winners: { count: winners.length, scripts: winners.filter((w) => w.script !== null).length, deciles, firstSecond: winners.filter((w) => w.arrival < 1000).length, arrivalsS: winners.map((w) => Math.round(w.arrival / 100) / 10).sort((a, b) => a - b) },
    cpu: { servers: r.cpu, wallMs: r.wallMs, bench: r.benchCpu, machine: r.machineCpu, cores: os.availableParallelism() },
    serverErrors: r.serverErrors.length,
    serverErrorSample: r.serverErrors.slice(0, 3),
  };
}

function printRun(r) {
  const q = r.requests;
  const lat = (s) => `p50 ${fmt(s.p50, 0)} ms, p99 ${fmt(s.p99, 0)} ms, max ${fmt(s.max, 0)} ms`;
  console.log(`  tickets: ${r.tickets.honest}/${r.honest} honest pages, ${r.tickets.scripts}/${r.scriptPages} script pages; joins ${JSON.stringify(q.join.statuses)}`);
  console.log(`  burst: ${r.burst.fired} joins fired in the room's first ${ROOM.burstMs} ms (${r.burst.scripts} by scripts, ${r.burst.honest} honest; the last ${fmt(r.burst.lastFiredMs, 0)} ms in), answered ${JSON.stringify(r.burst.statuses)}; p50/p95/p99 ${pcts(r.burst)} ms, max ${fmt(r.burst.max, 0)} ms`);
  const c = r.burst.cost;
  console.log(`  the burst's CPU, from the opening to its last answer (${fmt(c.wallMs, 0)} ms): servers ${c.servers.map((v) => `${fmt(v, 0)} ms`).join(" + ")}, bench ${fmt(c.bench, 0)} ms${c.postgres === null ? "" : `, PostgreSQL ${fmt(c.postgres, 0)} ms`}, the whole machine ${fmt(c.machine, 0)} ms (${r.cpu.cores} cores)`);
  console.log(`  waiting room p50/p95/p99: all ${pcts(r.room)} ms; joins ${pcts(r.roomJoins)} ms (${r.roomJoins.n}); polls ${pcts(r.roomPolls)} ms (${r.roomPolls.n})`);
  const f = r.identityFlow;
  if (f) {
    console.log(`  identities: ${f.honestConfirmed}/${r.honest} honest buyers confirmed their mailbox (asked ${f.honestAsked}; ask → confirmed p50 ${fmt(f.askToConfirmed.p50, 0)} ms, p99 ${fmt(f.askToConfirmed.p99, 0)} ms, max ${fmt(f.askToConfirmed.max, 0)} ms); ${f.scriptsConfirmed}/${ROOM.scripts} scripts (codes asked ${JSON.stringify(f.scriptCodes)}, ${f.scriptConfirmations} confirmed); ${f.mails} mails caught`);
    if (f.scriptsNotConfirmed.length) console.log(`    scripts without a confirmed mailbox: ${JSON.stringify(f.scriptsNotConfirmed)}`);
    console.log(`    ask-code ${JSON.stringify(f.ask.statuses)} p50 ${fmt(f.ask.latency.p50, 0)} ms p99 ${fmt(f.ask.latency.p99, 0)} ms; confirm ${JSON.stringify(f.confirm.statuses)} p50 ${fmt(f.confirm.latency.p50, 0)} ms p99 ${fmt(f.confirm.latency.p99, 0)} ms`);
  }
  console.log(`  tickets in the database: ${r.database.ticketsByKind.honest} honest, ${r.database.ticketsByKind.scripts} scripts' (at most ${r.database.scriptTicketsMaxPerNetwork} per script)`);
  console.log(`  waiting-room requests: ${r.room.n}, ${lat(r.room)} (joins ${lat(q.join.latency)}; status ${lat(q.status.latency)}; honest pages' ${lat(r.roomHonest)}, scripts' ${lat(r.roomScripts)})`);
  console.log(`  admitted: ${r.admitted.honest} honest, ${r.admitted.scripts} script pages; join → admitted ${lat(r.admitted.joinToAdmitted)}; drop → admitted ${lat(r.admitted.dropToAdmitted)}`);
  console.log(`  checkouts: ${q.checkout.count}, ${JSON.stringify(q.checkout.statuses)}, ${lat(q.checkout.latency)}; cancels ${q.cancel.count}; payments ${r.payments.ok} ok, ${r.payments.refused} not (${JSON.stringify(r.payments.statuses)})`);
  console.log(`  5xx ${r.s5xx} ${JSON.stringify(r.s5xxKinds)}, connection errors ${r.errors} ${JSON.stringify(r.errorKinds)}; servers logged ${r.serverErrors} error line(s)${r.serverErrors ? `: ${r.serverErrorSample.join(" | ").slice(0, 600)}` : ""}`);
  console.log(`  last sale ${fmt(r.lastSaleMs, 0)} ms after the drop; 'épuisé' seen by ${r.soldOut.honest.saw}/${r.soldOut.honest.pages} waiting pages, ${lat(r.soldOut.honest)} after it (scripts' pages ${r.soldOut.scripts.saw}/${r.soldOut.scripts.pages}, max ${fmt(r.soldOut.scripts.max, 0)} ms)`);
  if (r.soldOut.honest.late.length) console.log(`  pages that saw 'épuisé' late or never: ${JSON.stringify(r.soldOut.honest.late)}`);
  console.log(`  database: stock ${r.database.stock}, ${r.database.paidUnits} paid units, orders ${JSON.stringify(r.database.ordersByStatus)}; max per e-mail key ${r.database.maxPerEmailKey}, per network ${r.database.maxPerNetwork}; tickets ${JSON.stringify(r.database.tickets)}`);
  console.log(`  scripts: ${r.database.scriptUnits} units (${JSON.stringify(r.database.scriptNetworksWithUnits)}); fair share ${fmt(r.share.expected, 2)} units, bound ${r.share.bound}`);
  console.log(`  winners' arrival (s into the ${r.windowMs / 1000} s window): ${r.winners.arrivalsS.join(", ")}; by tenth of the window ${r.winners.deciles.join(" ")}; tickets by tenth ${r.tickets.deciles.join(" ")}`);
  console.log(`  CPU over the ${fmt(r.cpu.wallMs / 1000, 1)} s of the run: servers ${r.cpu.servers.map((c) => `${fmt(c / 1000, 1)} s`).join(" + ")}, bench ${fmt(r.cpu.bench / 1000, 1)} s, other work on the machine ${fmt(otherCpu(r.cpu) / 1000, 1)} s (PostgreSQL's processes included), of ${r.cpu.cores} cores × ${fmt(r.cpu.wallMs / 1000, 1)} s`);
}

// ── The scenario on one database: first come, then fair start ────────────────────────────
export async function benchDropRoom(kind, { port }) {
  const runs = [];
  for (const mode of ROOM.modes) {
    const result = await oneRun(kind, mode, { port });
    if (result.skipped) return { kind, skipped: result.skipped };
    runs.push(result);
  }
  return { kind, runs };
}

// ── Checks and report ────────────────────────────────────────────────────────────────────
export function roomChecks(results) {
  const lines = [];
  const check = (ok, text) => lines.push(`${ok ? "PASS" : "FAIL"}  ${text}`);
  for (const result of results) {
    if (result.skipped) {
      lines.push(`SKIPPED  ${label(result.kind)} drop room: ${result.skipped}`);
      continue;
    }
    for (const r of result.runs) {
      const db = `${label(r.kind)} room ${r.mode}`;
      const d = r.database;
      check(d.paidUnits === ROOM.stock && d.stock === 0 && !d.ordersByStatus.pending_payment, `${db}: exactly ${ROOM.stock} sold — ${d.paidUnits} paid units, stock ${d.stock}, ${d.ordersByStatus.pending_payment ?? 0} orders pending`);
      check(d.overLimitEmailKeys === 0, `${db}: nobody above the limit of ${ROOM.limit} by normalised e-mail — at most ${d.maxPerEmailKey} per e-mail key`);
      check(d.overLimitNetworks === 0, `${db}: nobody above the limit of ${ROOM.limit} by network (IPv4 address, IPv6 /64) — at most ${d.maxPerNetwork} per network`);
      const share = `their share of identities rounded up (${r.share.scripts} of ${r.share.customers} identities × ${ROOM.stock} units = ${fmt(r.share.expected, 2)}; an even draw gives them at most ${r.share.chance99} 99 times in 100)`;
      // Identities are drawn in a fair start only (issue 50, point 3); a first come ranks by
      // arrival, scripts first (decisions 035 and 041): its figure is reported, not checked.
      if (r.mode === "fair_start") check(d.scriptUnits <= r.share.bound, `${db}: scripts got ${d.scriptUnits} units ≤ ${r.share.bound}, ${share}`);
      else lines.push(`NOTE  ${db}: scripts got ${d.scriptUnits} units, first come ranking by arrival (against ${r.share.bound}, ${share})`);
      if (r.identity) check(d.ticketsByKind.scripts <= ROOM.scripts && d.scriptTicketsMaxPerNetwork <= 1, `${db}: scripts hold at most one ticket each — ${d.ticketsByKind.scripts} tickets for ${ROOM.scripts} scripts (at most ${d.scriptTicketsMaxPerNetwork} per script), honest buyers ${d.ticketsByKind.honest}`);
      check(r.s5xx === 0, `${db}: 0 5xx — ${r.s5xx}${r.s5xx ? ` (${codes(r.s5xxKinds)})` : ""}`);
      check(r.errors === 0, `${db}: every request answered within 30 s — ${r.errors} not${r.errors ? ` (${codes(r.errorKinds)})` : ""}`);
      check(r.room.p99 !== null && r.room.p99 < ROOM.roomP99Ms, `${db}: waiting-room (join + status) p99 ${fmt(r.room.p99, 0)} ms < ${ROOM.roomP99Ms} ms on ${r.instances === 1 ? "one server" : `${r.instances} instances`} — joins p50/p95/p99 ${pcts(r.roomJoins)} ms, polls ${pcts(r.roomPolls)} ms; the burst's ${r.burst.fired} joins in ${ROOM.burstMs} ms p99 ${fmt(r.burst.p99, 0)} ms`);
      const so = r.soldOut.honest;
      check(so.pages > 0 && so.within === so.pages, `${db}: 'épuisé' seen by every waiting page within ${ROOM.soldOutSeenMs / 1000} s of the last sale — ${so.within}/${so.pages}, max ${fmt(so.max, 0)} ms`);
      if (r.mode === "fair_start") {
        const w = r.winners;
        const spanS = w.arrivalsS.length ? w.arrivalsS.at(-1) - w.arrivalsS[0] : 0;
        check(w.count > 0 && w.firstSecond < w.count && spanS >= r.windowMs / 2000, `${db}: winners' arrivals spread over the window — ${w.firstSecond}/${w.count} in its first second, from ${w.arrivalsS[0] ?? "—"} s to ${w.arrivalsS.at(-1) ?? "—"} s of ${r.windowMs / 1000} s (by tenth: ${w.deciles.join(" ")})`);
      }
    }
  }
  return lines;
}

const ms = (n) => fmt(n, 0);
const pcts = (s) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}`;
const lat = (s) => `${ms(s.p50)} / ${ms(s.p99)} / ${ms(s.max)}`;
const codes = (statuses) =>
  Object.entries(statuses)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");

export function roomMarkdown(results, m, checkLines) {
  const out = [];
  out.push(`Run of ${m.date} on ${m.nproc} CPU cores (${m.model}), Node ${m.node}; load average at start ${m.load}.`);
  out.push(
    `${ROOM.honest} honest buyers and ${ROOM.scripts} scripts for ${ROOM.stock} units, limit ${ROOM.limit} per customer: the scripts' ${ROOM.scripts} × ${ROOM.joinsPerScript} pages (one IPv6 /64 each, a fresh address per request) and ${ROOM.honestInBurst} honest pages join within the room's first ${ROOM.burstMs} ms, the other ${ROOM.honest - ROOM.honestInBurst} honest pages (own IPv4 address and mailbox each) at times spread over the window; room window ${ROOM.windowMinutes} min; buyers, scripts and servers on the same machine.`,
  );
  if (BUSY) out.push("", `**The machine was already busy when this run started (load average ${m.load} on ${m.nproc} cores): latencies are higher and noisier than on an idle machine.**`);
  for (const result of results) {
    out.push("", `### ${label(result.kind)}`, "");
    if (result.skipped) {
      out.push(`SKIPPED: ${result.skipped}.`);
      continue;
    }
    const first = result.runs[0];
    out.push(`Database: ${first.origin}; ${first.instances === 1 ? "one server" : `${first.instances} server instances on it, pages split between them`}; ${first.seeded.total} products + the drop.`, "");
    out.push("| start mode | sold (paid units) | max per e-mail key / per network | scripts' units (bound) | tickets honest / scripts' | 5xx / errors | room p50 / p95 / p99 ms | joins p50 / p95 / p99 ms | polls p50 / p95 / p99 ms | the burst: joins in 100 ms, p50 / p95 / p99 ms | checkout p50 / p99 ms | 'épuisé' seen, pages within 5 s, max ms after the last sale | winners by tenth of the window |");
    out.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const r of result.runs) {
      const d = r.database;
      out.push(
        `| ${r.mode}${r.identity ? " (collectors confirm a mailbox)" : ""} | ${d.paidUnits} | ${d.maxPerEmailKey} / ${d.maxPerNetwork} | ${d.scriptUnits} (${r.share.bound}) | ${d.ticketsByKind.honest} / ${d.ticketsByKind.scripts} | ${r.s5xx} / ${r.errors} | ${pcts(r.room)} | ${pcts(r.roomJoins)} | ${pcts(r.roomPolls)} | ${r.burst.fired}: ${pcts(r.burst)} | ${ms(r.requests.checkout.latency.p50)} / ${ms(r.requests.checkout.latency.p99)} | ${r.soldOut.honest.within}/${r.soldOut.honest.pages}, ${ms(r.soldOut.honest.max)} | ${r.winners.deciles.join(" ")} |`,
      );
    }
    for (const r of result.runs) {
      const q = r.requests;
      out.push(
        "",
        `**${r.mode}** (room opened ${r.opensAt}, drop ${r.dropAt}):`,
        "",
        ...(r.identityFlow
          ? [
              `- **Collectors**: ${r.identityFlow.honestConfirmed}/${r.honest} honest buyers confirmed their mailbox before joining (from asking to the code typed: p50 ${ms(r.identityFlow.askToConfirmed.p50)} ms, p99 ${ms(r.identityFlow.askToConfirmed.p99)} ms; the mail worker looks every 5 s); ${r.identityFlow.scriptsConfirmed}/${ROOM.scripts} scripts confirmed their one mailbox (codes asked for their spellings: ${codes(r.identityFlow.scriptCodes)}; ${r.identityFlow.scriptConfirmations} codes typed right) and copied its cookie to their ${ROOM.joinsPerScript} jars; ${r.identityFlow.mails} e-mails caught. Asking p50 ${ms(r.identityFlow.ask.latency.p50)} ms, p99 ${ms(r.identityFlow.ask.latency.p99)} ms; typing the code p50 ${ms(r.identityFlow.confirm.latency.p50)} ms, p99 ${ms(r.identityFlow.confirm.latency.p99)} ms.`,
            ]
          : []),
        `- **Tickets** (database): ${r.database.ticketsByKind.honest} honest buyers', ${r.database.ticketsByKind.scripts} scripts' (at most ${r.database.scriptTicketsMaxPerNetwork} per script); pages holding one: ${r.tickets.honest}/${r.honest} honest, ${r.tickets.scripts}/${r.scriptPages} script pages; joins answered ${codes(q.join.statuses)}; tickets by tenth of the window: ${r.tickets.deciles.join(" ")}.`,
        `- **The burst**: ${r.burst.fired} joins sent in the room's first ${ROOM.burstMs} ms (${r.burst.scripts} by scripts, ${r.burst.honest} honest), answered ${codes(r.burst.statuses)}, p50 ${ms(r.burst.p50)} ms, p95 ${ms(r.burst.p95)} ms, p99 ${ms(r.burst.p99)} ms, max ${ms(r.burst.max)} ms; from the opening to its last answer (${ms(r.burst.cost.wallMs)} ms) the servers used ${r.burst.cost.servers.map((v) => `${ms(v)} ms`).join(" + ")} of CPU${r.burst.cost.postgres === null ? "" : `, PostgreSQL ${ms(r.burst.cost.postgres)} ms`}, the bench ${ms(r.burst.cost.bench)} ms, the whole machine ${ms(r.burst.cost.machine)} ms of its ${r.cpu.cores} × ${ms(r.burst.cost.wallMs)} ms.`,
        `- **Waiting room**: ${r.room.n} requests, p50 ${ms(r.room.p50)} ms, p95 ${ms(r.room.p95)} ms, p99 ${ms(r.room.p99)} ms, max ${ms(r.room.max)} ms (p50 / p95 / p99: joins ${pcts(r.roomJoins)} ms, polls ${pcts(r.roomPolls)} ms; p50 / p99 / max: the honest pages' requests ${lat(r.roomHonest)} ms, the scripts' ${lat(r.roomScripts)} ms). Admitted: ${r.admitted.honest} honest pages and ${r.admitted.scripts} script pages; from the drop time to the page seeing its turn ${lat(r.admitted.dropToAdmitted)} ms.`,
        `- **Checkouts**: ${q.checkout.count} (${codes(q.checkout.statuses)}), p50 ${ms(q.checkout.latency.p50)} ms, p99 ${ms(q.checkout.latency.p99)} ms; ${q.cancel.count} cancelled (${r.cancelled.honest} honest, the rest scripts); ${r.payments.ok} payments through the test page (${r.payments.refused} refused). Last sale ${ms(r.lastSaleMs)} ms after the drop.`,
        `- **Who got the units** (database): ${r.database.paidUnits} paid, stock ${r.database.stock}, orders ${codes(r.database.ordersByStatus)}; at most ${r.database.maxPerEmailKey} unit per normalised e-mail and ${r.database.maxPerNetwork} per network; scripts ${r.database.scriptUnits} (${Object.keys(r.database.scriptNetworksWithUnits).length} networks) against a fair share of ${fmt(r.share.expected, 2)}.`,
        `- **'Épuisé'**: ${r.soldOut.honest.saw}/${r.soldOut.honest.pages} pages waiting at the last sale saw it, p50 ${ms(r.soldOut.honest.p50)} ms, p99 ${ms(r.soldOut.honest.p99)} ms, max ${ms(r.soldOut.honest.max)} ms after it (scripts' pages ${r.soldOut.scripts.saw}/${r.soldOut.scripts.pages}).`,
        `- **Winners' arrivals** (s into the ${r.windowMs / 1000} s window): ${r.winners.arrivalsS.join(", ")}${r.winners.scripts ? ` (${r.winners.scripts} of them scripts, arrived in the first 0.1 s)` : ""}.`,
        `- **Errors**: ${r.s5xx} 5xx${r.s5xx ? ` (${codes(r.s5xxKinds)})` : ""}, ${r.errors} connection errors${r.errors ? ` (${codes(r.errorKinds)})` : ""}; ${r.serverErrors} error line(s) in the servers' output. CPU over the ${fmt(r.cpu.wallMs / 1000, 0)} s of the run (${r.cpu.cores} cores): servers ${r.cpu.servers.map((c) => `${fmt(c / 1000, 1)} s`).join(" + ")}, the bench ${fmt(r.cpu.bench / 1000, 1)} s, everything else on the machine ${fmt(otherCpu(r.cpu) / 1000, 1)} s${r.kind === "postgres" ? " (the PostgreSQL processes included)" : ""}.`,
      );
    }
  }
  out.push("", "Checks:", "", "```", ...checkLines, "```");
  return out.join("\n");
}
