/** How the admin sees an outbox e-mail's status. */
export const OUTBOX_STATUS_LABELS = { pending: "En attente", sent: "Envoyé", failed: "Échec" } as const;
export const OUTBOX_STATUS_TONES = { pending: "warning", sent: "success", failed: "destructive" } as const;

/** E-mails whose links carry a secret (sign-in as the person): never shown once sent. */
export const TOKEN_EMAIL_KINDS = ["verify-email", "reset-password"] as const;

/** What the admin sees instead of such a link. */
export const REDACTED_LINK = "lien masqué";

// An address with a token in its query (`?token=…`, `&token=…`, `&amp;access_token=…` in
// HTML…, or a "Prévenez-moi" link's `jeton=`), up to the next space, quote or angle bracket.
const TOKEN_URL = /(?:https?:\/\/|\/)[^\s"'<>]*?(?:\?|&amp;|&)[\w-]*(?:token|jeton)=[^\s"'<>]*/gi;

/** The text with every token-bearing address replaced by "lien masqué". */
export function redactTokenLinks(text: string): string {
  return text.replace(TOKEN_URL, REDACTED_LINK);
}

/**
 * An outbox e-mail as the admin sees it (/admin/emails/{id}): once sent, a verification or
 * reset link (or any other address carrying a token) would let whoever reads it act as the
 * recipient, so it shows as "lien masqué" in subject, HTML and text. Before it is sent, the
 * e-mail shows as queued.
 */
export function adminEmailView<T extends { kind: string; status: string; subject: string; html: string; text: string }>(email: T): T & { linksRedacted: boolean } {
  if (email.status !== "sent") return { ...email, linksRedacted: false };
  const redacted = { ...email, subject: redactTokenLinks(email.subject), html: redactTokenLinks(email.html), text: redactTokenLinks(email.text) };
  const changed = redacted.html !== email.html || redacted.text !== email.text || redacted.subject !== email.subject;
  return { ...redacted, linksRedacted: changed || (TOKEN_EMAIL_KINDS as readonly string[]).includes(email.kind) };
}
