import "./private-umask";
import fs from "node:fs";
import { type Server, createServer } from "node:http";
import path from "node:path";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { openDatabase } from "~/db/client.server";
import { ConfigError, legalIdentity, parseEnv } from "~/lib/env.server";
import { shopContactEmail } from "~/services/shop-identity.server";
import { makePrivate } from "~/lib/private-files.server";
import { deriveSecret, resolveAuthSecret } from "~/lib/secrets.server";
import { ensureAdminAccount, ensureSampleImages, seedSampleCatalogue } from "~/services/seed.server";
import { seedSiteMessages } from "~/services/site-messages.server";
import { openChangeFeed } from "./catalog-changes";
import { startDropSweeper } from "~/services/drops.server";
import { nextBannerChange } from "~/services/site-content.server";
import { cleanUpUnusedImages } from "~/services/product-images.server";
import { createAuth } from "~/lib/auth.server";
import { localDiskStorage, localDiskStore } from "~/services/storage.server";
import { createPaymentProvider } from "~/services/payments/provider.server";
import { startReservationSweeper } from "~/services/reservation-sweeper.server";
import { startRetentionJob } from "~/services/retention.server";
import { startStoreCreditExpiryJob } from "~/services/store-credit-grants.server";
import { startAlertJob } from "~/services/stock-alerts.server";
import { startWaitingRooms } from "~/services/waiting-room.server";
import { StockGate } from "~/services/stock-gate.server";
import { invalidateSiteCaches } from "~/services/site-cache.server";
import { keepListingsInStep, listingsChanged } from "~/services/listing-cache.server";
import { keepReadsInStep, keptReadsHear } from "~/services/kept-reads.server";
import { DropRefusalTally } from "~/services/drop-refusal-tally.server";
import { createApp } from "./app";
import { installTestClock, withTestClockRoute } from "./test-clock";
import { recordBackup } from "~/services/backup-record.server";
import { serveControlChannel } from "./backup/control-channel";
import { trackConnections } from "./graceful-close";
import { readinessProbe } from "./health";
import { LiveHub } from "./live";
import { startMailer } from "./mailer";
import { createMetrics } from "./metrics";
import { PageCache } from "./page-cache";
import { startSiteContentTimer } from "./site-schedule";
import { z } from "zod";

// The schemas give their own French messages; where one does not (a value of an unexpected
// type, sent by a script), zod's French ones rather than its English. One zod for the process:
// both server bundles import it from node_modules.
z.config(z.locales.fr());

const development = process.env.NODE_ENV === "development";

let env;
try {
  env = parseEnv({ ...process.env, NODE_ENV: development ? "development" : process.env.NODE_ENV });
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// First, before anything reads the time: the end-to-end tests' clock (refused in production by parseEnv).
const testClock = env.TEST_CLOCK ? installTestClock() : null;

const logger = pino({ level: env.LOG_LEVEL, base: undefined });
const dataDir = path.resolve(env.DATA_DIR);
const uploadsDir = path.join(dataDir, "uploads");
fs.mkdirSync(uploadsDir, { recursive: true });
// Resolved now so a fresh DATA_DIR gets its secret on first start; better-auth reads it.
const authSecret = resolveAuthSecret(env.AUTH_SECRET, dataDir);

const database = await openDatabase(
  env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir },
).catch((error: Error) => {
  console.error(`Impossible d'ouvrir la base de données : ${error.message}`);
  process.exit(1);
});
logger.info({ database: database.kind }, "database ready, migrations applied");
// Once PGlite has opened (its initdb writes 0666 files, each open two 0644 ones), and for a
// folder an older version left open: DATA_DIR's folders 0700, its files 0600.
const privacy = makePrivate(dataDir);
if (privacy.fixed > 0) logger.info({ fixed: privacy.fixed, checked: privacy.checked }, "data directory made private");
if (privacy.failed.length > 0) logger.warn({ count: privacy.failed.length, files: privacy.failed.slice(0, 5) }, "data directory: files of another user left as they are");
// PGlite: `npm run backup` asks this process for the dump (it holds the data directory).
const control = database.dumpDataDir
  ? await serveControlChannel(
      dataDir,
      { dump: database.dumpDataDir, record: (record) => recordBackup(database.db, record) },
      (error) => logger.error({ err: error }, "backup: control request failed"),
    ).catch((error: Error) => {
      logger.warn({ err: error }, "backup control socket unavailable: npm run backup needs the server stopped");
      return null;
    })
  : null;

// parseEnv lets the four S3_* variables through only together.
const s3 = env.S3_ENDPOINT
  ? {
      endpoint: env.S3_ENDPOINT,
      bucket: env.S3_BUCKET!,
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      publicUrl: env.S3_PUBLIC_URL,
    }
  : null;
// The S3 SDK (about 0.3 s of CPU to load) only when a bucket is configured.
const bucket = s3 ? await import("~/services/storage-s3.server").then((m) => ({ storage: m.s3Storage(s3), privateFiles: m.s3PrivateStore(s3) })) : null;
const storage = bucket?.storage ?? localDiskStorage(uploadsDir);
// Buy-back photos: DATA_DIR/private (outside the served uploads), or "private/" in the bucket.
const privateFiles = bucket?.privateFiles ?? localDiskStore(path.join(dataDir, "private"));
logger.info({ storage: env.S3_ENDPOINT ? "s3" : "local disk", images: storage.publicBaseUrl }, "image storage ready");
await ensureSampleImages(storage);
if (env.SEED_SAMPLE_CATALOGUE) {
  const { inserted } = await seedSampleCatalogue(database.db);
  if (inserted > 0) logger.info({ inserted }, "sample catalogue seeded");
}
// Two inactive examples on the messages page, once (a marker row keeps them from coming back).
await seedSiteMessages(database.db);
const admin = await ensureAdminAccount(database.db, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });

let build: ServerBuild | (() => Promise<ServerBuild>);
const before = [];
if (development) {
  const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
  before.push(vite.middlewares);
  build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
} else {
  const buildPath = path.resolve("build/server/index.js");
  if (!fs.existsSync(buildPath)) {
    console.error("Aucun build trouvé (build/server/index.js) : lancez `npm start`, qui construit l'application.");
    process.exit(1);
  }
  build = (await import(buildPath)) as ServerBuild;
}

// One change event, in this order: purge the cached pages, then tell open pages to refresh
// (they then fetch fresh data), then re-plan the drop sweeper (a drop time may have moved) or
// the site content timer (a countdown's end or a promotion's expiry may have moved).
const pageCache = development ? undefined : new PageCache();
const live = new LiveHub(logger, { maxStreams: env.LIVE_MAX_STREAMS, lifetimeMs: env.LIVE_STREAM_LIFETIME_SECONDS * 1000 });
const sweeper = startDropSweeper(database.db, logger);
const refusalTally = new DropRefusalTally();
const waitingRooms = startWaitingRooms(database.db, logger, { refusals: refusalTally });
// At a countdown's end or a promotion's expiry the pages change with no write to announce it:
// purge and tell open pages then, as a change would.
const siteTimer = startSiteContentTimer({
  nextChange: (now) => nextBannerChange(database.db, now),
  onChange: () => {
    pageCache?.clear();
    live.broadcast({ op: "site" });
  },
  logger,
});
const changes = await openChangeFeed(database, logger);
// The saved contact e-mail (SHOP_EMAIL only seeds it), for every e-mail the shop writes.
const contact = shopContactEmail(database.db, legalIdentity(env));
await contact.refresh();
changes.subscribe((change) => {
  if (change.op === "site" || change.op === "resync") contact.refresh().catch((error) => logger.error({ err: error }, "shop contact e-mail not refreshed"));
});
const stockGate = new StockGate();
// Heard below: the listings' reads may be kept between changes (decision 030).
keepListingsInStep(database.db);
keepReadsInStep(database.db);
changes.subscribe((change) => {
  keptReadsHear(change);
  // An order's change shows on the admin's pages alone: no public page, cache or listing has it.
  if (change.op === "orders") return live.broadcast(change);
  // First: the pages rendered after the purge below must read the new site content and
  // listings (another instance, or psql, may have written them).
  if (change.op === "site" || change.op === "resync") invalidateSiteCaches();
  listingsChanged(change);
  if (change.op === "resync") stockGate.changed();
  else if (change.op !== "site") stockGate.changed(change.id);
  pageCache?.clear();
  live.broadcast(change);
  if (change.op !== "site") sweeper.replan();
  if (change.op === "site" || change.op === "resync") siteTimer.replan();
});

// Image files no product uses any more (a product deleted, an image replaced, an upload never
// saved): swept at start and every 6 hours; an upload gets a day's grace before its form is saved.
const IMAGE_SWEEP_MS = 6 * 60 * 60 * 1000;
const sweepImages = () =>
  cleanUpUnusedImages(database.db, storage, { now: new Date() })
    .then(({ deleted }) => deleted.length > 0 && logger.info({ count: deleted.length }, "unused product images removed"))
    .catch((error: unknown) => logger.warn({ err: error }, "unused product images: clean-up failed, will retry"));
void sweepImages();
const imageSweeper = setInterval(sweepImages, IMAGE_SWEEP_MS);
imageSweeper.unref();
// Known once the server listens (PORT=0 in tests picks a free port).
let listeningUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
const publicUrl = () => listeningUrl;
const mailer = await startMailer({ db: database.db, env, logger, publicUrl, shopEmail: () => contact.email });
// Signs a drop's admissions and its alert links: derived from the shop's secret, the same on every instance.
const dropSecret = deriveSecret(authSecret, "drops");
const alerts = startAlertJob({
  db: database.db,
  get shop() {
    return { name: env.SHOP_NAME, email: contact.email, publicUrl: publicUrl() };
  },
  secret: dropSecret,
  logger,
  kickMail: mailer.kick,
});
// Personal data past its retention period (docs/privacy.md): a minute after start, then every 6
// hours; its inactivity warnings link to the shop's sign-in page.
const retention = startRetentionJob({
  db: database.db,
  privateFiles,
  get shop() {
    return { name: env.SHOP_NAME, email: contact.email, publicUrl: publicUrl() };
  },
  logger,
});
// What is left of expired store credits is debited (decision 055): a minute after start, then every 6 hours.
const storeCreditExpiry = startStoreCreditExpiryJob({ db: database.db, logger });
// A product that opens, comes back or changes its price: its alerts (« Prévenez-moi » and the
// wish lists') go at once (the drop's release, a restock, a new price all come through the feed,
// from any instance).
changes.subscribe((change) => {
  if (change.op !== "site" && change.op !== "orders") alerts.kick();
});
const payments = await createPaymentProvider(env, database.db, dataDir);
const reservations = startReservationSweeper({
  db: database.db,
  provider: payments,
  postgres: database.kind === "postgres",
  deps: {
    // Read when used: the address is known once the server listens.
    get shop() {
      return { name: env.SHOP_NAME, email: contact.email, publicUrl: publicUrl() };
    },
    sellerEmail: env.SELLER_EMAIL ?? env.SHOP_EMAIL,
  },
  logger,
});
const auth = createAuth({
  db: database.db,
  secret: authSecret,
  baseUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  mail: mailer.authMail,
});

const readiness = readinessProbe({ database, stores: [storage, privateFiles], logger });
const metrics = createMetrics({ db: database.db, liveStreams: () => live.size, pageCache: () => pageCache?.counts ?? null });
const app = createApp({
  env,
  database,
  storage,
  privateFiles,
  uploadsDir,
  logger,
  build,
  before,
  development,
  pageCache,
  live,
  auth,
  publicUrl,
  shopEmail: () => contact.email,
  kickMail: mailer.kick,
  sendMailNow: mailer.sendNow,
  payments,
  stockGate,
  refusalTally,
  dropSecret,
  readiness,
  metrics,
});
// After the test clock moved: the drops due are released; what the site content timer would have
// done at an end passed over (purge, tell the open pages) is done, and the next end planned;
// the store credits whose end was passed over expire; open pages get the new time for their countdowns.
const onClockMoved = () => {
  sweeper.sweepNow();
  storeCreditExpiry.kick();
  pageCache?.clear();
  live.broadcast({ op: "site" });
  siteTimer.replan();
  live.sendClock();
};
const listener = testClock && env.TEST_CLOCK ? withTestClockRoute(app, env.TEST_CLOCK, testClock, onClockMoved) : app;
if (testClock) logger.warn("TEST_CLOCK: POST /__test/clock moves this server's clock (end-to-end tests only)");
const server: Server = createServer(listener).listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  listeningUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
  const url = listeningUrl;
  const lines = [
    "",
    `  ${env.SHOP_NAME} est en ligne : ${url}`,
    `  Base de données : ${database.kind === "pglite" ? `PGlite (${path.join(dataDir, "pglite")})` : "PostgreSQL"}`,
    `  Paiement : ${payments.name === "stripe" ? "Stripe" : "page de paiement de test intégrée (cartes 4242 4242 4242 4242 / 4000 0000 0000 0002)"}`,
  ];
  if (admin.created) {
    lines.push(`  Compte administrateur : ${admin.email}`);
    lines.push(
      admin.generatedPassword
        ? `  Mot de passe (affiché une seule fois) : ${admin.generatedPassword}`
        : "  Mot de passe : celui de ADMIN_PASSWORD",
    );
  } else if (admin.conflictEmail) {
    lines.push(`  Attention : ${admin.conflictEmail} est un compte client ; aucun administrateur créé (voir npm run admin:create).`);
  }
  console.log(lines.join("\n") + "\n");
});
// A client or a proxy sends its next request on a connection it keeps open; if the server
// closed that connection at the same moment (Node's default: after 5 s idle), the request fails
// with a reset. Longer than the idle timeout of common load balancers (60 s), as they advise.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

const connections = trackConnections(server);
let closing = false;
const { SHUTDOWN_DRAIN_SECONDS: drainSeconds, SHUTDOWN_TIMEOUT_SECONDS: shutdownSeconds } = env;
/**
 * SIGTERM: /readyz turns 503 and every answer closes its connection, so that clients and the
 * load balancer take their next requests elsewhere; open pages are told to reconnect (to
 * another instance). After the drain (SHUTDOWN_DRAIN_SECONDS), no new connection is accepted and
 * the connections left idle are closed; the requests in flight finish (their orders,
 * reservations and e-mails are written by then), then the jobs stop and the database closes.
 * Past SHUTDOWN_TIMEOUT_SECONDS after the drain, the process exits anyway.
 */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal, drainSeconds }, "shutting down");
  readiness.drain();
  live.close();
  siteTimer.stop();
  clearInterval(imageSweeper);
  await new Promise((resolve) => setTimeout(resolve, drainSeconds * 1000));
  const force = setTimeout(() => {
    logger.warn({ seconds: shutdownSeconds }, "forcing shutdown: requests still in flight");
    process.exit(1);
  }, shutdownSeconds * 1000);
  force.unref();
  connections.close(async () => {
    await sweeper.stop();
    await waitingRooms.stop();
    await reservations.stop();
    await retention.stop();
    await storeCreditExpiry.stop();
    await alerts.stop();
    await mailer.stop();
    await changes.close().catch(() => {});
    await control?.close();
    await database.close().catch((error) => logger.error({ err: error }, "database close failed"));
    process.exit(0);
  });
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
