import type { RequestListener } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Request, type Response } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import type { Database } from "~/db/client.server";
import { redirectFor } from "~/domain/redirects";
import type { AppContext, SendMailNow } from "~/lib/context";
import type { Auth } from "~/lib/auth.server";
import type { Env } from "~/lib/env.server";
import { shopIdentity } from "~/lib/env.server";
import type { PaymentProvider } from "~/services/payments/types";
import type { DropRefusalTally } from "~/services/drop-refusal-tally.server";
import type { StockGate } from "~/services/stock-gate.server";
import type { FileStore, Storage } from "~/services/storage.server";
import type { ReadinessProbe } from "./health";
import type { LiveHub } from "./live";
import { type Metrics, measureRequests, metricsEndpoint, routeLabeler } from "./metrics";
import type { TrustProxy } from "./bare-http";
import { checkoutRoutes } from "./checkout-endpoint";
import { dropQueueRoutes } from "./drop-queue-endpoint";
import { precompressedFiles } from "./precompressed";
import { assignRequestId, requestIdOf } from "./request-id";
import { closeAfterUnreadBody, frenchErrors, onlyShopMethods, readableAddress, sameSitePosts } from "./request-guards";
import { type PageCache, pageCacheMiddleware, privateWhenPersonal, servePageFromCache } from "./page-cache";

export type AppDeps = {
  env: Env;
  database: Database;
  storage: Storage;
  /** Customers' private files, outside uploadsDir (never served as static files). */
  privateFiles: FileStore;
  uploadsDir: string;
  logger: Logger;
  /** The React Router build, or a loader of it (development: Vite's latest). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Extra middleware placed before React Router (Vite's in development). */
  before?: express.RequestHandler[];
  development?: boolean;
  /** Shared page cache, purged on catalogue changes (none in development). */
  pageCache?: PageCache;
  /** Server-Sent Events of catalogue changes. */
  live?: LiveHub;
  auth: Auth;
  /** The contact e-mail saved at /admin/settings (SHOP_EMAIL only seeds it). */
  shopEmail: () => string;
  /** The shop's public address (PUBLIC_URL, or this server's once it listens). */
  publicUrl: () => string;
  /** Wakes the mail worker after an e-mail is queued (no-op without SMTP). */
  kickMail?: () => void;
  /** Sends an e-mail at once over SMTP (the e-mail test); absent without SMTP. */
  sendMailNow?: SendMailNow | null;
  payments: PaymentProvider;
  /** This process's knowledge of sold-out products, kept in step with the change feed. */
  stockGate: StockGate;
  /** This process's count of a drop's checkouts refused before any database work (flushed by the waiting rooms' round). */
  refusalTally?: DropRefusalTally;
  /** Signs a drop's admissions (derived from the shop's secret: the same on every instance). */
  dropSecret: string;
  /** /readyz, and whether the instance is stopping (answers then close their connection). */
  readiness: ReadinessProbe;
  /** Prometheus metrics; GET /metrics answers only with METRICS_TOKEN. */
  metrics: Metrics;
};

const CLIENT_DIR = path.resolve("build/client");

/** Server-sent event streams must flush each event as written: never compress them. */
export function shouldCompress(req: Request, res: Response): boolean {
  const type = String(res.getHeader("Content-Type") ?? "");
  if (type.startsWith("text/event-stream")) return false;
  return compression.filter(req, res);
}

/**
 * The shop's HTTP request listener: the checkout endpoints and the page cache's hits first, on
 * the bare server (a drop's rush and its open pages' refetches), then the Express app.
 */
export function createApp(deps: AppDeps): RequestListener {
  const { env, database, logger } = deps;
  const app = express();
  app.disable("x-powered-by");
  if (env.TRUST_PROXY !== false) app.set("trust proxy", env.TRUST_PROXY);

  const shop = shopIdentity(env);
  const checkout = {
    orderPrefix: env.ORDER_PREFIX,
    reservationMinutes: env.CHECKOUT_RESERVATION_MINUTES,
    sellerEmail: env.SELLER_EMAIL ?? env.SHOP_EMAIL,
  };
  const configuredOrigin = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : null;
  // Ahead of Express: a drop's checkouts and waiting room skip it and the page machinery (server/bare-http.ts).
  const trustProxy = app.get("trust proxy fn") as TrustProxy;
  const dropQueueRoute = dropQueueRoutes({
    db: database.db,
    publicUrl: deps.publicUrl,
    configuredOrigin,
    trustProxy,
    dropSecret: deps.dropSecret,
    auth: deps.auth,
    shop: () => ({ name: shop.name, email: deps.shopEmail(), publicUrl: deps.publicUrl() }),
    logger,
  });
  const checkoutRoute = checkoutRoutes({
    database,
    payments: deps.payments,
    stockGate: deps.stockGate,
    refusalTally: deps.refusalTally,
    auth: deps.auth,
    configuredOrigin,
    ...checkout,
    // The CGV's version on each order, rendered from what /legal's loader has.
    cgv: () => ({ shopName: shop.name, siteUrl: deps.publicUrl(), legalDefaults: shop.legal }),
    paidDeps: () => ({ shop: { name: shop.name, email: deps.shopEmail(), publicUrl: deps.publicUrl() }, legal: shop.legal, sellerEmail: checkout.sellerEmail }),
    dropSecret: deps.dropSecret,
    trustProxy,
    logger,
    onOutcome: (outcome) => deps.metrics.checkout(outcome),
  });

  const cache = pageCacheMiddleware(deps.pageCache);
  app.use(cache.nonce);
  app.use(privateWhenPersonal);
  app.use(
    helmet({
      contentSecurityPolicy: deps.development
        ? false // Vite injects inline scripts and a websocket in development.
        : {
            useDefaults: true,
            directives: {
              "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.nonce}'`],
              "style-src": ["'self'", "'unsafe-inline'"],
              // Images stored on S3 come from S3_PUBLIC_URL, else from the bucket on the endpoint.
              "img-src": ["'self'", "data:", "blob:", ...[env.S3_PUBLIC_URL ?? env.S3_ENDPOINT].filter((url) => url !== undefined).map((url) => new URL(url).origin)],
              "connect-src": ["'self'"],
              "form-action": ["'self'", "https://checkout.stripe.com"],
              "frame-ancestors": ["'none'"],
              "upgrade-insecure-requests": env.PUBLIC_URL?.startsWith("https:") ? [] : null,
            },
          },
      // Not helmet's "no-referrer": with it, browsers send `Origin: null` with a form post, which
      // React Router refuses as cross-site; forms without JavaScript then fail. Other sites still get nothing.
      referrerPolicy: { policy: "same-origin" },
      strictTransportSecurity: env.PUBLIC_URL?.startsWith("https:") ? undefined : false,
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(readableAddress, onlyShopMethods, sameSitePosts);
  app.use(compression({ filter: shouldCompress }));
  if (deps.live) app.get("/api/live", deps.live.handler);

  // Liveness: the process answers. Readiness (database, migrations, storage, not stopping): /readyz.
  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok", database: database.kind });
  });
  app.get("/readyz", async (_req, res) => {
    const readiness = await deps.readiness.check();
    res
      .status(readiness.status === "ready" ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json(readiness);
  });

  app.use((req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const search = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?")) : "";
    const target = redirectFor(req.path, search);
    if (target) return res.redirect(target.status, target.location);
    next();
  });

  app.use("/uploads", express.static(deps.uploadsDir, { maxAge: "7d", fallthrough: false, index: false }));
  for (const middleware of deps.before ?? []) app.use(middleware);
  if (!deps.development) {
    // Fingerprinted by Vite: safe to cache for a year.
    const assets = { dir: path.join(CLIENT_DIR, "assets"), immutable: true, maxAge: "1y" };
    app.use("/assets", precompressedFiles(assets.dir, assets), express.static(assets.dir, { ...assets, index: false }));
    app.use(express.static(CLIENT_DIR, { maxAge: "1h", index: false }));
  }

  app.use(cache.capture);
  app.all(
    "/{*splat}",
    createRequestHandler({
      build: deps.build,
      mode: deps.development ? "development" : "production",
      getLoadContext: (req, res): AppContext => ({
        db: database.db,
        shop: { ...shop, email: deps.shopEmail() },
        storage: deps.storage,
        privateFiles: deps.privateFiles,
        publicUrl: deps.publicUrl(),
        nonce: res.locals.nonce as string,
        logger: logger.child({ requestId: requestIdOf(req) }),
        auth: deps.auth,
        // Express applies TRUST_PROXY: X-Forwarded-For counts only behind a configured proxy.
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        kickMail: deps.kickMail ?? (() => {}),
        sendMailNow: deps.sendMailNow ?? null,
        payments: deps.payments,
        checkout,
        dropSecret: deps.dropSecret,
        eReportingToken: env.E_REPORTING_TOKEN ?? null,
        markPersonal: () => {
          res.locals.personal = true;
        },
        requestScope: res,
      }),
    }),
  );
  app.use(frenchErrors(logger));
  const cachedPage = servePageFromCache(deps.pageCache);
  const measure = measureRequests(deps.metrics, routeLabeler(typeof deps.build === "function" ? null : deps.build));
  const metricsRoute = metricsEndpoint(deps.metrics, env.METRICS_TOKEN);
  return (req, res) => {
    assignRequestId(req, res);
    measure(req, res);
    // Stopping: each answer closes its connection, so that clients and proxies open the next one
    // on another instance instead of reusing this one.
    if (deps.readiness.draining) res.setHeader("Connection", "close");
    closeAfterUnreadBody(req, res);
    if (req.method === "GET" && (req.url === "/metrics" || req.url?.startsWith("/metrics?"))) return void metricsRoute(req, res);
    if (checkoutRoute(req, res) || dropQueueRoute(req, res) || cachedPage(req, res)) return;
    app(req, res);
  };
}
