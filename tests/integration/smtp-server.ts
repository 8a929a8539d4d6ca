import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerError } from "smtp-server";

export const UNKNOWN_MAILBOX = "inconnu@example.com";

export type Received = { to: string[]; raw: Buffer };

export type SmtpRelay = {
  port: number;
  received: Received[];
  /** Which recipients get a 550 (UNKNOWN_MAILBOX at first); a test may replace it. */
  refuse: (address: string) => boolean;
  close: () => Promise<void>;
};

/** A local SMTP relay that keeps what it receives and refuses some recipients with a 550. */
export async function startSmtpServer(port = 0): Promise<SmtpRelay> {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onRcptTo(address, _session, callback) {
      if (!relay.refuse(address.address)) return callback();
      const error: SMTPServerError = Object.assign(new Error("5.1.1 Mailbox unknown"), { responseCode: 550 });
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const relay: SmtpRelay = {
    port: (server.server.address() as AddressInfo).port,
    received,
    refuse: (address) => address === UNKNOWN_MAILBOX,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return relay;
}
