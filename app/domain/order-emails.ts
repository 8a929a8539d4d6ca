import { countryName } from "./shipping-countries";
import { type EmailContent, type EmailPart, type MailShop, button, escapeHtml, greeting, layout, note, paragraph } from "./email-templates";
import { formatEuros } from "./money";
import type { OrderView, ShippingAddress } from "./order-view";

/** Order e-mails: the customer's confirmation (the durable-medium record), the seller's notices. */

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const dateTime = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Paris" });

function heading(text: string): EmailPart {
  return {
    html: `<h2 class="fg" style="margin:24px 0 12px;${FONT}font-size:17px;line-height:24px;font-weight:700;color:#1f2937;">${escapeHtml(text)}</h2>`,
    text: text.toUpperCase(),
  };
}

/** The lines, then subtotal, insurance, discount and total, as a table and as aligned text. */
export function orderTable(order: OrderView): EmailPart {
  const cell = `padding:8px 0;${FONT}font-size:14px;line-height:20px;border-bottom:1px solid #e5e7eb;`;
  const rows = order.lines.map(
    (line) =>
      `<tr><td class="fg" style="${cell}color:#1f2937;">${escapeHtml(line.name)}<br><span class="muted" style="color:#6b7280;">${line.quantity} × ${formatEuros(line.unitPriceCents)}</span></td>` +
      `<td class="fg" align="right" style="${cell}color:#1f2937;white-space:nowrap;">${formatEuros(line.lineTotalCents)}</td></tr>`,
  );
  const totals: [string, string, boolean][] = [["Sous-total", formatEuros(order.subtotalCents), false]];
  if (order.insuranceCents > 0) totals.push(["Assurance colis", formatEuros(order.insuranceCents), false]);
  if (order.discountCents > 0) totals.push([`Réduction${order.discountCode ? ` (${order.discountCode})` : ""}`, `−${formatEuros(order.discountCents)}`, false]);
  totals.push(["Total TTC", formatEuros(order.totalCents), true]);
  const totalRows = totals.map(
    ([label, value, strong]) =>
      `<tr><td class="fg" style="padding:6px 0;${FONT}font-size:${strong ? 16 : 14}px;${strong ? "font-weight:700;" : ""}color:#1f2937;">${escapeHtml(label)}</td>` +
      `<td class="fg" align="right" style="padding:6px 0;${FONT}font-size:${strong ? 16 : 14}px;${strong ? "font-weight:700;" : ""}color:#1f2937;white-space:nowrap;">${value}</td></tr>`,
  );
  const html = `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;">${rows.join("")}${totalRows.join("")}</table>`;
  const text = [
    ...order.lines.map((line) => `- ${line.name} : ${line.quantity} × ${formatEuros(line.unitPriceCents)} = ${formatEuros(line.lineTotalCents)}`),
    "",
    ...totals.map(([label, value]) => `${label} : ${value}`),
  ].join("\n");
  return { html, text };
}

export function addressLines(address: ShippingAddress): string[] {
  return [
    address.method === "relay" ? `Point relais : ${address.relayPointName ?? ""}` : null,
    address.fullName,
    address.line1,
    address.line2 || null,
    `${address.postalCode} ${address.city}`,
    countryName(address.country),
    address.phone ? `Tél. ${address.phone}` : null,
  ].filter((line): line is string => Boolean(line));
}

function addressBlock(address: ShippingAddress | null): EmailPart {
  if (!address) return paragraph("Adresse de livraison : indiquée lors du paiement.");
  const lines = addressLines(address);
  return {
    html: `<p class="fg" style="margin:0 0 16px;${FONT}font-size:15px;line-height:22px;color:#1f2937;">${lines.map(escapeHtml).join("<br>")}</p>`,
    text: lines.join("\n"),
  };
}

const orderDate = (order: OrderView) => dateTime.format(new Date(order.paidAt ?? order.createdAt));

/** To the customer once paid: the confirmation on a durable medium (Code de la consommation L221-13). */
export function orderConfirmationEmail({ shop, order, orderUrl }: { shop: MailShop; order: OrderView; orderUrl: string | null }): EmailContent {
  return layout(shop, {
    subject: `Confirmation de votre commande ${order.number} – ${shop.name}`,
    preheader: `Commande ${order.number} confirmée – total ${formatEuros(order.totalCents)}`,
    heading: "Merci pour votre commande !",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(`Nous avons bien reçu votre paiement. Votre commande ${order.number} du ${orderDate(order)} est confirmée et sera préparée avec soin.`),
      heading("Votre commande"),
      orderTable(order),
      heading(order.shippingAddress?.method === "relay" ? "Livraison en point relais" : "Adresse de livraison"),
      addressBlock(order.shippingAddress),
      paragraph("Vous recevrez un e-mail avec le numéro de suivi dès l'expédition de votre colis."),
      ...(orderUrl ? [button("Voir ma commande", orderUrl)] : []),
      heading("Droit de rétractation"),
      note(
        `Vous disposez de 14 jours à compter de la réception de vos articles pour vous rétracter, sans avoir à donner de motif. ` +
          `Il suffit de nous adresser une déclaration claire de votre décision à ${shop.email}, puis de nous renvoyer les articles dans les 14 jours ; les frais de retour sont à votre charge. ` +
          `Nous vous remboursons dans les 14 jours suivant votre rétractation, frais de livraison standard compris.`,
      ),
      note("Les produits descellés après livraison (boosters, displays…) ne peuvent plus être retournés, conformément à l'article L221-28 du Code de la consommation."),
      note(`Une question sur votre commande ? Écrivez-nous à ${shop.email} en indiquant le numéro ${order.number}.`),
    ],
  });
}

/** To the seller: a new paid order to prepare. */
export function sellerNewOrderEmail({ shop, order, adminUrl }: { shop: MailShop; order: OrderView; adminUrl: string }): EmailContent {
  return layout(shop, {
    subject: `Nouvelle commande ${order.number} – ${formatEuros(order.totalCents)}`,
    heading: `Nouvelle commande ${order.number}`,
    parts: [
      paragraph(`Commande payée le ${orderDate(order)} par ${order.customerName ?? "un client"} (${order.customerEmail ?? "adresse inconnue"}).`),
      orderTable(order),
      heading(order.shippingAddress?.method === "relay" ? "Point relais" : "Livraison"),
      addressBlock(order.shippingAddress),
      button("Ouvrir l'administration", adminUrl),
    ],
  });
}

/** To the customer: paid after the reservation ended, units sold meanwhile, money returned. */
export function latePaymentRefundEmail({ shop, order }: { shop: MailShop; order: OrderView }): EmailContent {
  return layout(shop, {
    subject: `Commande ${order.number} : paiement remboursé – ${shop.name}`,
    heading: "Votre paiement a été remboursé",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(
        `Votre paiement pour la commande ${order.number} nous est parvenu après la fin du délai de réservation, et les derniers exemplaires ont été achetés entre-temps. Nous en sommes sincèrement désolés.`,
      ),
      paragraph(`Nous vous avons remboursé l'intégralité de la somme, soit ${formatEuros(order.totalCents)}. Le montant apparaîtra sur votre carte sous 5 à 10 jours ouvrés.`),
      button("Retourner sur la boutique", shop.publicUrl),
      note(`Une question ? Écrivez-nous à ${shop.email}.`),
    ],
  });
}

/** To the seller: a late payment with the stock gone, refunded automatically or to refund by hand. */
export function sellerLatePaymentEmail({ shop, order, refunded, adminUrl }: { shop: MailShop; order: OrderView; refunded: boolean; adminUrl: string }): EmailContent {
  return layout(shop, {
    subject: refunded ? `Paiement tardif remboursé – ${order.number}` : `À rembourser à la main – ${order.number}`,
    heading: refunded ? "Paiement tardif remboursé automatiquement" : "Remboursement automatique impossible : à faire à la main",
    parts: [
      paragraph(
        `Le paiement de la commande ${order.number} (${order.customerEmail ?? "adresse inconnue"}) est arrivé après la fin de sa réservation, alors que le stock était épuisé. Aucun article n'a été vendu en trop.`,
      ),
      refunded
        ? paragraph(`Le client a été remboursé de ${formatEuros(order.totalCents)} et prévenu par e-mail.`)
        : paragraph(`ATTENTION : le remboursement de ${formatEuros(order.totalCents)} a échoué chez le prestataire de paiement. Remboursez le client à la main ; une nouvelle tentative automatique aura lieu toutes les 5 minutes.`),
      orderTable(order),
      button("Ouvrir l'administration", adminUrl),
    ],
  });
}
