import { sliceText } from "./text-rules";
import type { InboxKind } from "./inbox-values";
import { type EmailContent, type EmailPart, type MailShop, button, contactWay, escapeHtml, greeting, inertText, layout, note, paragraph } from "./email-templates";
import { formatEuros } from "./money";
import { OFFER_LINK_DAYS, type OfferLine, conditionLabel, lineTotalCents, offerPayouts } from "./buyback-offer";
import { formatParisDate } from "./paris-time";

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

export type OfferMail = {
  shop: MailShop;
  firstName: string;
  lines: readonly OfferLine[];
  bonusPercent: number;
  note: string;
  /** The signed link to the offer page, and its end of validity. */
  url: string;
  expiresAt: Date;
  /** A line changed at reception: the customer is asked again. */
  adjusted?: boolean;
};

/** The offer by lines, with what each payment means gives and the link to answer it. */
export function offerEmail({ shop, firstName, lines: offerLines, bonusPercent, note: sellerNote, url, expiresAt, adjusted = false }: OfferMail): EmailContent {
  const payouts = offerPayouts(offerLines, bonusPercent);
  const amount = formatEuros(payouts.transfer);
  const parts = [
    greeting(firstName),
    paragraph(
      adjusted
        ? "En recevant vos cartes, nous avons constaté un état différent de celui annoncé pour au moins un article. Voici notre offre ajustée : elle ne remplace la précédente que si vous l'acceptez."
        : `Merci d'avoir pensé à ${shop.name} pour votre collection. Après examen, voici notre offre, article par article.`,
    ),
    lines(offerLines.map((line) => [`${inertText(line.description)} (${conditionLabel(line.condition)}) × ${line.quantity}`, formatEuros(lineTotalCents(line))])),
    lines([
      ["Total par virement bancaire", amount],
      [`Total en avoir en boutique (bonus de ${bonusPercent} %)`, formatEuros(payouts.credit)],
    ]),
  ];
  if (sellerNote) parts.push(prose(sellerNote));
  parts.push(
    button(adjusted ? "Voir l'offre ajustée et répondre" : "Voir l'offre et répondre", url),
    note(`Ce lien est valable jusqu'au ${formatParisDate(expiresAt)} inclus (${OFFER_LINK_DAYS} jours). Sans réponse d'ici là, l'offre expire.`),
  );
  return layout(shop, {
    subject: `${adjusted ? "Notre offre ajustée" : "Notre offre"} pour votre collection : ${amount} – ${shop.name}`,
    preheader: `Notre offre : ${amount}, ou ${formatEuros(payouts.credit)} en avoir.`,
    heading: adjusted ? "Notre offre ajustée pour votre collection" : "Notre offre pour votre collection",
    parts,
  });
}
