/**
 * What a customer agrees to by switching an alert of their wish list on (decisions 066, 067),
 * shown beside the switches on /account/liste and stored with the item when they save an alert
 * on (wishlist_items.consent_text, consented_at), as the « Prévenez-moi » consent is. Apart from
 * the rules (wishlist-alerts.ts): the browser imports this alone.
 */
export const WISHLIST_ALERT_CONSENT_TEXT =
  "En activant une alerte, j'accepte d'être prévenu par e-mail, à l'adresse de mon compte, quand ce produit revient en stock, quand sa sortie ouvre ou quand il atteint le prix que j'ai fixé, selon les alertes activées ; je peux les couper à tout moment.";
