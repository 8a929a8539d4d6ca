// What one waiting-room request costs, in CPU (issue 50, point 5): one built server on a
// throwaway PostgreSQL cluster, a drop whose room is open, and each kind of request sent a few
// hundred times, a few at a time; the server's and PostgreSQL's backends' CPU (/proc) per
// request. Not part of `npm run bench`: a measure to see where a burst's time goes.
//
//   node scripts/bench-join-cost.mjs                         first come (no identity)
//   JOIN_COST_MODE=fair_start node scripts/bench-join-cost.mjs   fair start (collectors confirm a mailbox; codes read from the outbox)
import http from "node:http";
import pg from "pg";
import { cpuMs, seed, startServer, withScenarioDatabase } from "./bench.mjs";
import { dropDb } from "./bench-drop.mjs";

const mode = process.env.JOIN_COST_MODE ?? "first_come";
const port = Number(process.env.BENCH_PORT ?? 24399);

const outcome = await withScenarioDatabase("postgres", "comptoir-join-cost", { TRUST_PROXY: "loopback" }, async ({ env, postgres }) => {
  seed(env, { products: 50 });
  const rules = { perCustomerLimit: 1, startMode: mode, fairWindowMinutes: 60 };
  const known = dropDb("seed", { ...env, DROP_AT: new Date(Date.now() + 3_600_000).toISOString(), DROP_STOCK: "10", DROP_RULES: JSON.stringify(rules) });
  const server = await startServer(env, port);
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    // The room opens now (the drop in 59 minutes, its window 60).
    await admin.query("update products set drop_time = now() + interval '59 minutes' where id = $1", [known.drop.id]);
    const backends = (await admin.query("select pid from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()")).rows.map((r) => r.pid);
    const postgresCpu = () => backends.reduce((sum, pid) => sum + (cpuMs(pid) || 0), 0);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const send = (method, path, ip, { cookie = "", json } = {}) =>
      new Promise((resolve) => {
        const body = json === undefined ? "" : JSON.stringify(json);
        const headers = { "x-forwarded-for": ip, origin: server.base, "content-length": Buffer.byteLength(body), ...(cookie ? { cookie } : {}), ...(json === undefined ? {} : { "content-type": "application/json" }) };
        const req = http.request(`${server.base}${path}`, { method, agent, headers }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode, cookie: (res.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ") }));
        });
        req.end(method === "GET" ? undefined : body);
      });
    const room = `/api/drops/${known.drop.id}/file`;
    const join = (ip, cookie) => send("POST", room, ip, { cookie });

    /** `n` requests made by `make(i)`, `concurrency` at a time: CPU per request. */
    async function measure(name, n, make, concurrency) {
      const server0 = cpuMs(server.pid);
      const postgres0 = postgresCpu();
      const started = Date.now();
      const statuses = {};
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < n) {
            const { status } = await make(next++);
            statuses[status] = (statuses[status] ?? 0) + 1;
          }
        }),
      );
      const us = (ms) => Math.round((ms / n) * 1000);
      console.log(`${name}: ${n} requests ${JSON.stringify(statuses)}; per request: server ${us(cpuMs(server.pid) - server0)} µs, PostgreSQL ${us(postgresCpu() - postgres0)} µs of CPU, ${((Date.now() - started) / n).toFixed(2)} ms of wall time`);
    }
    const hex = () => Math.floor(Math.random() * 0xffff).toString(16);

    console.log(`${mode}, one server on PostgreSQL (pid ${server.pid}), ${backends.length} pooled connections`);
    await measure("warm-up: looks at the room without a ticket", 500, () => send("GET", room, "10.0.0.1"), 10);
    if (mode === "fair_start") {
      const collectors = [];
      for (let i = 0; i < 400; i++) {
        const email = `collector${i}@example.org`;
        const ip = `10.5.${i >> 8}.${i & 255}`;
        await send("POST", `/api/drops/${known.drop.id}/identite`, ip, { json: { email } });
        const { rows } = await admin.query(`select text from outbox_emails where "to" = $1 and kind = 'drop-code' order by created_at desc limit 1`, [email]);
        const code = /Votre code : (\d{6})/.exec(rows[0]?.text ?? "")?.[1];
        const typed = await send("POST", `/api/drops/${known.drop.id}/identite/code`, ip, { json: { email, code } });
        collectors.push({ ip, cookie: typed.cookie });
      }
      await measure("join: a new collector, a ticket", 300, (i) => join(collectors[i].ip, collectors[i].cookie), 10);
      await measure("join: 20 jars of one collector from one /64 at once (50 collectors)", 1000, (i) => join(`2001:db8:9:${(300 + Math.floor(i / 20)).toString(16)}:${hex()}:${hex()}::1`, collectors[300 + Math.floor(i / 20)].cookie), 20);
      await measure("join: a collector who has a ticket, from another browser", 300, (i) => join(collectors[i].ip, collectors[i].cookie), 1);
    } else {
      await measure("join: a new network, a ticket", 300, (i) => join(`10.1.${i >> 8}.${i & 255}`), 10);
      await measure("join: an IPv6 /64 at its bound (refused from memory)", 2000, () => join(`2001:db8:1:1:${hex()}:${hex()}:${hex()}:${hex()}`), 20);
      await measure("join: an IPv4 address at its bound (refused from memory)", 2000, () => join("10.9.9.9"), 20);
      const ticket = await join("10.2.0.1");
      await measure("poll with a ticket", 2000, () => send("GET", room, "10.2.0.1", { cookie: ticket.cookie }), 20);
    }
    agent.destroy();
  } finally {
    await admin.end();
    await server.stop();
  }
});
if (outcome?.skipped) console.log(`SKIPPED: ${outcome.skipped}`);
process.exit(0);
