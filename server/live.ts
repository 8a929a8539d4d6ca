import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { CatalogChange } from "~/domain/catalog-change";
import { networkKey } from "~/domain/network-key";

const HEARTBEAT_MS = 25_000;
/**
 * Changes are sent at most this often, the ones in between in one write per page: during a
 * drop the stock changes several times a second, and each event is a write on every open
 * stream (500 pages, 10 sales: 5,000 writes, as much CPU as the checkouts themselves). The
 * pages coalesce over 150 ms before refetching anyway (app/lib/use-live-updates.ts).
 */
export const LIVE_BATCH_MS = 100;

/**
 * Streams one client network (an IPv4 address, an IPv6 /64: domain/network-key.ts) may hold
 * open: a household's tabs and devices, or buyers behind one carrier's NAT, stay well under it;
 * a script opening streams in a loop (each one a socket and a write per change), from as many
 * addresses of its /64 as it likes, gets a 429 instead. The page retries later
 * (use-live-updates.ts).
 */
const LIVE_STREAMS_PER_CLIENT = 64;

/**
 * Streams the whole process holds open (LIVE_MAX_STREAMS): each is a socket and a write per
 * change, so many addresses each under their own limit (a botnet, a crawler farm) could still
 * exhaust the process's sockets and memory. Past it a 503 with Retry-After: the pages retry,
 * spread out (use-live-updates.ts), and keep working without live updates meanwhile.
 */
export const LIVE_MAX_STREAMS = 2_000;

/**
 * How long one stream lasts at most (LIVE_STREAM_LIFETIME_SECONDS), give or take a tenth at
 * random so the pages opened together do not all reconnect together: a stream is then ended
 * with a `retry:` hint, and the page's EventSource opens a new one by itself. A stream held
 * forever would keep a slot whatever becomes of its client (a proxy's half-open socket), and
 * the caps above would count it for ever.
 */
export const LIVE_STREAM_LIFETIME_SECONDS = 15 * 60;

/** The `retry:` hint sent when a stream reaches its lifetime: the page comes back after 1 to 5 s. */
const RECONNECT_AFTER_MS = [1_000, 5_000] as const;
const ORDERS_FRAME = `event: catalog\ndata: ${JSON.stringify({ op: "orders" } satisfies CatalogChange)}\n\n`;

/** The hint when the instance stops: back soon, on another instance behind the load balancer. */
const RECONNECT_ON_SHUTDOWN_MS = [200, 2_000] as const;

export type LiveHubOptions = {
  batchMs?: number;
  now?: () => number;
  /** Open streams per client network (LIVE_STREAMS_PER_CLIENT). */
  maxPerClient?: number;
  /** Open streams in all, every address together (LIVE_MAX_STREAMS). */
  maxStreams?: number;
  /** A stream's lifetime before jitter, in milliseconds (LIVE_STREAM_LIFETIME_SECONDS). */
  lifetimeMs?: number;
  /** [0, 1): the jitter of lifetimes and reconnection hints (tests make it fixed). */
  random?: () => number;
};

/** Open pages listening for catalogue changes over Server-Sent Events (GET /api/live). */
export class LiveHub {
  private readonly clients = new Set<Response>();
  /** Each open stream's end of life. */
  private readonly lifetimes = new Map<Response, NodeJS.Timeout>();
  private readonly openPerNetwork = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** The streams that asked for order changes too (`?topics=orders`: the admin's pages). */
  private readonly orderListeners = new Set<Response>();
  /** Frames waiting for the next write, each once (a page refetches once per batch anyway). */
  private readonly pending = new Set<string>();
  /** An order changed since the last write (sent to orderListeners only). */
  private ordersPending = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlushAt = -Infinity;
  /** When this process last heard of a change (its page cache purged then), or null. */
  private changedAt: number | null = null;
  /** Stopping (close()): new streams are sent elsewhere. */
  private closed = false;

  constructor(
    private readonly logger: Logger,
    private readonly options: LiveHubOptions = {},
  ) {}

  handler = (req: Request, res: Response) => {
    // Express applies TRUST_PROXY: behind a configured proxy, the visitor's address; counted by its network.
    const network = networkKey(req.ip ?? req.socket?.remoteAddress ?? "unknown");
    if (this.closed) {
      res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "1", Connection: "close" });
      res.end("Serveur en cours d'arrêt : reconnexion dans un instant.");
      return;
    }
    if (this.clients.size >= (this.options.maxStreams ?? LIVE_MAX_STREAMS)) {
      res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "60" });
      res.end("Trop de connexions en direct en ce moment : réessayez dans une minute.");
      return;
    }
    const open = this.openPerNetwork.get(network) ?? 0;
    if (open >= (this.options.maxPerClient ?? LIVE_STREAMS_PER_CLIENT)) {
      res.writeHead(429, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" });
      res.end("Trop de connexions en direct depuis votre connexion.");
      return;
    }
    this.openPerNetwork.set(network, open + 1);
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
    if (req.query?.topics === "orders") this.orderListeners.add(res);
    const release = () => {
      this.orderListeners.delete(res);
      if (!this.clients.delete(res)) return; // already counted out (its lifetime, or close())
      clearTimeout(this.lifetimes.get(res));
      this.lifetimes.delete(res);
      const left = (this.openPerNetwork.get(network) ?? 1) - 1;
      if (left > 0) this.openPerNetwork.set(network, left);
      else this.openPerNetwork.delete(network);
      if (this.clients.size === 0) this.stopHeartbeat();
    };
    this.lifetimes.set(res, this.endOfLife(res, release));
    this.ensureHeartbeat();
    req.on("close", release);
  };

  /** Open streams, every address together. */
  get size(): number {
    return this.clients.size;
  }

  /**
   * Ends the stream at its lifetime, with a `retry:` hint: the browser's EventSource reconnects
   * by itself after it (a stream that ends is not an error to it), and the page skips the reload
   * a reconnection otherwise makes unless a change came meanwhile (`event: bye`, use-live-updates.ts).
   */
  private endOfLife(res: Response, release: () => void): NodeJS.Timeout {
    const random = this.options.random ?? Math.random;
    const lifetime = (this.options.lifetimeMs ?? LIVE_STREAM_LIFETIME_SECONDS * 1000) * (0.9 + 0.2 * random());
    const timer = setTimeout(() => {
      release();
      this.sayBye(res, RECONNECT_AFTER_MS);
    }, lifetime);
    timer.unref();
    return timer;
  }

  /** Ends a stream with a `retry:` hint drawn in [least, most] ms and `event: bye`: the page reconnects without reloading. */
  private sayBye(res: Response, [least, most]: readonly [number, number]) {
    const retry = Math.round(least + (most - least) * (this.options.random ?? Math.random)());
    const bye = { now: (this.options.now ?? Date.now)() };
    res.end(`retry: ${retry}\n\nevent: bye\ndata: ${JSON.stringify(bye)}\n\n`);
  }

  /** Sends a change to every open page: at once after a quiet spell, else with the next batch. */
  broadcast(change: CatalogChange): void {
    const now = (this.options.now ?? Date.now)();
    if (change.op === "orders") {
      // Not a change of what public pages show: their "missed a change" clock stays.
      this.ordersPending = true;
    } else {
      this.changedAt = now;
      this.pending.add(`event: catalog\ndata: ${JSON.stringify(change)}\n\n`);
    }
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
    if (frames) for (const client of this.clients) client.write(frames);
    if (this.ordersPending) {
      this.ordersPending = false;
      for (const client of this.orderListeners) client.write(ORDERS_FRAME);
    }
  }

  /** Gives every open page the server's time again (the test clock moved: their countdowns follow). */
  sendClock(): void {
    const frame = `event: clock\ndata: ${JSON.stringify({ now: (this.options.now ?? Date.now)(), changedAt: this.changedAt })}\n\n`;
    for (const client of this.clients) client.write(frame);
  }

  /**
   * Ends every stream and takes no new one (shutdown: open streams would keep the server from
   * closing). Each page is told to come back within 0.2 to 2 s: behind a load balancer, on another
   * instance; the reconnections spread out rather than all at once.
   */
  close(): void {
    this.closed = true;
    this.stopHeartbeat();
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending.clear();
    this.ordersPending = false;
    this.orderListeners.clear();
    this.openPerNetwork.clear();
    for (const timer of this.lifetimes.values()) clearTimeout(timer);
    this.lifetimes.clear();
    const open = [...this.clients];
    this.clients.clear();
    for (const client of open) this.sayBye(client, RECONNECT_ON_SHUTDOWN_MS);
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
