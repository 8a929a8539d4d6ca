import { z } from "zod";
import { ORDER_STATUS_LABELS, type OrderStatus } from "./catalog-values";

/**
 * What the seller may do with an order, and the shipment form (carrier, tracking number).
 * Pure rules shared by the admin order page and its actions (services/admin-orders.server.ts),
 * which check them again in SQL with a conditional UPDATE.
 */

// ---------------------------------------------------------------------------------------------
// Carriers and tracking links

export const CARRIER_IDS = ["colissimo", "mondial_relay", "chronopost", "lettre_suivie", "ups", "dhl", "autre"] as const;
export type CarrierId = (typeof CARRIER_IDS)[number];

export const CARRIER_LABELS: Record<CarrierId, string> = {
  colissimo: "Colissimo",
  mondial_relay: "Mondial Relay",
  chronopost: "Chronopost",
  lettre_suivie: "La Poste Lettre suivie",
  ups: "UPS",
  dhl: "DHL",
  autre: "Autre",
};

/** The carriers' public tracking pages, which take the number in their query string. */
const TRACKING_PAGES: Record<Exclude<CarrierId, "autre">, (number: string) => string> = {
  colissimo: (n) => `https://www.laposte.fr/outils/suivre-vos-envois?code=${n}`,
  lettre_suivie: (n) => `https://www.laposte.fr/outils/suivre-vos-envois?code=${n}`,
  mondial_relay: (n) => `https://www.mondialrelay.fr/suivi-de-colis/?NumeroExpedition=${n}`,
  chronopost: (n) => `https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=${n}&langue=fr`,
  ups: (n) => `https://www.ups.com/track?loc=fr_FR&tracknum=${n}`,
  dhl: (n) => `https://www.dhl.com/fr-fr/home/suivi.html?tracking-id=${n}&submit=1`,
};

/** "6A 1234 5678 9" → "6A123456789": carriers print numbers in groups, their sites want them whole. */
export function normaliseTrackingNumber(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase();
}

/**
 * The customer's tracking link: the carrier's page for the number, or for "Autre" the link the
 * seller gave (none if they gave none).
 */
export function trackingUrlFor(carrier: CarrierId, trackingNumber: string, otherUrl?: string | null): string | null {
  if (carrier === "autre") return otherUrl?.trim() || null;
  return TRACKING_PAGES[carrier](encodeURIComponent(trackingNumber));
}

/** The label of a stored carrier id (an unknown one is shown as stored). */
export function carrierLabel(carrier: string | null): string | null {
  if (!carrier) return null;
  return (CARRIER_LABELS as Record<string, string>)[carrier] ?? carrier;
}

export const TRACKING_NUMBER_MIN = 4;
export const TRACKING_NUMBER_MAX = 40;

/** The "Marquer comme expédiée" form, checked in the dialog and again by the action. */
export const shipOrderSchema = z
  .object({
    carrier: z.enum(CARRIER_IDS, { error: "Choisissez un transporteur." }),
    trackingNumber: z
      .string({ error: "Indiquez le numéro de suivi." })
      .transform(normaliseTrackingNumber)
      .pipe(
        z
          .string()
          .min(1, "Indiquez le numéro de suivi.")
          .min(TRACKING_NUMBER_MIN, `Le numéro de suivi doit contenir au moins ${TRACKING_NUMBER_MIN} caractères.`)
          .max(TRACKING_NUMBER_MAX, `Le numéro de suivi doit contenir au plus ${TRACKING_NUMBER_MAX} caractères.`)
          .regex(/^[A-Z0-9-]+$/, "Le numéro de suivi ne peut contenir que des lettres, des chiffres et des tirets."),
      ),
    /** Only for "Autre": the carrier's tracking page, optional. */
    trackingUrl: z.string().trim().max(500, "Le lien de suivi doit contenir au plus 500 caractères.").optional(),
  })
  .superRefine((value, ctx) => {
    if (value.carrier !== "autre" || !value.trackingUrl) return;
    if (!isHttpsUrl(value.trackingUrl)) ctx.addIssue({ code: "custom", path: ["trackingUrl"], message: "Le lien de suivi doit être une adresse commençant par https://." });
  });

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

export type ShipOrderInput = z.output<typeof shipOrderSchema>;
export type Shipment = { carrier: CarrierId; trackingNumber: string; trackingUrl: string | null };

/** What the order records once the form is valid. */
export function shipmentOf(input: ShipOrderInput): Shipment {
  return { carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl: trackingUrlFor(input.carrier, input.trackingNumber, input.trackingUrl) };
}

// ---------------------------------------------------------------------------------------------
// Transitions

/**
 * The seller's actions and the one status each starts from. Cancel-and-refund is offered for a
 * paid order only: a shipped parcel's units are not on the shelf, so putting them back and
 * refunding in one click would be wrong until the parcel comes back (docs/decisions).
 */
export const ORDER_ACTION_FROM = {
  ship: "paid",
  cancelRefund: "paid",
  retryRefund: "refund_pending",
} as const satisfies Record<string, OrderStatus>;
export type OrderAction = keyof typeof ORDER_ACTION_FROM;

/** What else decides an action: an order the customer withdrew from before it left is to cancel and refund, not to ship. */
type OrderFacts = { withdrawn?: boolean };

export function canDo(action: OrderAction, status: OrderStatus, { withdrawn = false }: OrderFacts = {}): boolean {
  return ORDER_ACTION_FROM[action] === status && !(withdrawn && action === "ship");
}

/** The actions the order page offers for a status. */
export function availableActions(status: OrderStatus, facts: OrderFacts = {}): OrderAction[] {
  return (Object.keys(ORDER_ACTION_FROM) as OrderAction[]).filter((action) => canDo(action, status, facts));
}

export const WITHDRAWN_NOT_SHIPPED =
  "Le client s'est rétracté avant l'envoi\u00a0: cette commande ne s'expédie pas, annulez-la et remboursez-la.";

const UNPAID: OrderStatus[] = ["pending_payment", "cancelled", "expired"];

/** Why an action is refused for an order in this status (the 409's French message). */
export function refusalMessage(action: OrderAction, status: OrderStatus, { withdrawn = false }: OrderFacts = {}): string {
  if (action === "ship") {
    if (status === "paid" && withdrawn) return WITHDRAWN_NOT_SHIPPED;
    if (status === "shipped") return "Cette commande a déjà été expédiée\u00a0: aucun nouvel envoi n'a été enregistré.";
    if (status === "refunded" || status === "refund_pending") return "Cette commande a été annulée et remboursée\u00a0: elle ne peut plus être expédiée.";
    return "Cette commande n'a pas été payée\u00a0: elle ne peut pas être expédiée.";
  }
  if (status === "refunded") return "Cette commande a déjà été remboursée\u00a0: aucun nouveau remboursement n'a été fait.";
  if (action === "retryRefund") return `Aucun remboursement n'est en attente pour cette commande (statut\u00a0: ${ORDER_STATUS_LABELS[status]}).`;
  if (status === "refund_pending") return "Le remboursement de cette commande est déjà en cours.";
  if (status === "shipped") return "Cette commande a déjà été expédiée\u00a0: elle ne peut plus être annulée depuis la boutique. Remboursez un colis retourné depuis votre prestataire de paiement.";
  if (UNPAID.includes(status)) return "Cette commande n'a pas été payée\u00a0: il n'y a rien à rembourser.";
  return `Cette commande ne peut pas être annulée (statut\u00a0: ${ORDER_STATUS_LABELS[status]}).`;
}

export const ORDER_NOT_FOUND = "Cette commande n'existe pas.";
export const REFUND_PROVIDER_FAILED =
  "Le prestataire de paiement n'a pas pu effectuer le remboursement. La commande reste «\u00a0Remboursement en cours\u00a0»\u00a0: un nouvel essai est fait automatiquement toutes les 5 minutes, ou réessayez depuis cette page.";

export const PROVIDER_LABELS: Record<string, string> = { stripe: "Stripe", test: "Paiement de test" };

/** The provider that took the payment must be the one that gives it back. */
export function otherProviderMessage(orderProvider: string): string {
  return `Cette commande a été payée avec un autre prestataire (${PROVIDER_LABELS[orderProvider] ?? orderProvider}) que celui configuré aujourd'hui\u00a0: remboursez-la depuis celui-ci.`;
}
