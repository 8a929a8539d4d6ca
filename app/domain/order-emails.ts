import { cgvFileName, cgvPath } from "./cgv-snapshot";
import { ORDER_STATUS_LABELS } from "./catalog-values";
import {
  type EmailContent,
  type EmailPart,
  type MailShop,
  button,
  contactWay,
  escapeHtml,
  greeting,
  inertText,
  layout,
  note,
  paragraph,
} from "./email-templates";
import { formatEuros } from "./money";
import { formatCalendarDate } from "./calendar-date";
import { formatParisDateTime } from "./paris-time";
import type { OrderView, ShippingAddress } from "./order-view";
import { countryName } from "./shipping-countries";
import { GUARANTEE_NOTICE, WITHDRAWAL_FORM_MODEL } from "./legal-texts";
import { type LegalIdentity, isIndividualEntrepreneur, joinGiven, sellerDesignation, sellerName, sellerRegistration } from "./shop-identity";
import { FRANCHISE_MENTION, INTRA_EU_EXEMPTION_MENTION } from "./invoice";
import { formatVatRate } from "./vat-allocation";
import { SIGNATURE_DELIVERY_LABEL } from "./signature-delivery";
import { paymentParts } from "./store-credit";

/**
 * Order e-mails: the customer's confirmation (the record on a durable medium the law asks for),
 * the shipping notice with its tracking number, the refunds (a payment that came too late, an
 * order the seller cancelled), and the seller's notices. Pure functions: an order
 * view in, an e-mail (subject, HTML, text) out, built on the shop's layout.
 */

// Same look as the layout (email-templates.ts): light colours inline, dark ones from its classes.
const FONT =
  "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const TEXT_COLOR = "#1f2937";
const MUTED_COLOR = "#6b7280";
const RULE_COLOR = "#e5e7eb";
const NUMBERS = "font-variant-numeric:tabular-nums;white-space:nowrap;";

/** A section title inside the card. */
export function sectionTitle(text: string): EmailPart {
  return {
    html: `<h2 class="fg" style="margin:28px 0 12px;${FONT}font-size:17px;line-height:24px;font-weight:700;color:${TEXT_COLOR};">${escapeHtml(text)}</h2>`,
    text: `${text}\n${"-".repeat(width(text))}`,
  };
}

/** Label / value pairs (order number, date, customer…), as a two-column table and as "Label : value" lines. */
export function details(rows: [label: string, value: string][]): EmailPart {
  const cell = `padding:3px 0;${FONT}font-size:15px;line-height:22px;vertical-align:top;`;
  return {
    html:
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;">` +
      rows
        .map(
          ([label, value]) =>
            `<tr><td class="muted" style="${cell}padding-right:16px;color:${MUTED_COLOR};white-space:nowrap;">${escapeHtml(label)}</td>` +
            `<td class="fg" style="${cell}color:${TEXT_COLOR};">${escapeHtml(value)}</td></tr>`,
        )
        .join("") +
      `</table>`,
    text: rows.map(([label, value]) => `${label} : ${value}`).join("\n"),
  };
}

/** A boxed, bold warning: what the seller must not miss. */
function alert(text: string): EmailPart {
  return {
    html:
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;"><tr>` +
      `<td bgcolor="#fef2f2" style="padding:14px 16px;background-color:#fef2f2;border-left:4px solid #dc2626;border-radius:4px;${FONT}font-size:16px;line-height:24px;font-weight:700;color:#991b1b;">` +
      `${escapeHtml(text)}</td></tr></table>`,
    text: `/!\\ ${text.toUpperCase()}`,
  };
}

// ---------------------------------------------------------------------------------------------
// The order table

type TotalRow = { label: string; amount: string; strong?: boolean };

function totalRows(order: OrderView): TotalRow[] {
  const rows: TotalRow[] = [
    { label: "Sous-total", amount: formatEuros(order.subtotalCents) },
  ];
  if (order.insuranceCents > 0)
    rows.push({
      label: SIGNATURE_DELIVERY_LABEL,
      amount: formatEuros(order.insuranceCents),
    });
  if (order.discountCents > 0) {
    const code = order.discountCode?.trim();
    rows.push({
      label: code ? `Réduction (${code})` : "Réduction",
      amount: `−${formatEuros(order.discountCents)}`,
    });
  }
  if (order.shipping) {
    rows.push({
      label: `Livraison (${order.shipping.methodName})`,
      amount:
        order.shipping.cents === 0
          ? "Offerte"
          : formatEuros(order.shipping.cents),
    });
  }
  // An exempt intra-EU supply (docs/decisions/054): its total is before VAT, and no rate is shown.
  const exempt = order.vatRegime === "intra_eu_exempt";
  rows.push({
    label: exempt ? "Total HT" : "Total TTC",
    amount: formatEuros(order.totalCents),
    strong: true,
  });
  if (order.vatRegime === "franchise")
    rows.push({ label: FRANCHISE_MENTION, amount: "" });
  if (exempt) rows.push({ label: INTRA_EU_EXEMPTION_MENTION, amount: "" });
  for (const row of exempt ? [] : order.vatBreakdown)
    rows.push({
      label: `dont TVA ${formatVatRate(row.rateBp)}`,
      amount: formatEuros(row.vatCents),
    });
  // Store credit is a means of payment, not a discount: said after the totals, which it leaves as they are.
  for (const part of paymentParts(order)) rows.push({ label: part.label, amount: formatEuros(part.cents) });
  return rows;
}

/** Characters on screen, not UTF-16 units (a product name may hold an emoji). */
function width(value: string): number {
  return Array.from(value).length;
}
const padRight = (value: string, size: number) =>
  value + " ".repeat(Math.max(0, size - width(value)));
const padLeft = (value: string, size: number) =>
  " ".repeat(Math.max(0, size - width(value))) + value;

/** Longest product name kept on the same text line as its numbers; longer ones get a line of their own. */
const TEXT_NAME_MAX = 32;
const GAP = "  ";

function orderTableText(order: OrderView, totals: TotalRow[]): string {
  const lines = order.lines.map((line) => ({
    name: line.name,
    note: line.preorderNote ?? null,
    quantity: String(line.quantity),
    unit: formatEuros(line.unitPriceCents),
    total: formatEuros(line.lineTotalCents),
  }));
  const header = {
    name: "Article",
    quantity: "Qté",
    unit: "Prix unit.",
    total: "Total",
  };
  const fitting = lines
    .map((line) => width(line.name))
    .filter((w) => w <= TEXT_NAME_MAX);
  const nameWidth = Math.max(width(header.name), ...fitting);
  const quantityWidth = Math.max(
    width(header.quantity),
    ...lines.map((line) => width(line.quantity)),
  );
  const unitWidth = Math.max(
    width(header.unit),
    ...lines.map((line) => width(line.unit)),
  );
  const totalWidth = Math.max(
    width(header.total),
    ...lines.map((line) => width(line.total)),
    ...totals.map((row) => width(row.amount)),
  );
  const numbers = (row: typeof header) =>
    padLeft(row.quantity, quantityWidth) +
    GAP +
    padLeft(row.unit, unitWidth) +
    GAP +
    padLeft(row.total, totalWidth);
  const row = (line: typeof header) =>
    width(line.name) <= nameWidth
      ? padRight(line.name, nameWidth) + GAP + numbers(line)
      : `${line.name}\n${" ".repeat(nameWidth)}${GAP}${numbers(line)}`;
  // A pre-order's dates on their own line under its row, indented.
  const lineRow = (line: (typeof lines)[number]) => (line.note ? `${row(line)}\n  ${line.note}` : row(line));
  const fullWidth =
    nameWidth +
    GAP.length +
    quantityWidth +
    GAP.length +
    unitWidth +
    GAP.length +
    totalWidth;
  const labelWidth = fullWidth - GAP.length - totalWidth;
  const total = ({ label, amount }: TotalRow) =>
    width(label) <= labelWidth
      ? padRight(label, labelWidth) + GAP + padLeft(amount, totalWidth)
      : `${label}${GAP}${amount}`;
  return [
    row(header),
    "-".repeat(fullWidth),
    ...lines.map(lineRow),
    "-".repeat(fullWidth),
    ...totals.map(total),
  ].join("\n");
}

/**
 * The lines (name, quantity, unit price, line total), then the subtotal, the "Remise contre signature" and
 * the discount when there are any, and the total: an HTML table with the numbers right-aligned in
 * tabular figures, and the same as aligned columns in the plain text.
 */
export function orderTable(order: OrderView): EmailPart {
  const totals = totalRows(order);
  const base = `padding:8px 0;${FONT}font-size:14px;line-height:20px;`;
  const head = (label: string, align: "left" | "right", extra = "") =>
    `<th class="muted" align="${align}" style="${base}${extra}border-bottom:2px solid ${RULE_COLOR};color:${MUTED_COLOR};font-weight:600;text-align:${align};">${escapeHtml(label)}</th>`;
  const num = (value: string, extra = "") =>
    `<td class="fg" align="right" style="${base}${extra}${NUMBERS}border-bottom:1px solid ${RULE_COLOR};color:${TEXT_COLOR};">${escapeHtml(value)}</td>`;
  const lineRows = order.lines.map(
    (line) =>
      `<tr><td class="fg" style="${base}padding-right:12px;border-bottom:1px solid ${RULE_COLOR};color:${TEXT_COLOR};">${escapeHtml(line.name)}${line.preorderNote ? `<br><span class="muted" style="font-size:12px;line-height:18px;color:${MUTED_COLOR};">${escapeHtml(line.preorderNote)}</span>` : ""}</td>` +
      num(String(line.quantity), "padding-right:12px;") +
      num(formatEuros(line.unitPriceCents), "padding-right:12px;") +
      num(formatEuros(line.lineTotalCents)) +
      `</tr>`,
  );
  const totalHtml = totals.map(({ label, amount, strong }, index) => {
    const style = `padding:${index === 0 ? "12px" : "4px"} 0 4px;${FONT}font-size:${strong ? 16 : 14}px;line-height:22px;${strong ? "font-weight:700;" : ""}color:${TEXT_COLOR};`;
    return (
      `<tr><td class="fg" colspan="3" align="right" style="${style}padding-right:12px;text-align:right;">${escapeHtml(label)}</td>` +
      `<td class="fg" align="right" style="${style}${NUMBERS}">${escapeHtml(amount)}</td></tr>`
    );
  });
  const html =
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse;">` +
    `<tr>${head("Article", "left", "padding-right:12px;")}${head("Qté", "right", "padding-right:12px;")}${head("Prix unit.", "right", "padding-right:12px;")}${head("Total", "right")}</tr>` +
    lineRows.join("") +
    totalHtml.join("") +
    `</table>`;
  return { html, text: orderTableText(order, totals) };
}

// ---------------------------------------------------------------------------------------------
// The delivery address

/** The address as lines: the relay point's name first for a relay, then the recipient, the phone last. */
export function addressLines(address: ShippingAddress): string[] {
  const place = [
    address.line1,
    address.line2,
    [address.postalCode, address.city].filter(Boolean).join(" "),
    countryName(address.country),
  ];
  const lines =
    address.method === "relay"
      ? [
          address.relayPointName?.trim()
            ? `Point relais : ${address.relayPointName.trim()}${address.relayPointId ? ` (n° ${address.relayPointId})` : ""}`
            : "Point relais",
          ...place,
          address.fullName ? `Destinataire : ${address.fullName}` : "",
        ]
      : [address.fullName, ...place];
  if (address.phone?.trim()) lines.push(`Tél. ${address.phone.trim()}`);
  return lines.map((line) => (line ?? "").trim()).filter((line) => line !== "");
}

function addressBlock(address: ShippingAddress | null): EmailPart {
  if (!address) return paragraph("Adresse de livraison non renseignée.");
  // What the buyer typed, inert: no address in it becomes a link (email-templates.ts).
  const lines = addressLines(address).map(inertText);
  return {
    html: `<p class="fg" style="margin:0 0 16px;${FONT}font-size:15px;line-height:22px;color:${TEXT_COLOR};">${lines.map(escapeHtml).join("<br>")}</p>`,
    text: lines.join("\n"),
  };
}

const deliveryTitle = (address: ShippingAddress | null) =>
  address?.method === "relay"
    ? "Livraison en point relais"
    : "Adresse de livraison";

// ---------------------------------------------------------------------------------------------
// The e-mails

/** Who sells (L221-5 and L221-13): the designation line (name, form, capital), address, registration, contacts; only what is given. */
function sellerBlock(seller: LegalIdentity): EmailPart {
  const rows: [string, string][] = [
    ["Vendeur", sellerDesignation(seller)],
    [isIndividualEntrepreneur(seller) ? "Adresse" : "Siège", seller.address],
    ["SIREN", joinGiven([seller.siren, sellerRegistration(seller)], " – ")],
    ["TVA intracommunautaire", seller.vatNumber],
    ["E-mail", seller.email],
    ["Téléphone", seller.phone],
  ];
  return details(rows.filter(([, value]) => value.trim() !== ""));
}

/** The model withdrawal form, filled with the seller's details (annex to R221-1). */
function withdrawalFormModel(seller: LegalIdentity): EmailPart {
  const lines = [
    WITHDRAWAL_FORM_MODEL.addressee({ name: sellerName(seller), address: seller.address, email: seller.email }),
    ...WITHDRAWAL_FORM_MODEL.lines,
  ].map((line) => `— ${line}`);
  return {
    html:
      `<div style="margin:0 0 16px;padding:12px 16px;border:1px dashed ${RULE_COLOR};border-radius:6px;${FONT}font-size:14px;line-height:21px;" class="fg">` +
      `<p style="margin:0 0 6px;font-weight:700;color:${TEXT_COLOR};">${escapeHtml(WITHDRAWAL_FORM_MODEL.title)}</p>` +
      `<p style="margin:0 0 8px;color:${MUTED_COLOR};">${escapeHtml(WITHDRAWAL_FORM_MODEL.instruction)}</p>` +
      lines
        .map(
          (line) =>
            `<p style="margin:0 0 6px;color:${TEXT_COLOR};">${escapeHtml(line)}</p>`,
        )
        .join("") +
      `<p style="margin:8px 0 0;color:${MUTED_COLOR};">${escapeHtml(WITHDRAWAL_FORM_MODEL.footnote)}</p></div>`,
    text: [
      WITHDRAWAL_FORM_MODEL.title,
      WITHDRAWAL_FORM_MODEL.instruction,
      ...lines,
      WITHDRAWAL_FORM_MODEL.footnote,
    ].join("\n"),
  };
}

/**
 * To the customer once the order is paid: the confirmation on a durable medium (Code de la
 * consommation L221-13): who sells, the order with its delivery and VAT, the invoice, the CGV,
 * the right of withdrawal with the model form and the withdrawal function, the legal guarantees
 * and the mediator.
 */
export function orderConfirmationEmail({
  shop,
  order,
  orderUrl,
  seller,
  invoiceUrl,
}: {
  shop: MailShop;
  order: OrderView;
  orderUrl: string | null;
  seller: LegalIdentity;
  invoiceUrl: string | null;
}): EmailContent {
  const total = formatEuros(order.totalCents);
  const invoice = order.documents.find((doc) => doc.kind === "invoice");
  const mediator = [seller.mediatorName, seller.mediatorUrl]
    .filter((value) => value.trim() !== "")
    .join(", ");
  // The saved identity is the one source (issue 52): no configured address stands in for an
  // e-mail /legal says is missing; the contact page does.
  const contactPage = `depuis notre page de contact (${shop.publicUrl}/contact)`;
  const writeTo = seller.email ? `par e-mail à ${seller.email}` : contactPage;
  return layout({ ...shop, email: seller.email }, {
    subject: `Confirmation de votre commande ${order.number} – ${shop.name}`,
    preheader: `Commande ${order.number} confirmée – total ${total}`,
    heading: "Merci pour votre commande !",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(
        `Nous avons bien reçu votre paiement : votre commande est confirmée. Nous la préparons avec soin. Voici son récapitulatif, à conserver.`,
      ),
      details([
        ["Commande", order.number],
        ["Date", formatParisDateTime(order.createdAt)],
        ...(order.paidAt
          ? [
              ["Paiement reçu le", formatParisDateTime(order.paidAt)] as [
                string,
                string,
              ],
            ]
          : []),
        ...(order.shipping
          ? [
              [
                "Livraison",
                `${order.shipping.methodName}${order.shipping.deliveryTime ? ` (${order.shipping.deliveryTime})` : ""}`,
              ] as [string, string],
            ]
          : []),
        ["Total TTC", total],
        ...(invoice ? [["Facture", invoice.number] as [string, string]] : []),
      ]),
      sectionTitle("Votre commande"),
      orderTable(order),
      ...(invoiceUrl
        ? [button("Télécharger ma facture (PDF)", invoiceUrl)]
        : []),
      sectionTitle(deliveryTitle(order.shippingAddress)),
      addressBlock(order.shippingAddress),
      ...(orderUrl ? [button("Voir ma commande", orderUrl)] : []),
      sectionTitle("Conditions générales de vente"),
      note(
        order.cgv
          ? `Votre commande est régie par nos conditions générales de vente, acceptées lors de la commande : elles sont jointes à cet e-mail (${cgvFileName(order.cgv.hash)}) et restent consultables dans la version de votre commande : ${shop.publicUrl}${cgvPath(order.cgv.hash)}`
          : `Votre commande est régie par nos conditions générales de vente, acceptées lors de la commande : ${shop.publicUrl}/legal`,
      ),
      sectionTitle("Droit de rétractation"),
      note(
        "Vous disposez de 14 jours à compter de la réception de vos articles pour vous rétracter, sans avoir à donner de motif. " +
          `Pour cela, utilisez notre fonction de rétractation en ligne : ${shop.publicUrl}/retractation, ou envoyez-nous avant la fin de ce délai une déclaration claire de votre décision, par exemple le formulaire ci-dessous, ${writeTo}, en indiquant le numéro de commande ${order.number}.`,
      ),
      note(
        "Renvoyez-nous ensuite les articles au plus tard 14 jours après nous avoir informés de votre décision. Les frais de retour sont à votre charge.",
      ),
      note(
        "Nous vous remboursons la totalité des sommes versées, frais de livraison standard compris, au plus tard 14 jours après avoir été informés de votre rétractation, avec le même moyen de paiement. " +
          "Nous pouvons attendre d'avoir reçu les articles, ou la preuve de leur expédition, pour vous rembourser.",
      ),
      note(
        "Un jeu vidéo descellé après livraison ne peut plus être retourné (article L221-28 du Code de la consommation). Un booster ou un display ouvert peut l'être, mais le remboursement peut être diminué de sa dépréciation (article L221-23).",
      ),
      withdrawalFormModel({ ...seller, companyName: seller.companyName || shop.name }),
      sectionTitle("Garanties légales"),
      ...GUARANTEE_NOTICE.map((text) => note(text)),
      sectionTitle("Médiation de la consommation"),
      note(
        mediator
          ? `En cas de litige, après une réclamation écrite restée sans réponse satisfaisante, vous pouvez recourir gratuitement au médiateur de la consommation : ${mediator}.`
          : `En cas de litige, après une réclamation écrite restée sans réponse satisfaisante, vous pouvez recourir gratuitement au médiateur de la consommation indiqué dans nos conditions générales de vente : ${shop.publicUrl}/legal`,
      ),
      sectionTitle("Le vendeur"),
      sellerBlock({ ...seller, companyName: seller.companyName || shop.name }),
      sectionTitle("Une question ?"),
      note(
        `Écrivez-nous ${seller.email ? `à ${seller.email}` : contactPage} en rappelant le numéro de commande ${order.number} : nous vous répondrons rapidement.`,
      ),
    ],
  });
}

/** To the seller: a new paid order to prepare. */
export function sellerNewOrderEmail({
  shop,
  order,
  adminUrl,
}: {
  shop: MailShop;
  order: OrderView;
  adminUrl: string;
}): EmailContent {
  const total = formatEuros(order.totalCents);
  return layout(shop, {
    subject: `Nouvelle commande ${order.number} – ${total}`,
    preheader: `${order.customerName?.trim() || "Un client"} – ${total} – à préparer`,
    heading: `Nouvelle commande ${order.number}`,
    parts: [
      paragraph("Une nouvelle commande a été payée : elle est à préparer."),
      details([
        ["Commande", order.number],
        ["Passée le", formatParisDateTime(order.createdAt)],
        ["Payée le", order.paidAt ? formatParisDateTime(order.paidAt) : "—"],
        ["Statut", ORDER_STATUS_LABELS[order.status] ?? order.status],
        ["Client", order.customerName?.trim() || "non renseigné"],
        ["E-mail", order.customerEmail?.trim() || "non renseigné"],
      ]),
      sectionTitle("Articles"),
      orderTable(order),
      sectionTitle(deliveryTitle(order.shippingAddress)),
      addressBlock(order.shippingAddress),
      button("Ouvrir l'administration", adminUrl),
    ],
  });
}

/** To the customer: paid after the reservation ended, the units sold meanwhile, the payment returned in full. */
export function latePaymentRefundEmail({
  shop,
  order,
}: {
  shop: MailShop;
  order: OrderView;
}): EmailContent {
  const total = formatEuros(order.totalCents);
  return layout(shop, {
    subject: `Commande ${order.number} : paiement remboursé – ${shop.name}`,
    preheader: `Votre paiement de ${total} vous est intégralement remboursé.`,
    heading: "Votre paiement a été remboursé",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(
        `Votre paiement pour la commande ${order.number} nous est parvenu après la fin du délai de réservation de vos articles, et certains d'entre eux ont été achetés par un autre client entre-temps. Nous ne pouvons donc pas honorer cette commande, et nous en sommes sincèrement désolés.`,
      ),
      paragraph(
        `Nous vous avons remboursé l'intégralité de votre paiement, soit ${total}. Le remboursement apparaîtra sur votre carte sous 5 à 10 jours ouvrés, selon votre banque. Vous n'avez rien d'autre à faire.`,
      ),
      sectionTitle("Commande remboursée"),
      orderTable(order),
      paragraph(
        "Nous espérons vous revoir bientôt : de nouveaux produits arrivent régulièrement.",
      ),
      button("Retourner sur la boutique", shop.publicUrl),
      note(
        `Une question ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number}.`,
      ),
    ],
  });
}

/** To the seller: a payment came after its reservation ended and the stock was gone; refunded automatically, or to refund by hand. */
export function sellerLatePaymentEmail({
  shop,
  order,
  refunded,
  adminUrl,
}: {
  shop: MailShop;
  order: OrderView;
  refunded: boolean;
  adminUrl: string;
}): EmailContent {
  const total = formatEuros(order.totalCents);
  return layout(shop, {
    subject: refunded
      ? `Paiement tardif remboursé – ${order.number}`
      : `À rembourser à la main – ${order.number}`,
    preheader: refunded
      ? `${total} remboursés automatiquement, rien à faire.`
      : `Le remboursement automatique de ${total} a échoué : remboursez le client à la main.`,
    heading: refunded
      ? "Paiement tardif remboursé automatiquement"
      : "Paiement tardif à rembourser à la main",
    parts: [
      ...(refunded
        ? []
        : [
            alert(
              `À faire : le remboursement automatique de ${total} a échoué. Remboursez le client à la main depuis votre prestataire de paiement.`,
            ),
          ]),
      paragraph(
        `Le paiement de la commande ${order.number} est arrivé après la fin de sa réservation, alors que le stock n'était plus disponible. La commande n'a pas été validée et aucun article n'a été vendu en trop.`,
      ),
      refunded
        ? paragraph(
            `Le client a été remboursé automatiquement de ${total} et prévenu par e-mail. Vous n'avez rien à faire.`,
          )
        : paragraph(
            "Le client n'a pas encore été prévenu : écrivez-lui une fois le remboursement fait.",
          ),
      details([
        ["Commande", order.number],
        ["Passée le", formatParisDateTime(order.createdAt)],
        ["Statut", ORDER_STATUS_LABELS[order.status] ?? order.status],
        ["Client", order.customerName?.trim() || "non renseigné"],
        ["E-mail", order.customerEmail?.trim() || "non renseigné"],
        ["Montant", total],
      ]),
      sectionTitle("Articles"),
      orderTable(order),
      button("Ouvrir l'administration", adminUrl),
    ],
  });
}

/** To the seller: a payment for another amount or currency than the order's, not fulfilled. */
export function sellerPaymentMismatchEmail({
  shop,
  order,
  received,
  adminUrl,
}: {
  shop: MailShop;
  order: OrderView;
  received: { cents: number | null; currency: string | null };
  adminUrl: string;
}): EmailContent {
  const expected = formatEuros(order.totalCents);
  const amount = received.cents === null ? "un montant inconnu" : `${formatEuros(received.cents)}${received.currency && received.currency !== "eur" ? ` (${received.currency.toUpperCase()})` : ""}`;
  return layout(shop, {
    subject: `Paiement à vérifier – ${order.number}`,
    preheader: `Reçu ${amount} au lieu de ${expected} : commande non validée.`,
    heading: "Paiement d'un montant différent de la commande",
    parts: [
      alert(`À faire : vérifiez ce paiement chez votre prestataire et remboursez-le. La commande ${order.number} n'a pas été validée.`),
      paragraph(
        `Le prestataire de paiement annonce ${amount} pour la commande ${order.number}, dont le total est ${expected}. La commande reste non payée : aucun article n'est expédié et ses articles seront remis en vente à la fin de la réservation.`,
      ),
      details([
        ["Commande", order.number],
        ["Total de la commande", expected],
        ["Montant annoncé", amount],
        ["Client", order.customerEmail?.trim() || "non renseigné"],
      ]),
      button("Ouvrir la commande", adminUrl),
    ],
  });
}

/** What the customer needs to follow the parcel. */
export type ShipmentNotice = {
  carrierLabel: string;
  trackingNumber: string;
  trackingUrl: string | null;
};

/** To the customer once the seller has shipped: the carrier, the tracking number and its link (SPEC.md /legal). */
export function orderShippedEmail({
  shop,
  order,
  shipment,
  orderUrl,
}: {
  shop: MailShop;
  order: OrderView;
  shipment: ShipmentNotice;
  orderUrl: string | null;
}): EmailContent {
  return layout(shop, {
    subject: `Votre commande ${order.number} a été expédiée – ${shop.name}`,
    preheader: `${shipment.carrierLabel} – numéro de suivi ${shipment.trackingNumber}`,
    heading: "Votre commande est en route !",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(
        `Bonne nouvelle : votre commande ${order.number} vient d'être confiée au transporteur. Voici de quoi suivre votre colis.`,
      ),
      details([
        ["Commande", order.number],
        ["Transporteur", shipment.carrierLabel],
        ["Numéro de suivi", shipment.trackingNumber],
      ]),
      shipment.trackingUrl
        ? button("Suivre mon colis", shipment.trackingUrl)
        : note(
            "Suivez votre colis sur le site du transporteur avec ce numéro de suivi.",
          ),
      sectionTitle(deliveryTitle(order.shippingAddress)),
      addressBlock(order.shippingAddress),
      sectionTitle("Votre commande"),
      orderTable(order),
      ...(orderUrl ? [button("Voir ma commande", orderUrl)] : []),
      note(
        `Une question ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number}.`,
      ),
    ],
  });
}

/** An order cancelled after payment and refunded in full: by the seller, or after the customer withdrew. */
function fullRefundEmail(
  shop: MailShop,
  order: OrderView,
  words: { subject: string; heading: string; opening: string; section: string },
  amountCents: number = order.totalCents,
): EmailContent {
  const total = formatEuros(order.totalCents);
  // Part of it may have gone back before (partial refunds): this refund gives the rest.
  const given = amountCents < order.totalCents ? `le reste de votre paiement, soit ${formatEuros(amountCents)} (${total} remboursés au total)` : `l'intégralité de votre paiement, soit ${total}`;
  return layout(shop, {
    subject: `${words.subject} – ${shop.name}`,
    preheader: `Votre paiement de ${total} vous est intégralement remboursé.`,
    heading: words.heading,
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(words.opening),
      paragraph(
        `Nous vous avons remboursé ${given}. Le remboursement apparaîtra sur votre moyen de paiement sous 5 à 10 jours ouvrés, selon votre banque. Vous n'avez rien d'autre à faire.`,
      ),
      sectionTitle(words.section),
      orderTable(order),
      button("Retourner sur la boutique", shop.publicUrl),
      note(
        `Une question ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number}.`,
      ),
    ],
  });
}

/**
 * To the customer: a drop's per-customer limit was already reached by other orders delivered to
 * the same address, so this one is not fulfilled and the payment went back in full.
 */
export function dropLimitRefundEmail({ shop, order }: { shop: MailShop; order: OrderView }): EmailContent {
  const total = formatEuros(order.totalCents);
  return layout(shop, {
    subject: `Commande ${order.number} : limite par client atteinte, paiement remboursé – ${shop.name}`,
    preheader: `Votre paiement de ${total} vous est intégralement remboursé.`,
    heading: "Limite par client atteinte",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(
        `Les produits de cette sortie sont limités par client, et d'autres commandes livrées à la même adresse en comptent déjà autant que la limite le permet. Nous ne pouvons donc pas honorer la commande ${order.number} : les articles sont remis en vente pour les autres collectionneurs.`,
      ),
      paragraph(
        `Nous vous avons remboursé l'intégralité de votre paiement, soit ${total}. Le remboursement apparaîtra sur votre carte sous 5 à 10 jours ouvrés, selon votre banque. Vous n'avez rien d'autre à faire.`,
      ),
      sectionTitle("Commande remboursée"),
      orderTable(order),
      note(`Une erreur ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number}.`),
    ],
  });
}

/** To the customer: the seller cancelled the paid order, and the payment went back in full. */
export function orderCancelledRefundEmail({
  shop,
  order,
  amountCents,
}: {
  shop: MailShop;
  order: OrderView;
  amountCents?: number;
}): EmailContent {
  return fullRefundEmail(shop, order, {
    subject: `Commande ${order.number} annulée et remboursée`,
    heading: "Votre commande a été annulée",
    opening: `Nous sommes désolés : nous ne pouvons pas honorer votre commande ${order.number}, et nous l'avons annulée.`,
    section: "Commande annulée",
  }, amountCents);
}

/** The refund of an order the customer withdrew from (the seller's "Annuler et rembourser" after it). */
export function withdrawalRefundEmail({
  shop,
  order,
  amountCents,
}: {
  shop: MailShop;
  order: OrderView;
  amountCents?: number;
}): EmailContent {
  return fullRefundEmail(shop, order, {
    subject: `Commande ${order.number} remboursée suite à votre rétractation`,
    heading: "Votre rétractation est remboursée",
    opening: `Suite à votre rétractation, nous avons annulé votre commande ${order.number}.`,
    section: "Commande remboursée",
  }, amountCents);
}

/** What a partial refund gave back, as its e-mail lists it. */
export type RefundEmailDetails = {
  amountCents: number;
  lines: { name: string; quantity: number; totalCents: number }[];
  shippingCents: number;
  insuranceCents: number;
  adjustment: { label: string; cents: number; reason: string } | null;
  creditNoteNumber: string | null;
  /** What the order has had back in all, this refund included. */
  refundedSoFarCents: number;
};

/** To the customer: part of their order was refunded (articles, delivery, a goodwill amount), with its credit note. */
export function partialRefundEmail({ shop, order, refund, orderUrl }: { shop: MailShop; order: OrderView; refund: RefundEmailDetails; orderUrl: string | null }): EmailContent {
  const amount = formatEuros(refund.amountCents);
  const rows: [string, string][] = [
    ...refund.lines.map((line): [string, string] => [`${line.quantity} × ${line.name}`, formatEuros(line.totalCents)]),
    ...(refund.shippingCents ? [["Livraison", formatEuros(refund.shippingCents)] as [string, string]] : []),
    ...(refund.insuranceCents ? [[SIGNATURE_DELIVERY_LABEL, formatEuros(refund.insuranceCents)] as [string, string]] : []),
    ...(refund.adjustment ? [[`${refund.adjustment.label} (${refund.adjustment.reason})`, formatEuros(refund.adjustment.cents)] as [string, string]] : []),
    ["Montant remboursé", amount],
    ...(refund.creditNoteNumber ? [["Avoir", refund.creditNoteNumber] as [string, string]] : []),
  ];
  const whole = refund.refundedSoFarCents >= order.totalCents;
  return layout(shop, {
    subject: `Commande ${order.number} : remboursement de ${amount} – ${shop.name}`,
    preheader: `Nous vous avons remboursé ${amount} sur votre commande ${order.number}.`,
    heading: "Remboursement effectué",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(
        `Nous vous avons remboursé ${amount} sur votre commande ${order.number}, sur le moyen de paiement utilisé pour la commande. Le remboursement apparaîtra sous 5 à 10 jours ouvrés, selon votre banque.`,
      ),
      sectionTitle("Détail du remboursement"),
      details(rows),
      paragraph(
        whole
          ? `Votre commande est désormais intégralement remboursée (${formatEuros(refund.refundedSoFarCents)}).`
          : `Remboursé à ce jour sur cette commande : ${formatEuros(refund.refundedSoFarCents)} sur ${formatEuros(order.totalCents)}.`,
      ),
      ...(orderUrl ? [button("Voir ma commande", orderUrl)] : []),
      note(`Une question ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number}.`),
    ],
  });
}

/** Why a pre-order was not served in full: what both pre-order refund e-mails say (issue 55). */
const PREORDER_SHORTAGE_REASON =
  "Le distributeur ne nous a livré qu'une partie des exemplaires que nous avions commandés pour cette sortie, moins que les précommandes reçues. Nous avons réparti les exemplaires reçus entre les précommandes selon une règle annoncée et identique pour tous";

/** To the customer: none of their pre-ordered units could be served (a short delivery), the payment went back in full. */
export function preorderShortageRefundEmail({ shop, order, amountCents }: { shop: MailShop; order: OrderView; amountCents?: number }): EmailContent {
  return fullRefundEmail(
    shop,
    order,
    {
      subject: `Commande ${order.number} : précommande non honorée, paiement remboursé`,
      heading: "Toutes nos excuses : précommande non honorée",
      opening: `${PREORDER_SHORTAGE_REASON}, et votre précommande ${order.number} n'a malheureusement pas pu être servie. Nous en sommes sincèrement désolés.`,
      section: "Précommande remboursée",
    },
    amountCents,
  );
}

/** To the customer: part of their pre-ordered units could be served (2 of 3), the missing ones are refunded with their credit note. */
export function preorderPartialRefundEmail({ shop, order, refund, orderUrl }: { shop: MailShop; order: OrderView; refund: RefundEmailDetails; orderUrl: string | null }): EmailContent {
  const amount = formatEuros(refund.amountCents);
  const missing = refund.lines.map((line) => `${line.quantity} × ${line.name}`).join(", ");
  return layout(shop, {
    subject: `Commande ${order.number} : précommande servie en partie, ${amount} remboursés – ${shop.name}`,
    preheader: `Nous vous avons remboursé ${amount} pour les exemplaires que nous n'avons pas reçus.`,
    heading: "Toutes nos excuses : précommande servie en partie",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(`${PREORDER_SHORTAGE_REASON} : votre précommande ${order.number} n'a pu être servie qu'en partie. Nous en sommes sincèrement désolés.`),
      paragraph(
        `Les exemplaires qui vous sont attribués partiront dès leur réception. Nous vous avons remboursé ceux qui manquent (${missing}), soit ${amount}, sur le moyen de paiement utilisé pour la commande : le remboursement apparaîtra sous 5 à 10 jours ouvrés, selon votre banque. Vous n'avez rien d'autre à faire.`,
      ),
      sectionTitle("Détail du remboursement"),
      details([
        ...refund.lines.map((line): [string, string] => [`${line.quantity} × ${line.name}`, formatEuros(line.totalCents)]),
        ["Montant remboursé", amount],
        ...(refund.creditNoteNumber ? [["Avoir", refund.creditNoteNumber] as [string, string]] : []),
      ]),
      ...(orderUrl ? [button("Voir ma commande", orderUrl)] : []),
      note(`Une question ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number}.`),
    ],
  });
}

/** To the customer: all their pre-ordered units are served by the allocation (issue 55: every buyer hears the outcome once). */
export function preorderServedEmail({ shop, order, productName, units, estimatedDeliveryOn, orderUrl }: { shop: MailShop; order: OrderView; productName: string; units: number; estimatedDeliveryOn: string; orderUrl: string | null }): EmailContent {
  return layout(shop, {
    subject: `Commande ${order.number} : votre précommande est confirmée – ${shop.name}`,
    preheader: `Vos ${units} exemplaire(s) de ${productName} vous sont attribués.`,
    heading: "Votre précommande est confirmée",
    parts: [
      greeting(order.customerName ?? ""),
      paragraph(
        `Nous avons reçu les exemplaires de ${productName} et réparti la livraison du distributeur entre les précommandes : votre précommande ${order.number} est servie en entier (${units} exemplaire(s)).`,
      ),
      paragraph(`Elle part dès que possible, pour une livraison estimée au ${formatCalendarDate(estimatedDeliveryOn)}. Vous recevrez le numéro de suivi à l'expédition.`),
      ...(orderUrl ? [button("Voir ma commande", orderUrl)] : []),
      note(`Une question ? Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number}.`),
    ],
  });
}
