import type { DropStartMode } from "./drop-form";
import { limitText } from "./drop-limit-text";

/**
 * A drop's rules for buyers (issue 39): how many units one customer may have across all their
 * orders, whether an account is needed, how long a checkout holds its units. Who "one customer"
 * is comes from keys that survive the tricks of a script: the account, the e-mail address
 * normalised (case, gmail's dots, +tags), the delivery address once the payment gives it
 * (domain/address-key.ts), and, loosely, the client's network (domain/network-key.ts).
 */

export type DropRules = {
  productId: number;
  /** Units one customer may have in paid and pending orders together. */
  perCustomerLimit: number;
  accountRequired: boolean;
  /** How long a checkout of this product holds its units (minutes). */
  holdMinutes: number;
  startMode: DropStartMode;
  /** Fair start: arrivals in these last minutes before the opening are placed in a random order. */
  fairWindowMinutes: number;
};

/**
 * Unpaid drop orders that may be open at once from one network (an IPv4 address, an IPv6 /64).
 * Loose on purpose: a household, an office or a mobile operator's NAT puts many real buyers
 * behind one address; this only stops one script from holding a drop's whole stock.
 */
export const UNPAID_DROP_ORDERS_PER_NETWORK = 4;

const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * One mailbox, one key: lower case, the +tag dropped (most providers deliver `a+x@` to `a@`),
 * and for Gmail the dots of the local part too (`j.ean@gmail.com` is `jean@gmail.com`), with
 * googlemail.com as gmail.com.
 */
export function emailKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

/** The drop line a checkout asks for. */
export type DropLine = { productId: number; name: string; quantity: number; rules: DropRules };

/** Why a checkout of a drop product is refused, with the French message that names the limit. */
export type DropRefusal = {
  code: "DROP_LIMIT" | "DROP_PENDING" | "DROP_ACCOUNT" | "DROP_EMAIL" | "DROP_NETWORK" | "DROP_ADMISSION";
  status: 401 | 403 | 409 | 422 | 429;
  error: string;
  details: string;
  productId?: number;
};

/** More units in one cart than the limit allows: refused before anything else. */
export function quantityRefusal(line: DropLine): DropRefusal | null {
  if (line.quantity <= line.rules.perCustomerLimit) return null;
  return {
    code: "DROP_LIMIT",
    status: 422,
    error: limitText(line.rules.perCustomerLimit),
    details: `${line.name} est ${limitText(line.rules.perCustomerLimit).toLowerCase()} : réduisez la quantité dans votre panier.`,
    productId: line.productId,
  };
}

/** A drop that needs an account, or an e-mail address to count by, from a buyer who gave neither. */
export function identityRefusal(line: DropLine, buyer: { signedIn: boolean; email: string | null }): DropRefusal | null {
  if (line.rules.accountRequired && !buyer.signedIn) {
    return {
      code: "DROP_ACCOUNT",
      status: 401,
      error: "Compte requis",
      details: `${line.name} est réservé aux clients connectés : connectez-vous ou créez un compte, puis validez à nouveau votre panier.`,
      productId: line.productId,
    };
  }
  if (!buyer.email) {
    return {
      code: "DROP_EMAIL",
      status: 422,
      error: "Adresse e-mail requise",
      details: `Indiquez votre adresse e-mail : ${line.name} est ${limitText(line.rules.perCustomerLimit).toLowerCase()}.`,
      productId: line.productId,
    };
  }
  return null;
}

/** The units this customer already has (paid or pending) plus this cart's, over the limit. */
export function limitRefusal(line: DropLine, alreadyHeld: number): DropRefusal | null {
  if (alreadyHeld + line.quantity <= line.rules.perCustomerLimit) return null;
  const left = Math.max(0, line.rules.perCustomerLimit - alreadyHeld);
  return {
    code: "DROP_LIMIT",
    status: 409,
    error: limitText(line.rules.perCustomerLimit),
    details:
      left === 0
        ? `${line.name} est ${limitText(line.rules.perCustomerLimit).toLowerCase()}, et vos commandes payées ou en attente de paiement en comptent déjà ${alreadyHeld}.`
        : `${line.name} est ${limitText(line.rules.perCustomerLimit).toLowerCase()} : vous pouvez encore en commander ${left}.`,
    productId: line.productId,
  };
}

export function pendingRefusal(line: DropLine): DropRefusal {
  return {
    code: "DROP_PENDING",
    status: 409,
    error: "Commande déjà en attente",
    details: `Vous avez déjà une commande de ${line.name} en attente de paiement : payez-la ou annulez-la avant d'en commencer une autre (une seule à la fois par client).`,
    productId: line.productId,
  };
}

export function networkRefusal(productId: number): DropRefusal {
  return {
    productId,
    code: "DROP_NETWORK",
    status: 429,
    error: "Trop de commandes en attente",
    details: `Déjà ${UNPAID_DROP_ORDERS_PER_NETWORK} commandes de sortie attendent leur paiement depuis votre connexion. Réessayez quand l'une d'elles sera payée ou annulée.`,
  };
}

/** A drop with a waiting room, bought without an admission (or with one forged, ended or used). */
export function admissionRefusal(line: Pick<DropLine, "productId" | "name">): DropRefusal {
  return {
    code: "DROP_ADMISSION",
    status: 403,
    error: "Attendez votre tour",
    details: `${line.name} se commande par sa file d'attente : rejoignez-la sur sa fiche produit, puis commandez quand votre tour arrive.`,
    productId: line.productId,
  };
}
