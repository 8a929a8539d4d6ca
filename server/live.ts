import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { CatalogChange } from "~/domain/catalog-change";

const HEARTBEAT_MS = 25_000;
/**
 * Changes are sent at most this often, the ones in between in one write per page: during a
 * drop the stock changes several times a second, and each event is a write on every open
 * stream (500 pages, 10 sales: 5,000 writes, as much CPU as the checkouts themselves). The
 * pages coalesce over 150 ms before refetching anyway (app/lib/use-live-updates.ts).
 */
export const LIVE_BATCH_MS = 100;

/**
 * Streams one client address may hold open: a household's tabs and devices, or buyers behind
 * one carrier's NAT, stay well under it; a script opening streams in a loop (each one a socket
 * and a write per change) gets a 429 instead. The page retries later (use-live-updates.ts).
 */
const LIVE_STREAMS_PER_CLIENT = 64;

/** Open pages listening for catalogue changes over Server-Sent Events (GET /api/live). */
export class LiveHub {
  private readonly clients = new Set<Response>();
  private readonly openPerClient = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Frames waiting for the next write, each once (a page refetches once per batch anyway). */
  private readonly pending = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlushAt = -Infinity;
  /** When this process last heard of a change (its page cache purged then), or null. */
  private changedAt: number | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly options: { batchMs?: number; now?: () => number; maxPerClient?: number } = {},
  ) {}

  handler = (req: Request, res: Response) => {
    // Express applies TRUST_PROXY: behind a configured proxy, the visitor's address.
    const client = req.ip ?? req.socket?.remoteAddress ?? "unknown";
    const open = this.openPerClient.get(client) ?? 0;
    if (open >= (this.options.maxPerClient ?? LIVE_STREAMS_PER_CLIENT)) {
      res.writeHead(429, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" });
      res.end("Trop de connexions en direct depuis cette adresse.");
      return;
    }
    this.openPerClient.set(client, open + 1);
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no", // nginx: do not buffer the stream
    });
    // The browser reconnects by itself after 2 s when the stream drops. The server's clock
    // comes first: countdowns tick from it, whatever the visitor's own clock says. With it, the
    // last change's time: a page rendered before it, whose stream opens only now, missed that
    // change's event and reloads its data (app/lib/use-live-updates.ts).
    const hello = { now: (this.options.now ?? Date.now)(), changedAt: this.changedAt };
    res.write(`retry: 2000\n\nevent: clock\ndata: ${JSON.stringify(hello)}\n\n`);
    this.clients.add(res);
    this.ensureHeartbeat();
    req.on("close", () => {
      this.clients.delete(res);
      const left = (this.openPerClient.get(client) ?? 1) - 1;
      if (left > 0) this.openPerClient.set(client, left);
      else this.openPerClient.delete(client);
      if (this.clients.size === 0) this.stopHeartbeat();
    });
  };

  /** Sends a change to every open page: at once after a quiet spell, else with the next batch. */
  broadcast(change: CatalogChange): void {
    const now = (this.options.now ?? Date.now)();
    this.changedAt = now;
    this.pending.add(`event: catalog\ndata: ${JSON.stringify(change)}\n\n`);
    if (this.flushTimer) return;
    const wait = Math.max(0, this.lastFlushAt + (this.options.batchMs ?? LIVE_BATCH_MS) - now);
    // Even "at once" waits for the end of this turn: changes announced together leave together.
    this.flushTimer = setTimeout(() => this.flush(), wait);
  }

  private flush() {
    this.flushTimer = undefined;
    this.lastFlushAt = (this.options.now ?? Date.now)();
    const frames = [...this.pending].join("");
    this.pending.clear();
    for (const client of this.clients) client.write(frames);
  }

  /** Ends every stream (shutdown: open streams would keep the server from closing). */
  close(): void {
    this.stopHeartbeat();
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending.clear();
    for (const client of this.clients) client.end();
    this.clients.clear();
    this.openPerClient.clear();
  }

  private ensureHeartbeat() {
    if (this.heartbeat) return;
    // A comment line keeps proxies from closing an idle stream.
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(": ping\n\n");
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    this.logger.debug("live updates: first listener connected");
  }

  private stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
