import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/**
 * PGlite opens its data directory in one process only, so while the shop runs, `npm run backup`
 * asks the server for the dump over a Unix socket in DATA_DIR/run (a 0700 folder: only the
 * shop's OS user reaches it; no network port). One request: "dump\n". The answer: one JSON line
 * ({"ok":true,"size":N} or {"ok":false,"error":"…"}), then the N bytes of the dump.
 */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, "run", "control.sock");
}

export type ControlChannel = { close(): Promise<void> };

export async function serveControlChannel(dataDir: string, dump: () => Promise<Blob>, onError: (error: unknown) => void): Promise<ControlChannel> {
  const socketPath = controlSocketPath(dataDir);
  fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(socketPath), 0o700);
  // A socket left by a server that died: this process holds the data directory's lock now.
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    socket.on("error", () => socket.destroy());
    let request = "";
    socket.on("data", (chunk) => {
      request += chunk.toString("utf8");
      if (!request.includes("\n") && request.length < 64) return;
      socket.removeAllListeners("data");
      if (request !== "dump\n") {
        socket.end(`${JSON.stringify({ ok: false, error: "unknown request" })}\n`);
        return;
      }
      dump().then(
        (blob) => {
          socket.write(`${JSON.stringify({ ok: true, size: blob.size })}\n`);
          // Streamed from the Blob PGlite made: no second copy of the database in memory.
          Readable.fromWeb(blob.stream() as NodeReadableStream<Uint8Array>).pipe(socket);
        },
        (error: unknown) => {
          onError(error);
          socket.end(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** Asks the running server for its dump and writes it to `file`. */
export function requestDump(dataDir: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(controlSocketPath(dataDir));
    const out = fs.createWriteStream(file, { mode: 0o600 });
    let head: Buffer = Buffer.alloc(0);
    let expected: number | null = null;
    let received = 0;
    const fail = (error: Error) => {
      socket.destroy();
      out.destroy();
      reject(error);
    };
    socket.on("error", (error: NodeJS.ErrnoException) =>
      fail(
        error.code === "ENOENT" || error.code === "ECONNREFUSED"
          ? new Error(`Le serveur qui tient ${dataDir} ne répond pas sur ${controlSocketPath(dataDir)} : redémarrez-le avec cette version de Comptoir, ou arrêtez-le pendant la sauvegarde.`)
          : error,
      ),
    );
    socket.on("data", (chunk: Buffer) => {
      if (expected === null) {
        head = Buffer.concat([head, chunk]);
        const newline = head.indexOf(0x0a);
        if (newline === -1) return;
        let answer: { ok: boolean; size?: number; error?: string };
        try {
          answer = JSON.parse(head.subarray(0, newline).toString("utf8")) as typeof answer;
        } catch {
          return fail(new Error(`Réponse illisible sur ${controlSocketPath(dataDir)}`));
        }
        if (!answer.ok) return fail(new Error(`Le serveur n'a pas pu copier sa base : ${answer.error}`));
        expected = answer.size!;
        chunk = head.subarray(newline + 1);
      }
      received += chunk.length;
      if (!out.write(chunk)) {
        socket.pause();
        out.once("drain", () => socket.resume());
      }
    });
    socket.on("end", () => {
      if (expected === null || received !== expected) return fail(new Error(`Copie de la base interrompue (${received} octets reçus sur ${expected ?? "?"})`));
      out.end(() => resolve());
    });
    socket.write("dump\n");
  });
}
