import { ALERT_CONSENT_TEXT } from "./stock-alert-consent";
import { WISHLIST_ALERT_CONSENT_TEXT } from "./wishlist-consent";
import {
  CART_CODE_KEY,
  CART_DELIVERY_KEY,
  CART_KEY,
  DISMISSED_MESSAGES_KEY,
  DROP_TICKET_SECONDS,
  PENDING_CHECKOUT_KEY,
  RECEIPT_COOKIE,
  RECEIPT_VIEW_MS,
  SCROLL_POSITIONS_KEY,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  THEME_STORAGE_KEY,
  TWO_FACTOR_COOKIE,
  TWO_FACTOR_COOKIE_SECONDS,
  VIEWER_CHECKED_KEY,
  VIEWER_COOKIE,
} from "./browser-storage";
import { ADMISSION_COOKIE_PREFIX, TICKET_COOKIE_PREFIX } from "./drop-cookies";
import { CODE_MINUTES, COLLECTOR_COOKIE, COLLECTOR_HOURS } from "./drop-identity";
import { RATE_LIMITS } from "./rate-limits";
import { RETENTION } from "./retention";
import { ADMISSION_MINUTES } from "./waiting-room";

/**
 * The privacy notice's two tables (components/legal/privacy-policy.tsx renders them), built from
 * the constants the code and the retention job (services/retention.server.ts) use: a period or a
 * cookie changed there changes the notice. Built by the /legal loader: the constants' modules
 * (zod, ipaddr.js) stay out of the page's JavaScript.
 */
export type Processing = { purpose: string; data: string; basis: string; kept: string };
export type BrowserStorage = { name: string; where: string; purpose: string; kept: string };
export type PrivacyNotice = { processing: Processing[]; storage: BrowserStorage[] };

type Unit = "minute" | "heure" | "jour" | "mois" | "an";

/** "3 ans", "1 heure", "25 mois": a period as the notice writes it. */
export function duration(amount: number, unit: Unit): string {
  return `${amount}\u00a0${unit}${amount > 1 && unit !== "mois" ? "s" : ""}`;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A period in milliseconds, in its largest whole unit. */
export function durationOfMs(ms: number): string {
  if (ms % DAY_MS === 0) return duration(ms / DAY_MS, "jour");
  if (ms % HOUR_MS === 0) return duration(ms / HOUR_MS, "heure");
  return duration(Math.ceil(ms / MINUTE_MS), "minute");
}

/** Accounting records: ten years from the end of the financial year (Code de commerce L123-22); nothing deletes them. */
export const ACCOUNTING_RECORDS_YEARS = 10;

/** Not a limit: the networks an account was signed into from (domain/rate-limits.ts). */
const { signInKnownAddress, ...attemptLimits } = RATE_LIMITS;
const longestAttemptWindowMs = Math.max(...Object.values(attemptLimits).map((rule) => rule.windowMs));

export function privacyNotice(): PrivacyNotice {
  const R = RETENTION;
  const session = durationOfMs(SESSION_MAX_AGE_SECONDS * 1000);
  return {
    processing: [
      {
        purpose: "Compte client",
        data: "nom, adresse e-mail, mot de passe (conservé sous forme hachée, illisible), rôle, dates d'inscription et de dernière connexion, profil professionnel si vous l'enregistrez (raison sociale, SIREN, n° de TVA, pays)",
        basis: "exécution du contrat (article 6.1.b du RGPD)",
        kept: `jusqu'à la suppression du compte, à votre demande, ou après ${duration(R.inactiveAccountYears, "an")} sans connexion\u00a0: un e-mail vous prévient ${duration(R.inactiveAccountWarningDays, "jour")} avant, et vous connecter suffit à conserver le compte (un compte dont une commande est en cours est conservé jusqu'à sa clôture)`,
      },
      {
        purpose: "Commandes, facturation et rétractations",
        data: "nom, adresse e-mail, adresse de facturation, produits, montants, code de réduction, statut du paiement (jamais le numéro de carte), transporteur et numéro de suivi, demandes de rétractation",
        basis: "exécution du contrat, puis obligations légales comptables et fiscales (article 6.1.c)",
        kept: `${duration(ACCOUNTING_RECORDS_YEARS, "an")} à compter de la clôture de l'exercice (article L.\u00a0123-22 du code de commerce)`,
      },
      {
        purpose: "Livraison et service après-vente",
        data: "adresse de livraison ou point relais, nom du destinataire, téléphone",
        basis: "exécution du contrat, puis intérêt légitime à traiter une demande au titre de la garantie légale de conformité (articles 6.1.b et 6.1.f)",
        kept: `${duration(R.orderContactMonths, "mois")} après l'expédition de la commande (la garantie légale de conformité court deux ans à compter de la livraison)\u00a0; seuls le mode de livraison et le pays restent ensuite avec la commande`,
      },
      {
        purpose: "Demandes de contact et de rachat",
        data: "nom, prénom, adresse e-mail, téléphone (rachat), message, photographies des cartes envoyées pour une estimation, nos réponses",
        basis: "mesures précontractuelles prises à votre demande et intérêt légitime à vous répondre (articles 6.1.b et 6.1.f)",
        kept: `${duration(R.inboxRequestYears, "an")} à compter du dernier échange, puis anonymisées\u00a0; les photographies d'une demande close\u00a0: ${duration(R.closedBuybackPhotoMonths, "mois")} après son dernier changement`,
      },
      {
        purpose: "Rachat de vos cartes (offre acceptée)",
        data: "nom, prénom, adresse postale, type, numéro, date et autorité de délivrance de votre pièce d'identité, description et prix des objets achetés, mode de paiement (et, pour un virement, titulaire et IBAN du compte)",
        basis: "obligation légale de tenir le registre des objets mobiliers (articles 321-7 et R321-3 et suivants du Code pénal\u00a0; article 6.1.c) et exécution du contrat de rachat (article 6.1.b)",
        kept: `registre\u00a0: ${duration(R.purchaseRegisterYears, "an")} à compter de chaque inscription au registre (article R321-6-1 du Code pénal)\u00a0; votre IBAN et la copie de ces données jointe à la demande\u00a0: comme la demande`,
      },
      {
        purpose: "Alertes «\u00a0Prévenez-moi\u00a0» (disponibilité d'un produit)",
        data: `adresse e-mail, produit, texte que vous avez accepté («\u00a0${ALERT_CONSENT_TEXT}\u00a0») et date de votre confirmation`,
        basis: "votre consentement (article 6.1.a), donné en suivant le lien de confirmation reçu par e-mail\u00a0; vous le retirez à tout moment par le lien de désinscription de chaque e-mail, sans vous connecter",
        kept: `jusqu'à l'envoi de l'alerte ou votre désinscription, puis ${duration(R.stockAlertClosedDays, "jour")}\u00a0; une alerte jamais confirmée\u00a0: ${duration(R.stockAlertClosedDays, "jour")}`,
      },
      {
        purpose: "Carnet d'adresses",
        data: "adresses de livraison et de facturation, points relais (nom, identifiant du transporteur, adresse) que vous enregistrez dans votre compte",
        basis: "exécution du contrat (article 6.1.b)\u00a0: vous les proposer au paiement",
        kept: "jusqu'à ce que vous les supprimiez, ou jusqu'à la suppression du compte",
      },
      {
        purpose: "Liste d'envies et ses alertes",
        data: `produits de votre liste, alertes choisies (retour en stock, ouverture d'une vente, prix fixé), texte accepté («\u00a0${WISHLIST_ALERT_CONSENT_TEXT}\u00a0»), dates d'ajout et d'activation`,
        basis: "exécution du contrat pour la liste\u00a0; pour ses alertes, désactivées à l'ajout d'un produit, votre consentement (article 6.1.a), donné en activant une alerte dans la liste et retiré à tout moment dans la liste, dans «\u00a0Gérer mes e-mails\u00a0» ou par le lien de désinscription de chaque e-mail",
        kept: "jusqu'à ce que vous retiriez le produit de la liste, ou jusqu'à la suppression du compte",
      },
      {
        purpose: "E-mails envoyés par la boutique",
        data: "destinataire, objet et contenu des e-mails (confirmations de commande, d'expédition, de compte, accusés de réception, alertes)",
        basis: "exécution du contrat et intérêt légitime à prouver l'information donnée",
        kept: `objet et contenu\u00a0: ${duration(R.outboxBodyDays, "jour")} après l'envoi, sauf la confirmation de commande, conservée avec la commande\u00a0; destinataire, type et date de l'envoi\u00a0: ${duration(R.outboxTraceYears, "an")}`,
      },
      {
        purpose: "Ventes à quantité limitée (file d'attente, limite par client)",
        data: "réseau depuis lequel vous commandez ou entrez dans la file d'attente (adresse IPv4, ou préfixe /64 d'une adresse IPv6), adresse e-mail confirmée par un code pour un départ équitable",
        basis: "intérêt légitime à répartir équitablement les produits en quantité limitée (article 6.1.f)",
        kept: `réseau\u00a0: ${duration(R.orderNetworkDays, "jour")} après la commande ou l'entrée dans la file\u00a0; code envoyé par e-mail\u00a0: ${duration(CODE_MINUTES, "minute")}`,
      },
      {
        purpose: "Sécurité du site",
        data: "adresse IP, navigateur, pages demandées, erreurs techniques, compteurs de tentatives (connexion, inscription, formulaires, paiement), réseaux depuis lesquels vous vous êtes connecté à votre compte",
        basis: "intérêt légitime à protéger le site et ses clients contre les abus (article 6.1.f)",
        kept: `journaux techniques\u00a0: douze mois au plus\u00a0; compteurs de tentatives\u00a0: ${durationOfMs(longestAttemptWindowMs)} au plus, puis effacés sous ${duration(R.expiredRowsGraceDays, "jour")}\u00a0; réseaux de connexion à votre compte (ils vous évitent d'être bloqué par les tentatives d'un tiers)\u00a0: ${durationOfMs(signInKnownAddress.windowMs)} après la dernière connexion depuis chacun\u00a0; session de connexion\u00a0: ${session} au plus`,
      },
    ],
    storage: [
      {
        name: SESSION_COOKIE,
        where: "cookie (HttpOnly), seulement si vous vous connectez",
        purpose: "vous garder connecté à votre compte ou à l'administration",
        kept: `${session} au plus, supprimé à la déconnexion`,
      },
      {
        name: TWO_FACTOR_COOKIE,
        where: "cookie (HttpOnly), administration seulement",
        purpose: "retenir la connexion en cours entre le mot de passe et le code de double authentification",
        kept: durationOfMs(TWO_FACTOR_COOKIE_SECONDS * 1000),
      },
      {
        name: VIEWER_COOKIE,
        where: "cookie, seulement si vous vous connectez",
        purpose: "afficher le lien vers votre compte dès l'affichage de la page (votre nom et votre rôle\u00a0; ce cookie ne permet pas de se connecter)",
        kept: "comme la session, supprimé à la déconnexion",
      },
      {
        name: RECEIPT_COOKIE,
        where: "cookie (HttpOnly, signé), quand vous passez au paiement",
        purpose: "afficher le détail de votre commande sur la page de confirmation, à ce navigateur seulement",
        kept: durationOfMs(RECEIPT_VIEW_MS),
      },
      {
        name: `${TICKET_COOKIE_PREFIX}N`,
        where: "cookie (HttpOnly), si vous entrez dans la file d'attente d'une vente (N\u00a0: numéro du produit)",
        purpose: "garder votre place dans la file d'attente",
        kept: durationOfMs(DROP_TICKET_SECONDS * 1000),
      },
      {
        name: `${ADMISSION_COOKIE_PREFIX}N`,
        where: "cookie (HttpOnly, signé), quand votre tour arrive (N\u00a0: numéro du produit)",
        purpose: "vous laisser commander le produit pendant votre tour",
        kept: `la durée de votre tour, ${duration(ADMISSION_MINUTES, "minute")}`,
      },
      {
        name: COLLECTOR_COOKIE,
        where: "cookie (HttpOnly, signé), si vous confirmez votre adresse pour un départ équitable",
        purpose: "retenir l'adresse e-mail confirmée par le code",
        kept: duration(COLLECTOR_HOURS, "heure"),
      },
      { name: CART_KEY, where: "stockage local du navigateur", purpose: "garder le contenu de votre panier", kept: "jusqu'à ce que vous vidiez le panier" },
      {
        name: CART_DELIVERY_KEY,
        where: "stockage local du navigateur",
        purpose: "retenir le pays, le mode de livraison et le point relais choisis dans le panier",
        kept: "jusqu'à ce que vous les changiez",
      },
      { name: CART_CODE_KEY, where: "stockage local du navigateur", purpose: "retenir le code de réduction saisi", kept: "jusqu'à ce que vous le retiriez" },
      { name: THEME_STORAGE_KEY, where: "stockage local du navigateur", purpose: "retenir le thème clair ou sombre que vous avez choisi", kept: "jusqu'à ce que vous le changiez" },
      {
        name: PENDING_CHECKOUT_KEY,
        where: "stockage de session du navigateur",
        purpose: "libérer les articles réservés si vous revenez de la page de paiement sans payer",
        kept: "jusqu'à la fermeture de l'onglet",
      },
      {
        name: DISMISSED_MESSAGES_KEY,
        where: "stockage de session du navigateur",
        purpose: "ne plus afficher les messages d'information que vous avez fermés",
        kept: "jusqu'à la fermeture de l'onglet",
      },
      {
        name: SCROLL_POSITIONS_KEY,
        where: "stockage de session du navigateur",
        purpose: "retrouver l'endroit de la page où vous étiez quand vous revenez en arrière",
        kept: "jusqu'à la fermeture de l'onglet",
      },
      {
        name: VIEWER_CHECKED_KEY,
        where: "stockage de session du navigateur",
        purpose: "vérifier une fois auprès du site que l'affichage de votre connexion est à jour",
        kept: "jusqu'à la fermeture de l'onglet",
      },
    ],
  };
}
