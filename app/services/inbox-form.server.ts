import { data } from "react-router";
import type { FieldErrors } from "~/domain/auth-forms";
import type { InboxKind } from "~/domain/inbox-values";
import { type InboxFormAnswer, MAX_BUYBACK_PHOTOS, PHOTOS_FIELD, SEND_FAILED, type SubmittedValues, TOO_MANY_PHOTOS, submittedValues } from "~/domain/contact-forms";
import { IMAGE_UPLOAD_ERRORS, MAX_IMAGE_BYTES } from "~/domain/image-upload";
import type { AppContext } from "~/lib/context";
import { isMultipart, readMultipart } from "~/lib/multipart.server";
import { readFormAtMost } from "~/lib/request-input.server";
import { tooManyAttemptsMessage } from "~/domain/rate-limits";
import { sliceText } from "~/domain/text-rules";
import { checkRateLimit } from "./rate-limit.server";
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

/** The photos' ceiling in French, for the 413s. */
const BUYBACK_CEILING = `${MAX_BUYBACK_PHOTOS} photos de 10MB au maximum`;

/**
 * The post's texts and files, read with the form's ceilings: a multipart post (/rachat's photos)
 * streamed, each file kept only up to its own ceiling; any other post (/contact's) read whole up
 * to its ceiling. A refusal is the answer to send, nothing having been read past the limit.
 */
async function readInboxPost(kind: InboxKind, request: Request) {
  if (kind === "rachat" && isMultipart(request)) {
    const form = await readMultipart(request, { totalBytes: BUYBACK_BODY_LIMIT, fileBytes: MAX_IMAGE_BYTES, files: MAX_BUYBACK_PHOTOS, fieldBytes: CONTACT_BODY_LIMIT });
    if ("refused" in form) {
      const values = submittedValues(textsOf(form.fields));
      if (form.refused === "file-too-large") {
        const error = form.file ? `${sliceText(form.file, 80)} : ${IMAGE_UPLOAD_ERRORS.tooLarge}` : IMAGE_UPLOAD_ERRORS.tooLarge;
        return refused(413, `L'envoi est trop volumineux (${BUYBACK_CEILING}).`, values, { fieldErrors: { [PHOTOS_FIELD]: error } });
      }
      if (form.refused === "too-many-files") return refused(400, FIX_FIELDS, values, { fieldErrors: { [PHOTOS_FIELD]: TOO_MANY_PHOTOS } });
      if (form.refused === "too-large") return refused(413, `L'envoi est trop volumineux (${BUYBACK_CEILING}).`, values);
      return refused(400, SEND_FAILED.description, values);
    }
    // An empty file input still sends one nameless, empty part.
    const photos = form.files.filter((file) => file.field === PHOTOS_FIELD && (file.bytes.length > 0 || file.name !== "")).map(({ name, bytes }) => ({ name, bytes }));
    return { texts: textsOf(form.fields), photos };
  }
  const form = await readFormAtMost(request, kind === "rachat" ? BUYBACK_BODY_LIMIT : CONTACT_BODY_LIMIT);
  if (form === "too-large") return refused(413, `L'envoi est trop volumineux (${kind === "rachat" ? BUYBACK_CEILING : "le message est bien trop long"}).`, {});
  if (form === "unreadable") return refused(400, SEND_FAILED.description, {});
  const photos = await Promise.all(
    form
      .getAll(PHOTOS_FIELD)
      .filter((entry): entry is File => entry instanceof File && (entry.size > 0 || entry.name !== ""))
      .map(async (file) => ({ name: file.name, bytes: Buffer.from(await file.arrayBuffer()) })),
  );
  return { texts: textsOf([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string")), photos };
}

function textsOf(entries: [string, string][]): FormData {
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, value);
  return form;
}

/**
 * The action of /contact and /rachat: refuses an address over its limit before reading
 * anything, reads the post (multipart with the photos streamed, never past its limits), hands
 * it to the inbox, and answers with the outcome in French.
 */
export async function inboxFormAction(kind: InboxKind, { request, context }: { request: Request; context: AppContext }) {
  // Checked, not counted: the inbox counts a request once it is read and valid (inbox.server.ts).
  const limit = await checkRateLimit(context.db, "inboxPerIp", context.clientIp);
  if (limit.blocked) return refused(429, tooManyAttemptsMessage(limit.retryAfterMs), {}, { retryAfterMs: limit.retryAfterMs });
  const post = await readInboxPost(kind, request);
  if (!("texts" in post)) return post;
  const { texts: form, photos } = post;
  const values = submittedValues(form);
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
