import { button, type EmailContent, layout, type MailShop, note, paragraph } from "./email-templates";
import { formatEuros } from "./money";

/**
 * The e-mails of a "Prévenez-moi" alert: the confirmation of the double opt-in, then the one
 * e-mail when the product is on sale. They go to an address someone typed: nothing in them is
 * what a visitor typed but the address itself.
 */
export function alertConfirmEmail({ shop, product, confirmUrl, unsubscribeUrl }: { shop: MailShop; product: string; confirmUrl: string; unsubscribeUrl: string }): EmailContent {
  return layout(shop, {
    subject: `Confirmez votre alerte – ${shop.name}`,
    preheader: `Un clic pour être prévenu quand « ${product} » sera en vente.`,
    heading: "Confirmez votre alerte",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`Vous avez demandé à être prévenu quand « ${product} » sera en vente sur ${shop.name}. Confirmez cette alerte : vous recevrez alors un seul e-mail, à ce moment-là.`),
      button("Confirmer l'alerte", confirmUrl),
      note(`Vous n'avez rien demandé ? Ignorez cet e-mail : sans confirmation, aucune alerte n'est envoyée. Pour l'annuler tout de suite : ${unsubscribeUrl}`),
    ],
  });
}

/**
 * `unsubscribeUrl`: the one-click link that switches every alert of this address off
 * (services/email-choices.server.ts). `why`: the closing note, when the alert is not a
 * « Prévenez-moi » (the wish list's: wishlistAlertNote).
 */
export function alertAvailableEmail({ shop, product, productUrl, unsubscribeUrl, why }: { shop: MailShop; product: string; productUrl: string; unsubscribeUrl: string; why?: string }): EmailContent {
  return layout(shop, {
    subject: `« ${product} » est en vente – ${shop.name}`,
    preheader: "Le produit que vous attendiez est disponible.",
    heading: "C'est le moment !",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`« ${product} » est en vente sur ${shop.name}. Les quantités sont limitées : les premiers arrivés sont les premiers servis.`),
      button("Voir le produit", productUrl),
      note(why ?? `Vous recevez cet e-mail parce que vous avez confirmé une alerte pour ce produit ; c'est le seul. Ne plus recevoir d'alertes « Prévenez-moi » : ${unsubscribeUrl}`),
    ],
  });
}

/** Why a wish-list alert came, where its alerts are chosen, and the one-click link that stops them all. */
export function wishlistAlertNote({ listUrl, unsubscribeUrl }: { listUrl: string; unsubscribeUrl: string }): string {
  return `Vous recevez cet e-mail parce que ce produit est dans votre liste, avec cette alerte activée ; vous la recevrez à nouveau seulement s'il se passe autre chose. Choisir vos alertes : ${listUrl}. Ne plus recevoir aucune alerte : ${unsubscribeUrl}`;
}

/** The wish list's price alert (issue 56): the price is at or under the figure the customer set, and the product on sale. */
export function wishlistPriceEmail({ shop, product, priceCents, productUrl, listUrl, unsubscribeUrl }: { shop: MailShop; product: string; priceCents: number; productUrl: string; listUrl: string; unsubscribeUrl: string }): EmailContent {
  const price = formatEuros(priceCents);
  return layout(shop, {
    subject: `« ${product} » est à ${price} – ${shop.name}`,
    preheader: `Le prix que vous attendiez est atteint : ${price}.`,
    heading: "Votre prix est atteint",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`« ${product} » est à ${price} sur ${shop.name} : c'est le prix que vous aviez fixé dans votre liste, ou moins. Il est en stock ; les quantités sont limitées.`),
      button("Voir le produit", productUrl),
      note(wishlistAlertNote({ listUrl, unsubscribeUrl })),
    ],
  });
}

/**
 * The one-time code of a fair start's waiting room (issue 50): it proves the mailbox of the
 * collector who joins. Nothing else: no link to follow, nothing that a typed address could misuse.
 */
export function dropCodeEmail({ shop, product, code, minutes }: { shop: MailShop; product: string; code: string; minutes: number }): EmailContent {
  return layout(shop, {
    subject: `Votre code pour la file d'attente – ${shop.name}`,
    preheader: `Votre code : ${code}`,
    heading: "Votre code pour la file d'attente",
    parts: [
      paragraph("Bonjour,"),
      paragraph(`Pour rejoindre la file d'attente de « ${product} » sur ${shop.name}, saisissez ce code sur la page du produit (valable ${minutes} minutes) :`),
      paragraph(`Votre code : ${code}`),
      note("Une place par collectionneur : ce code confirme votre adresse e-mail pour cette sortie. Vous n'avez rien demandé ? Ignorez cet e-mail."),
    ],
  });
}
