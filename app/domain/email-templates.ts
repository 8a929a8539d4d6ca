/** What an e-mail says about the shop: its name, its contact address and its site. */
/** `email`: the shop's contact address; empty when the seller has not given one (the mail then names none). */
export type MailShop = { name: string; email: string; publicUrl: string };

/**
 * How a customer writes to the shop, after "Écrivez-nous": its saved address, or its contact page
 * while the seller has given none (an e-mail never prints an empty address).
 */
export function contactWay(shop: MailShop): string {
  return shop.email ? `à ${shop.email}` : `depuis notre page de contact (${shop.publicUrl}/contact)`;
}

/** A complete e-mail, as stored in the outbox. */
export type EmailContent = { subject: string; html: string; text: string };

/** A piece of an e-mail body in its two forms: safe HTML and plain text. */
export type EmailPart = { html: string; text: string };

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Makes any value safe inside HTML text or a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

// Light colours inline (what every client applies); the dark ones come from the
// prefers-color-scheme rules of the layout, with !important to win over the inline styles.
const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const TEXT_COLOR = "#1f2937";
const MUTED_COLOR = "#6b7280";
const ACCENT = "#f2b233";
const ON_ACCENT = "#2b1d0e";

export function paragraph(text: string): EmailPart {
  return {
    html: `<p class="fg" style="margin:0 0 16px;${FONT}font-size:16px;line-height:24px;color:${TEXT_COLOR};">${escapeHtml(text)}</p>`,
    text,
  };
}

/** Smaller, muted text: reassurance and fine print. */
export function note(text: string): EmailPart {
  return {
    html: `<p class="muted" style="margin:0 0 16px;${FONT}font-size:14px;line-height:21px;color:${MUTED_COLOR};">${escapeHtml(text)}</p>`,
    text,
  };
}

/**
 * A call-to-action link drawn as a button (a table cell, which every client renders), followed
 * by the address in clear for clients that block buttons or readers who prefer to paste it.
 */
export function button(label: string, url: string): EmailPart {
  const href = escapeHtml(url);
  return {
    html:
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 12px;"><tr>` +
      `<td align="center" bgcolor="${ACCENT}" style="border-radius:6px;background-color:${ACCENT};">` +
      `<a href="${href}" target="_blank" style="display:inline-block;padding:12px 24px;${FONT}font-size:16px;font-weight:600;line-height:20px;color:${ON_ACCENT};text-decoration:none;border-radius:6px;">${escapeHtml(label)}</a>` +
      `</td></tr></table>` +
      `<p class="muted" style="margin:0 0 24px;${FONT}font-size:13px;line-height:19px;color:${MUTED_COLOR};word-break:break-all;">` +
      `Ou copiez ce lien dans votre navigateur : <a href="${href}" target="_blank" style="color:${MUTED_COLOR};">${href}</a></p>`,
    text: `${label} : ${url}`,
  };
}

/**
 * Text someone typed (a name, a message, an address), made inert for mail clients, which turn
 * addresses in plain text into links (issue 38): "://" becomes "[:]//" and a dot between a
 * letter or digit and a letter becomes "[.]" ("www[.]exemple[.]fr", "lea@exemple[.]fr"), in the
 * HTML part and the text part alike. Numbers ("3.5"), initials ("J.-P.") and sentence ends
 * ("fin. Début") are left as typed. Markup is escaped by the parts as everywhere else.
 */
export function inertText(text: string): string {
  return text.replace(/:\/\//g, "[:]//").replace(/(?<=[\p{L}\p{N}])\.(?=\p{L})/gu, "[.]");
}

/**
 * "Bonjour Marie," or just "Bonjour," when the name is unknown. The name is someone's typing:
 * inert (inertText). E-mails to an address nobody has confirmed pass no name at all.
 */
export function greeting(name: string): EmailPart {
  const trimmed = inertText(name.trim());
  return paragraph(trimmed ? `Bonjour ${trimmed},` : "Bonjour,");
}

/**
 * The shop's e-mail frame: a 600 px column (full width on phones) with the shop name in the
 * header and its contact address in the footer, readable in light and dark clients, plus the
 * same content as plain text.
 */
export function layout(
  shop: MailShop,
  content: { subject: string; heading: string; parts: EmailPart[]; preheader?: string },
): EmailContent {
  const name = escapeHtml(shop.name);
  const email = escapeHtml(shop.email);
  const site = escapeHtml(shop.publicUrl);
  const html = `<!DOCTYPE html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(content.subject)}</title>
<style>
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  .bg { background-color: #0b0f19 !important; }
  .card { background-color: #161c2b !important; }
  .fg { color: #e5e7eb !important; }
  .muted, .muted a { color: #a1a7b5 !important; }
}
@media only screen and (max-width: 620px) {
  .pad { padding: 24px 18px !important; }
}
</style>
</head>
<body class="bg" style="margin:0;padding:0;background-color:#f3f4f6;">
${content.preheader ? `<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(content.preheader)}</div>\n` : ""}<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="bg" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;">
<tr><td style="background-color:#111827;padding:20px 32px;border-radius:8px 8px 0 0;${FONT}font-size:20px;line-height:28px;font-weight:700;">
<a href="${site}" target="_blank" style="color:${ACCENT};text-decoration:none;">${name}</a>
</td></tr>
<tr><td class="card pad" style="background-color:#ffffff;padding:32px;border-radius:0 0 8px 8px;">
<h1 class="fg" style="margin:0 0 20px;${FONT}font-size:22px;line-height:30px;font-weight:700;color:${TEXT_COLOR};">${escapeHtml(content.heading)}</h1>
${content.parts.map((part) => part.html).join("\n")}
</td></tr>
<tr><td class="muted" style="padding:20px 32px;${FONT}font-size:13px;line-height:20px;color:${MUTED_COLOR};text-align:center;">
${email ? `Une question ? Écrivez-nous à <a href="mailto:${email}" style="color:${MUTED_COLOR};">${email}</a>.<br>` : ""}
<a href="${site}" target="_blank" style="color:${MUTED_COLOR};">${name}</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  const text = [
    content.heading,
    ...content.parts.map((part) => part.text),
    `-- \n${shop.name} · ${shop.publicUrl}${shop.email ? `\nUne question ? Écrivez-nous à ${shop.email}.` : ""}`,
  ].join("\n\n");
  return { subject: content.subject, html, text: `${text}\n` };
}

/**
 * After sign-up: confirm the address to activate the account. It goes to an address nobody has
 * confirmed, so it says nothing the person signing up typed (no name: "Bonjour,").
 */
export function verifyEmail({ shop, url }: { shop: MailShop; url: string }): EmailContent {
  return layout(shop, {
    subject: `Confirmez votre adresse e-mail – ${shop.name}`,
    preheader: "Un clic pour activer votre compte.",
    heading: "Confirmez votre adresse e-mail",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`Merci pour votre inscription sur ${shop.name} ! Pour activer votre compte, confirmez votre adresse e-mail :`),
      button("Confirmer mon adresse", url),
      note(`Vous n'avez pas créé de compte sur ${shop.name} ? Ignorez simplement cet e-mail.`),
    ],
  });
}

/**
 * "Mot de passe oublié" link: valid 1 hour, harmless if ignored. No name: the account's may have
 * been typed by someone else than the address's owner (an account never confirmed).
 */
export function resetPassword({ shop, url }: { shop: MailShop; url: string }): EmailContent {
  return layout(shop, {
    subject: `Réinitialisation de votre mot de passe – ${shop.name}`,
    preheader: "Choisissez un nouveau mot de passe (lien valable 1 heure).",
    heading: "Réinitialisez votre mot de passe",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`Vous avez demandé à réinitialiser le mot de passe de votre compte ${shop.name}. Choisissez-en un nouveau :`),
      button("Choisir un nouveau mot de passe", url),
      note("Ce lien est valable 1 heure. Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé."),
    ],
  });
}

/**
 * Sent instead of a second account when someone signs up with an address that already has one,
 * so the sign-up form never reveals which addresses are registered. No name, neither the one just
 * typed nor the account's (which may not be the address owner's either).
 */
export function alreadyRegistered({ shop, loginUrl, resetUrl }: { shop: MailShop; loginUrl: string; resetUrl: string }): EmailContent {
  return layout(shop, {
    subject: `Vous avez déjà un compte – ${shop.name}`,
    preheader: "Une inscription a été tentée avec votre adresse e-mail.",
    heading: "Vous avez déjà un compte",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`Quelqu'un, sans doute vous, a essayé de créer un compte sur ${shop.name} avec cette adresse e-mail. Vous avez déjà un compte : connectez-vous simplement.`),
      button("Me connecter", loginUrl),
      paragraph("Mot de passe oublié ? Choisissez-en un nouveau :"),
      button("Réinitialiser mon mot de passe", resetUrl),
      note("Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre compte n'a pas été modifié."),
    ],
  });
}

/** A change to how an account signs in, told to its owner (ASVS: notify of authentication changes). */
export type SecurityChange = "password-changed" | "second-factor-on" | "second-factor-off";

const SECURITY_CHANGES: Record<SecurityChange, { subject: string; says: (shop: string, at: string) => string }> = {
  "password-changed": {
    subject: "Mot de passe modifié",
    says: (shop, at) => `Le mot de passe de votre compte ${shop} a été modifié le ${at}. Toutes vos sessions ouvertes ont été fermées.`,
  },
  "second-factor-on": {
    subject: "Double authentification activée",
    says: (shop, at) => `La double authentification a été activée sur votre compte ${shop} le ${at}.`,
  },
  "second-factor-off": {
    subject: "Double authentification désactivée",
    says: (shop, at) => `La double authentification a été désactivée sur votre compte ${shop} le ${at}. Une nouvelle sera demandée à la prochaine connexion.`,
  },
};

/**
 * Tells the owner of an account that its password or second factor changed, with the way back
 * when it was not them. Only to the account's own, confirmed address; nothing typed by anyone.
 */
export function securityChanged({ shop, change, at, resetUrl }: { shop: MailShop; change: SecurityChange; at: string; resetUrl: string }): EmailContent {
  const { subject, says } = SECURITY_CHANGES[change];
  return layout(shop, {
    subject: `${subject} – ${shop.name}`,
    preheader: "Un changement de sécurité sur votre compte.",
    heading: subject,
    parts: [
      paragraph("Bonjour,"),
      paragraph(says(shop.name, at)),
      note(`Si vous n'êtes pas à l'origine de ce changement, choisissez tout de suite un nouveau mot de passe, puis écrivez-nous ${contactWay(shop)}.`),
      button("Choisir un nouveau mot de passe", resetUrl),
    ],
  });
}

/**
 * An account unused for almost three years (domain/retention.ts): its owner is told once, a
 * month before, that it will be erased, and that signing in keeps it.
 */
export function accountInactive({ shop, erasedOn, loginUrl }: { shop: MailShop; erasedOn: string; loginUrl: string }): EmailContent {
  return layout(shop, {
    subject: `Votre compte sera supprimé le ${erasedOn} – ${shop.name}`,
    preheader: "Connectez-vous pour le conserver.",
    heading: "Votre compte va être supprimé",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`Vous ne vous êtes pas connecté à votre compte ${shop.name} depuis bientôt trois ans. Sans connexion de votre part, il sera supprimé le ${erasedOn} : vos données personnelles seront effacées, vos commandes n'étant conservées, sous une forme anonymisée, que pour nos obligations comptables.`),
      paragraph("Pour conserver votre compte, il suffit de vous connecter avant cette date."),
      button("Me connecter", loginUrl),
    ],
  });
}
