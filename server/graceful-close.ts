import type { Server } from "node:http";
import type { Socket } from "node:net";

/** How long a connection without a request in progress is given before it is closed. */
const IDLE_GRACE_MS = 500;

/**
 * Tracks the server's connections so that it can stop without cutting a request that had
 * started. `server.close()` also closes at once every connection without a request in progress,
 * and a request whose bytes are still on their way on such a connection (a client reusing a
 * kept-alive one, or one just accepted) is then reset. Here the listener stops accepting, the
 * connections with a request finish it (the answers say `Connection: close` while draining), and a
 * connection is closed once it has had no request for IDLE_GRACE_MS.
 */
export function trackConnections(server: Server, now: () => number = Date.now) {
  const idleSince = new Map<Socket, number>();
  const busy = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    idleSince.set(socket, now());
    socket.once("close", () => {
      idleSince.delete(socket);
      busy.delete(socket);
    });
  });
  server.on("request", (req, res) => {
    const socket = req.socket;
    busy.add(socket);
    res.once("close", () => {
      busy.delete(socket);
      if (idleSince.has(socket)) idleSince.set(socket, now());
    });
  });

  return {
    /** Stops accepting connections; calls back once every connection has closed. */
    close(done: () => void) {
      // net.Server's close: no new connections, without http.Server's immediate idle sweep.
      Object.getPrototypeOf(Object.getPrototypeOf(server)).close.call(server, done);
      const sweep = setInterval(() => {
        const limit = now() - IDLE_GRACE_MS;
        for (const [socket, since] of idleSince) if (!busy.has(socket) && since <= limit) socket.destroy();
        if (idleSince.size === 0) clearInterval(sweep);
      }, 100);
      sweep.unref();
    },
  };
}
