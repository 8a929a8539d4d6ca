/**
 * What the person agrees to with "Prévenez-moi", stored with the alert once confirmed. Apart
 * from the form's schema (stock-alerts.ts): the form shows it on the page, and loads the schema
 * (zod) only when it is sent (decision 023).
 */
export const ALERT_CONSENT_TEXT =
  "J'accepte de recevoir un e-mail quand ce produit sera en vente. Mon adresse ne sert qu'à cela, et je peux me désinscrire à tout moment.";
