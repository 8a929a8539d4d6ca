import { sliceText } from "./text-rules";
import type { InboxKind } from "./catalog-values";
import { type EmailContent, type EmailPart, type MailShop, button, contactWay, escapeHtml, greeting, inertText, layout, note, paragraph } from "./email-templates";
import { formatEuros } from "./money";

/**
 * E-mails of the contact and buy-back requests: the seller's notice, the customer's
 * acknowledgement, and the seller's reply and offer. Pure functions on the shop's layout;
 * everything the customer typed is escaped, so markup arrives as text, and made inert
 * (inertText: no address in it becomes a link), the e-mail address they gave excepted.
 */

export type InboxRequestMail = {
  id: string;
  kind: InboxKind;
  lastName: string;
  firstName: string;
  email: string;
  phone: string | null;
  message: string;
  photoCount: number;
};

// Same look as the layout's paragraphs (email-templates.ts), dark colours from its classes.
const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const TEXT_COLOR = "#1f2937";

/** Text as typed, inert, line breaks kept, in a quoted box (the text version indents it with "> "). */
function quote(typed: string): EmailPart {
  const text = inertText(typed);
  const html = text.split(/\r?\n/).map(escapeHtml).join("<br>");
  return {
    html:
      `<blockquote class="fg" style="margin:0 0 20px;padding:12px 16px;border-left:4px solid #d1d5db;background-color:#f9fafb;` +
      `${FONT}font-size:15px;line-height:23px;color:${TEXT_COLOR};white-space:normal;word-break:break-word;">${html}</blockquote>`,
    text: text
      .split(/\r?\n/)
      .map((line) => `> ${line}`)
      .join("\n"),
  };
}

/** Label / value lines ("Nom : Dupont"), one per line. */
function lines(rows: [label: string, value: string][]): EmailPart {
  const text = rows.map(([label, value]) => `${label} : ${value}`);
  return {
    html: `<p class="fg" style="margin:0 0 16px;${FONT}font-size:15px;line-height:23px;color:${TEXT_COLOR};">${text.map(escapeHtml).join("<br>")}</p>`,
    text: text.join("\n"),
  };
}

/** The seller's own words: paragraphs as typed, line breaks kept. */
function prose(text: string): EmailPart {
  return {
    html: text
      .split(/\r?\n\s*\r?\n/)
      .map((block) => paragraph(block).html.replace(/\r?\n/g, "<br>"))
      .join("\n"),
    text,
  };
}

const fullName = (request: Pick<InboxRequestMail, "firstName" | "lastName">) => inertText(`${request.firstName} ${request.lastName}`);

const KIND_NOUN: Record<InboxKind, string> = { contact: "message", rachat: "demande de rachat" };

/**
 * To the seller: who wrote, what, and how to answer. It goes with a Reply-To of the customer
 * (inbox.server.ts); their address is also given as a mailto button and in clear.
 */
export function sellerNotification({ shop, request, adminUrl }: { shop: MailShop; request: InboxRequestMail; adminUrl: string }): EmailContent {
  const buyback = request.kind === "rachat";
  const subject = buyback ? `Nouvelle demande de rachat – ${fullName(request)}` : `Nouveau message de contact – ${fullName(request)}`;
  const rows: [string, string][] = [
    ["Nom", inertText(request.lastName)],
    ["Prénom", inertText(request.firstName)],
    ["Email", request.email],
  ];
  if (request.phone) rows.push(["Téléphone", inertText(request.phone)]);
  if (buyback) rows.push(["Photos", request.photoCount === 0 ? "aucune" : `${request.photoCount} (sur la page de la demande)`]);
  const mailto = `mailto:${request.email}?subject=${encodeURIComponent(`Re: ${buyback ? "votre demande de rachat" : "votre message"} – ${shop.name}`)}`;
  return layout(shop, {
    subject,
    preheader: inertText(sliceText(request.message, 120)),
    heading: buyback ? "Nouvelle demande de rachat" : "Nouveau message de contact",
    parts: [
      lines(rows),
      paragraph(buyback ? "Description de la collection :" : "Message :"),
      quote(request.message),
      button(`Répondre à ${fullName(request)}`, mailto),
      button("Ouvrir la demande", adminUrl),
      note(`Pour répondre, répondez à cet e-mail (la réponse va à ${request.email}) ou répondez depuis la page de la demande, dans Messages reçus : la réponse y est gardée.`),
    ],
  });
}

/**
 * To the customer: the request arrived. It goes to an address anyone could have typed, so it
 * repeats nothing they wrote, not even the first name (`firstName` is not used): no relay for
 * spam or phishing from the shop's address.
 */
export function customerAcknowledgement({ shop, kind }: { shop: MailShop; kind: InboxKind; firstName?: string }): EmailContent {
  const buyback = kind === "rachat";
  return layout(shop, {
    subject: buyback ? `Nous avons bien reçu votre demande de rachat – ${shop.name}` : `Nous avons bien reçu votre message – ${shop.name}`,
    preheader: buyback ? "Nous étudions votre collection." : "Nous vous répondrons très bientôt.",
    heading: buyback ? "Demande de rachat reçue" : "Message reçu",
    parts: [
      paragraph("Bonjour,"),
      paragraph(
        buyback
          ? `Merci pour votre demande de rachat ! ${shop.name} étudie votre collection et vous répondra par e-mail ou par message sur les réseaux sociaux.`
          : `Merci pour votre message ! ${shop.name} vous répondra très bientôt.`,
      ),
      note(`Vous n'avez rien envoyé à ${shop.name} ? Ignorez simplement cet e-mail.`),
    ],
  });
}

/** The seller's answer, with the customer's own request quoted below it. */
export function replyEmail({
  shop,
  kind,
  firstName,
  reply,
  original,
}: {
  shop: MailShop;
  kind: InboxKind;
  firstName: string;
  reply: string;
  original: string;
}): EmailContent {
  return layout(shop, {
    subject: kind === "rachat" ? `Votre demande de rachat – ${shop.name}` : `Réponse à votre message – ${shop.name}`,
    preheader: sliceText(reply, 120),
    heading: kind === "rachat" ? "Votre demande de rachat" : "Réponse à votre message",
    parts: [
      greeting(firstName),
      prose(reply),
      note(`Votre ${KIND_NOUN[kind]} :`),
      quote(original),
      note(`Pour nous répondre, répondez à cet e-mail ou écrivez-nous ${contactWay(shop)}.`),
    ],
  });
}

/** The seller's offer for a collection: the amount, a note, and how to accept. */
export function offerEmail({ shop, firstName, amountCents, note: sellerNote }: { shop: MailShop; firstName: string; amountCents: number; note: string }): EmailContent {
  const amount = formatEuros(amountCents);
  const parts = [
    greeting(firstName),
    paragraph(`Merci d'avoir pensé à ${shop.name} pour votre collection. Après examen, nous vous proposons de la racheter pour ${amount}.`),
    lines([["Notre offre", amount]]),
  ];
  if (sellerNote) parts.push(prose(sellerNote));
  parts.push(
    paragraph(`Pour accepter ou refuser cette offre, répondez simplement à cet e-mail ou écrivez-nous ${contactWay(shop)}.`),
    note("Cette offre vaut pour la collection décrite et photographiée dans votre demande."),
  );
  return layout(shop, {
    subject: `Notre offre pour votre collection : ${amount} – ${shop.name}`,
    preheader: `Notre offre : ${amount}.`,
    heading: "Notre offre pour votre collection",
    parts,
  });
}
