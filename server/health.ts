import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { type Database, migrationsApplied } from "~/db/client.server";
import type { FileStore } from "~/services/storage.server";

type Check = "ok" | "error";
export type Readiness = {
  status: "ready" | "not_ready" | "draining";
  checks: { database: Check; migrations: Check | "pending"; storage: Check };
};

/** A storage probe writes and removes an object: on S3 that is two paid requests, so at most this often. */
const STORAGE_CHECK_MS = 30_000;

/**
 * /readyz for load balancers: the database answers, it has every migration this build ships,
 * and the image and private-file stores take a write. Draining (SIGTERM received) answers 503
 * at once, so a balancer that polls stops sending new requests while those in flight finish.
 * /healthz says only that the process answers: a database outage must not get every instance
 * restarted.
 */
export function readinessProbe(deps: { database: Database; stores: FileStore[]; logger: Logger; now?: () => number }) {
  const now = deps.now ?? Date.now;
  let draining = false;
  let storage: { at: number; result: Promise<Check> } | null = null;

  async function probeStores(): Promise<Check> {
    const key = `.probe/readyz-${randomUUID()}`;
    try {
      for (const store of deps.stores) {
        await store.put(key, Buffer.from("ok"), "text/plain");
        await store.delete(key);
      }
      return "ok";
    } catch (error) {
      deps.logger.error({ err: error }, "readyz: storage not writable");
      return "error";
    }
  }

  function storageCheck(): Promise<Check> {
    if (!storage || now() - storage.at >= STORAGE_CHECK_MS) storage = { at: now(), result: probeStores() };
    return storage.result;
  }

  async function databaseChecks(): Promise<Pick<Readiness["checks"], "database" | "migrations">> {
    try {
      await deps.database.ping();
    } catch (error) {
      deps.logger.error({ err: error }, "readyz: database unreachable");
      return { database: "error", migrations: "error" };
    }
    try {
      return { database: "ok", migrations: (await migrationsApplied(deps.database.db)) ? "ok" : "pending" };
    } catch (error) {
      deps.logger.error({ err: error }, "readyz: migrations unreadable");
      return { database: "ok", migrations: "error" };
    }
  }

  return {
    /** From now on /readyz answers 503 "draining". */
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async check(): Promise<Readiness> {
      const [database, storageState] = await Promise.all([databaseChecks(), storageCheck()]);
      const checks = { ...database, storage: storageState };
      const healthy = checks.database === "ok" && checks.migrations === "ok" && checks.storage === "ok";
      return { status: draining ? "draining" : healthy ? "ready" : "not_ready", checks };
    },
  };
}

export type ReadinessProbe = ReturnType<typeof readinessProbe>;
