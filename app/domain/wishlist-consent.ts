/**
 * What a customer agrees to by keeping a product on their wish list with its alerts (decision
 * 067), stored with each item (wishlist_items.consent_text, the wording of the day the item was
 * added), as the « Prévenez-moi » consent is. The list's page and the heart show it. Apart from
 * the rules (wishlist-alerts.ts): the schema and the browser import this alone.
 */
export const WISHLIST_ALERT_CONSENT_TEXT =
  "Je serai prévenu par e-mail, à l'adresse de mon compte, quand ce produit revient en stock, quand sa sortie ouvre ou quand il atteint le prix que j'ai fixé, selon les alertes que je garde ; je peux les couper à tout moment.";
