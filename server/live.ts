import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { CatalogChange } from "~/domain/catalog-change";

const HEARTBEAT_MS = 25_000;

/** Open pages listening for catalogue changes over Server-Sent Events (GET /api/live). */
export class LiveHub {
  private readonly clients = new Set<Response>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly logger: Logger) {}

  handler = (req: Request, res: Response) => {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no", // nginx: do not buffer the stream
    });
    // The browser reconnects by itself after 2 s when the stream drops.
    res.write("retry: 2000\n\n");
    this.clients.add(res);
    this.ensureHeartbeat();
    req.on("close", () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stopHeartbeat();
    });
  };

  broadcast(change: CatalogChange): void {
    const frame = `event: catalog\ndata: ${JSON.stringify(change)}\n\n`;
    for (const client of this.clients) client.write(frame);
  }

  /** Ends every stream (shutdown: open streams would keep the server from closing). */
  close(): void {
    this.stopHeartbeat();
    for (const client of this.clients) client.end();
    this.clients.clear();
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
