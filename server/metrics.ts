import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { Db } from "~/db/types";
import { bearerTokenMatches } from "~/lib/bearer-token.server";

/**
 * Prometheus metrics (GET /metrics, only with METRICS_TOKEN, as a bearer token): requests by
 * route and status with their latency, the page cache's hits, checkouts by outcome, units held
 * by unpaid orders, the e-mail outbox's backlog and failures, live streams, and Node's own
 * (event-loop lag, heap, GC) from prom-client. One registry per app: tests run several.
 */
export type Metrics = ReturnType<typeof createMetrics>;

export type MetricsSources = {
  db: Db;
  liveStreams: () => number;
  pageCache: () => { hits: number; shared: number; renders: number } | null;
};

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: "comptoir_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.", labelNames: ["route", "method", "status"], registers: [registry] });
  const latency = new Histogram({ name: "comptoir_http_request_duration_seconds", help: "Time from the request to the end of the answer, by route pattern and method.", labelNames: ["route", "method"], buckets: LATENCY_BUCKETS, registers: [registry] });
  const checkouts = new Counter({ name: "comptoir_checkouts_total", help: "Checkouts by outcome: ok, or the refusal's code (OUT_OF_STOCK, DROP_LIMIT, RATE_LIMITED…).", labelNames: ["outcome"], registers: [registry] });
  new Counter({
    name: "comptoir_page_cache_total",
    help: "Shared pages: served from the cache (hit), shared with a render under way (shared), rendered (render).",
    labelNames: ["outcome"],
    registers: [registry],
    collect() {
      const counts = sources.pageCache();
      this.reset();
      if (!counts) return;
      for (const outcome of ["hits", "shared", "renders"] as const) this.inc({ outcome: outcome.replace(/s$/, "") }, counts[outcome]);
    },
  });
  new Gauge({
    name: "comptoir_live_streams",
    help: "Open live-update streams (/api/live) on this instance.",
    registers: [registry],
    collect() {
      this.set(sources.liveStreams());
    },
  });
  new Gauge({
    name: "comptoir_reservations_held",
    help: "Unpaid orders holding stock, and their units (every instance: read from the database).",
    labelNames: ["unit"],
    registers: [registry],
    async collect() {
      const result = (await sources.db.execute(
        sql`select count(distinct o.id)::int as orders, coalesce(sum(i.quantity), 0)::int as units from orders o join order_items i on i.order_id = o.id where o.status = 'pending_payment'`,
      )) as unknown as { rows: { orders: number; units: number }[] };
      this.set({ unit: "orders" }, result.rows[0]?.orders ?? 0);
      this.set({ unit: "units" }, result.rows[0]?.units ?? 0);
    },
  });
  new Gauge({
    name: "comptoir_outbox_emails",
    help: "E-mails in the outbox waiting to be sent (pending) or given up (failed) (read from the database).",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const result = (await sources.db.execute(
        sql`select count(*) filter (where status = 'pending')::int as pending, count(*) filter (where status = 'failed')::int as failed from outbox_emails`,
      )) as unknown as { rows: { pending: number; failed: number }[] };
      this.set({ status: "pending" }, result.rows[0]?.pending ?? 0);
      this.set({ status: "failed" }, result.rows[0]?.failed ?? 0);
    },
  });
  new Gauge({
    name: "comptoir_outbox_oldest_pending_seconds",
    help: "Age of the oldest e-mail still waiting to be sent (0 when none).",
    registers: [registry],
    async collect() {
      const result = (await sources.db.execute(
        sql`select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age from outbox_emails where status = 'pending'`,
      )) as unknown as { rows: { age: number }[] };
      this.set(Number(result.rows[0]?.age ?? 0));
    },
  });

  return {
    registry,
    /** Counts an answered request; `route` is its pattern ("/product/:slug"), never the raw path. */
    request(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method }, seconds);
    },
    checkout(outcome: string) {
      checkouts.inc({ outcome });
    },
  };
}

/** Methods counted under their own name; anything else is "other" (labels stay few). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Measures every request the listener answers, under its route's pattern: `label` names the
 * app's own routes, React Router's from the build's route table, anything else "unmatched".
 */
export function measureRequests(metrics: Metrics, label: (path: string) => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const url = req.url ?? "/";
      const end = url.indexOf("?");
      const method = METHODS.has(req.method ?? "") ? req.method! : "other";
      metrics.request(label(end < 0 ? url : url.slice(0, end)), method, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
  };
}

/** Paths the server answers itself, before React Router, by prefix. */
const OWN_ROUTES: [prefix: string, route: string][] = [
  ["/assets/", "/assets/*"],
  ["/uploads/", "/uploads/*"],
  ["/api/live", "/api/live"],
  ["/api/checkout/cancel", "/api/checkout/cancel"],
  ["/api/checkout", "/api/checkout"],
  ["/healthz", "/healthz"],
  ["/readyz", "/readyz"],
  ["/metrics", "/metrics"],
];

/**
 * A path's route pattern for metric labels: "/product/:slug" for every product page, so that a
 * label never holds a visitor's path (no unbounded series, nothing personal). React Router's
 * table comes from the build; without one (development), its pages are all "page".
 */
export function routeLabeler(build: ServerBuild | null): (path: string) => string {
  const tree = build ? routeTree(build.routes) : null;
  const known = new Map<string, string>();
  return (path) => {
    for (const [prefix, route] of OWN_ROUTES) if (path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`)) return route;
    if (!tree) return "page";
    let route = known.get(path);
    if (route === undefined) {
      const matches = matchRoutes(tree, path);
      route = matches ? patternOf(matches.map((match) => match.route.path)) : "unmatched";
      if (known.size >= 10_000) known.clear(); // paths are many (products); patterns are few
      known.set(path, route);
    }
    return route;
  };
}

function patternOf(paths: (string | undefined)[]): string {
  const pattern = paths.filter((path): path is string => Boolean(path)).join("/").replace(/\/+/g, "/");
  return `/${pattern.replace(/^\//, "")}`;
}

type BuildRoute = NonNullable<ServerBuild["routes"][string]>;

function routeTree(routes: ServerBuild["routes"]): RouteObject[] {
  const children = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(route);
    children.set(route.parentId, siblings);
  }
  const build = (parentId: string | undefined): RouteObject[] =>
    (children.get(parentId) ?? []).map((route) =>
      route.index ? { id: route.id, index: true, path: route.path } : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: build(route.id) },
    );
  return build(undefined);
}

/**
 * GET /metrics: off (404) without METRICS_TOKEN; with it, 401 unless the request carries
 * `Authorization: Bearer <token>` (compared in constant time).
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader("Cache-Control", "no-store");
    if (!token) {
      res.statusCode = 404;
      return res.end();
    }
    if (!bearerTokenMatches(req.headers.authorization, token)) {
      res.statusCode = 401;
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      return res.end("Jeton requis.");
    }
    res.setHeader("Content-Type", metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  };
}
