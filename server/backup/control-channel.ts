import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { type BackupRecord, isBackupRecord } from "~/services/backup-record.server";

/**
 * PGlite opens its data directory in one process only, so while the shop runs, `npm run backup`
 * asks the server for the dump over a Unix socket in DATA_DIR/run (a 0700 folder: only the
 * shop's OS user reaches it; no network port). Requests: "dump\n", answered by one JSON line
 * ({"ok":true,"size":N} or {"ok":false,"error":"…"}) then the N bytes of the dump; and
 * "record <JSON>\n" once the archive is complete, the backup to note in the database (answered
 * by one JSON line).
 */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, "run", "control.sock");
}

export type ControlChannel = { close(): Promise<void> };

export type ControlHandlers = { dump: () => Promise<Blob>; record: (record: BackupRecord) => Promise<void> };

export async function serveControlChannel(dataDir: string, handlers: ControlHandlers, onError: (error: unknown) => void): Promise<ControlChannel> {
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
      if (!request.includes("\n") && request.length < 4096) return;
      socket.removeAllListeners("data");
      if (request.startsWith("record ")) return answerRecord(socket, request.slice("record ".length), handlers.record, onError);
      if (request !== "dump\n") {
        socket.end(`${JSON.stringify({ ok: false, error: "unknown request" })}\n`);
        return;
      }
      handlers.dump().then(
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

function answerRecord(socket: net.Socket, text: string, record: ControlHandlers["record"], onError: (error: unknown) => void) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (!isBackupRecord(value)) return void socket.end(`${JSON.stringify({ ok: false, error: "invalid record" })}\n`);
  record(value).then(
    () => socket.end(`${JSON.stringify({ ok: true })}\n`),
    (error: unknown) => {
      onError(error);
      socket.end(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
    },
  );
}

/** Tells the running server which backup was just completed, for it to note in its database. */
export function sendRecord(dataDir: string, record: BackupRecord): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(controlSocketPath(dataDir));
    let answer = "";
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
    socket.on("end", () => {
      const parsed = (() => {
        try {
          return JSON.parse(answer) as { ok: boolean; error?: string };
        } catch {
          return { ok: false, error: "réponse illisible" };
        }
      })();
      if (parsed.ok) resolve();
      else reject(new Error(`Le serveur n'a pas noté la sauvegarde : ${parsed.error}`));
    });
    socket.write(`record ${JSON.stringify(record)}\n`);
  });
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
