import { data } from "react-router";
import type { FieldErrors } from "~/domain/auth-forms";
import type { InboxKind } from "~/domain/catalog-values";
import { type InboxFormAnswer, MAX_BUYBACK_PHOTOS, PHOTOS_FIELD, SEND_FAILED, type SubmittedValues, submittedValues } from "~/domain/contact-forms";
import { MAX_IMAGE_BYTES } from "~/domain/image-upload";
import type { AppContext } from "~/lib/context";
import { readFormAtMost } from "~/lib/request-input.server";
import { submitInboxRequest } from "./inbox.server";

const MB = 1024 * 1024;
/** A contact form is text: a megabyte leaves room for a too-long message to get its own message. */
const CONTACT_BODY_LIMIT = MB;
const BUYBACK_BODY_LIMIT = MAX_BUYBACK_PHOTOS * MAX_IMAGE_BYTES + MB;
/** Each field says what is wrong with it; the page and the toast say where to look. */
const FIX_FIELDS = "Certains champs sont à corriger : voyez le message sous chacun d'eux.";

function refused(status: number, description: string, values: SubmittedValues, extra: { fieldErrors?: FieldErrors; retryAfterMs?: number } = {}) {
  const headers = extra.retryAfterMs ? { "Retry-After": String(Math.ceil(extra.retryAfterMs / 1000)) } : undefined;
  return data<InboxFormAnswer>(
    { ok: false, failure: { title: SEND_FAILED.title, description }, values, ...(extra.fieldErrors ? { fieldErrors: extra.fieldErrors } : {}) },
    { status, headers },
  );
}

/**
 * The action of /contact and /rachat: reads the post (multipart with the photos, never past
 * its limit), hands it to the inbox, and answers with the outcome in French.
 */
export async function inboxFormAction(kind: InboxKind, { request, context }: { request: Request; context: AppContext }) {
  const form = await readFormAtMost(request, kind === "rachat" ? BUYBACK_BODY_LIMIT : CONTACT_BODY_LIMIT);
  if (form === "too-large") {
    const limit = kind === "rachat" ? `${MAX_BUYBACK_PHOTOS} photos de 10MB au maximum` : "le message est bien trop long";
    return refused(413, `L'envoi est trop volumineux (${limit}).`, {});
  }
  if (form === "unreadable") return refused(400, SEND_FAILED.description, {});

  const values = submittedValues(form);
  const photos = await Promise.all(
    form
      .getAll(PHOTOS_FIELD)
      // An empty file input still sends one nameless, empty part.
      .filter((entry): entry is File => entry instanceof File && (entry.size > 0 || entry.name !== ""))
      .map(async (file) => ({ name: file.name, bytes: Buffer.from(await file.arrayBuffer()) })),
  );
  const texts = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
  try {
    const outcome = await submitInboxRequest(
      { db: context.db, privateFiles: context.privateFiles, shop: { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl }, sellerEmail: context.checkout.sellerEmail },
      { kind, values: texts, photos, clientIp: context.clientIp },
    );
    if (outcome.ok) {
      context.kickMail();
      context.logger.info({ id: outcome.id, kind }, "inbox: request received");
      return data<InboxFormAnswer>({ ok: true });
    }
    if ("fieldErrors" in outcome) return refused(outcome.status, FIX_FIELDS, values, { fieldErrors: outcome.fieldErrors });
    return refused(outcome.status, outcome.message, values, { retryAfterMs: outcome.retryAfterMs });
  } catch (error) {
    context.logger.error({ err: error, kind }, "inbox: request not saved");
    return refused(500, SEND_FAILED.description, values);
  }
}
