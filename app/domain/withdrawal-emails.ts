import type { WithdrawalSource } from "./catalog-values";
import { type EmailContent, type MailShop, button, contactWay, greeting, inertText, layout, note, paragraph } from "./email-templates";
import { formatEuros } from "./money";
import { details, sectionTitle } from "./order-emails";
import type { OrderView } from "./order-view";
import { WITHDRAWAL_SOURCE_LABELS, type WithdrawnLine, refundDeadline, requestMoment } from "./withdrawal";

/**
 * The withdrawal's e-mails (acknowledgement to the buyer, notice to the seller), apart from
 * ./withdrawal.ts so that the /retractation page's bundle does not carry the e-mail templates.
 */

/** `customerName`: the name given in the withdrawal form ("Nom du (des) consommateur(s)"). */
/** `withdrawn`: the articles withdrawn (absent: all of them, `whole`). */
type WithdrawalEmailInput = { shop: MailShop; order: OrderView; requestedAt: Date | string; customerName: string; withdrawn?: WithdrawnLine[]; whole?: boolean };

const allOf = (order: OrderView): WithdrawnLine[] => order.lines.map((line) => ({ orderItemId: "", name: line.name, quantity: line.quantity, bought: line.quantity }));

/** The articles withdrawn, one line each: name and units. */
function withdrawnDetails(withdrawn: readonly WithdrawnLine[]) {
  return details(withdrawn.map((line) => [inertText(line.name), line.quantity === line.bought ? `${line.quantity}` : `${line.quantity} sur ${line.bought}`]));
}

function returnInstructions(order: OrderView, deadline: string, returnAddress: string | null, whole: boolean) {
  if (order.status === "paid") {
    return [
      paragraph(
        whole
          ? "Votre commande n'a pas encore été expédiée : nous ne l'expédierons pas, et vous n'avez rien à nous renvoyer."
          : "Votre commande n'a pas encore été expédiée : nous n'expédierons pas les articles ci-dessus, et vous n'avez rien à nous renvoyer.",
      ),
    ];
  }
  const where = returnAddress?.trim()
    ? `à l'adresse suivante : ${returnAddress.trim()}`
    : `à l'adresse que nous vous indiquerons : écrivez-nous pour la recevoir`;
  return [
    paragraph(`Renvoyez-nous les articles au plus tard le ${deadline}, soit 14 jours après votre demande, ${where}. Indiquez le numéro de commande ${order.number} dans le colis.`),
    note("Les frais de retour sont à votre charge. Emballez soigneusement les articles et gardez la preuve de leur envoi : nous pouvons attendre d'avoir reçu les articles, ou cette preuve, pour vous rembourser."),
  ];
}

/**
 * To the customer, at once: the acknowledgement of their withdrawal on a durable medium, with
 * what they declared (their name, the order), the date and time it was received, the order's
 * products, and what happens next.
 */
export function withdrawalAcknowledgementEmail({ shop, order, requestedAt, customerName, returnAddress, withdrawn = allOf(order), whole = true }: WithdrawalEmailInput & { returnAddress: string | null }): EmailContent {
  const { date, time } = requestMoment(requestedAt);
  const deadline = refundDeadline(requestedAt);
  return layout(shop, {
    subject: `Accusé de réception de votre rétractation – commande ${order.number}`,
    preheader: `Reçue le ${date} à ${time} : remboursement au plus tard le ${deadline}.`,
    heading: "Votre rétractation est enregistrée",
    parts: [
      greeting(customerName),
      paragraph(
        `Nous avons bien reçu, le ${date} à ${time} (heure de Paris), votre rétractation du contrat de la commande ${order.number}. Cet e-mail en est l'accusé de réception : conservez-le.`,
      ),
      details([
        ["Au nom de", inertText(customerName)],
        ["Commande", order.number],
        ["Demande reçue le", `${date} à ${time} (heure de Paris)`],
        ["Montant payé", formatEuros(order.totalCents)],
      ]),
      sectionTitle(whole ? "Articles concernés : toute la commande" : "Articles dont vous vous rétractez"),
      withdrawnDetails(withdrawn),
      sectionTitle("Et maintenant ?"),
      paragraph(
        `Nous vous remboursons ${whole ? "la totalité des sommes versées, frais de livraison standard compris" : "le prix des articles dont vous vous rétractez (les frais de livraison standard ne sont remboursés qu'avec toute la commande)"} au plus tard le ${deadline}, soit 14 jours après votre demande, avec le moyen de paiement utilisé pour la commande${order.status === "paid" ? "" : ", éventuellement une fois les articles reçus ou la preuve de leur envoi fournie"}.`,
      ),
      ...returnInstructions(order, deadline, returnAddress, whole),
      sectionTitle("Une question ?"),
      note(`Écrivez-nous ${contactWay(shop)} en rappelant le numéro de commande ${order.number} : nous vous répondrons rapidement.`),
    ],
  });
}

/** To the seller: a customer withdrew; refund within 14 days, and do not ship an unshipped order. */
export function sellerWithdrawalEmail({ shop, order, requestedAt, customerName, source, email, adminUrl, withdrawn = allOf(order), whole = true }: WithdrawalEmailInput & { source: WithdrawalSource; email: string; adminUrl: string }): EmailContent {
  const { date, time } = requestMoment(requestedAt);
  const deadline = refundDeadline(requestedAt);
  return layout(shop, {
    subject: `Rétractation demandée – commande ${order.number}`,
    preheader: `Reçue le ${date} à ${time} : remboursement au plus tard le ${deadline}.`,
    heading: `Rétractation de la commande ${order.number}`,
    parts: [
      paragraph(`Le client s'est rétracté ${WITHDRAWAL_SOURCE_LABELS[source]}, le ${date} à ${time}. Il a reçu un accusé de réception par e-mail.`),
      paragraph(
        order.status === "paid"
          ? whole
            ? `La commande n'est pas expédiée : ne l'expédiez pas, et remboursez-la au plus tard le ${deadline}.`
            : `La commande n'est pas expédiée : n'expédiez pas les articles ci-dessous, et remboursez-les au plus tard le ${deadline}.`
          : `La commande est expédiée : le client vous renvoie les articles. Remboursez-le au plus tard le ${deadline} ; vous pouvez attendre d'avoir reçu les articles ou la preuve de leur envoi.`,
      ),
      details([
        ["Commande", order.number],
        ["Demande reçue le", `${date} à ${time}`],
        ["Au nom de", inertText(customerName)],
        ["Client de la commande", inertText(order.customerName?.trim() || "non renseigné")],
        ["E-mail", email],
        ["À rembourser avant le", deadline],
        ["Montant de la commande", formatEuros(order.totalCents)],
        ["Rétractation", whole ? "toute la commande" : "une partie des articles"],
      ]),
      sectionTitle("Articles retirés du contrat"),
      withdrawnDetails(withdrawn),
      button("Ouvrir la commande", adminUrl),
    ],
  });
}
