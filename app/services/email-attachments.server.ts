import type { Db } from "~/db/types";
import { cgvFileName } from "~/domain/cgv-snapshot";
import { renderCgvPdf } from "./cgv-pdf.server";
import { getCgvSnapshotById } from "./cgv.server";
import type { OutboxEmail } from "./mail.server";

export type EmailAttachment = { filename: string; content: Buffer; contentType: string };

/**
 * The files an outbox e-mail carries, made when it is sent from what the row points to (the
 * outbox keeps no file): the order confirmation's CGV version as a PDF.
 */
export async function emailAttachments(db: Db, email: Pick<OutboxEmail, "cgvSnapshotId">, shopName: string): Promise<EmailAttachment[]> {
  if (!email.cgvSnapshotId) return [];
  const snapshot = await getCgvSnapshotById(db, email.cgvSnapshotId);
  if (!snapshot) throw new Error(`CGV snapshot ${email.cgvSnapshotId} not found`);
  return [{ filename: cgvFileName(snapshot.hash), content: Buffer.from(await renderCgvPdf(snapshot, shopName)), contentType: "application/pdf" }];
}
