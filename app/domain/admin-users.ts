import { z } from "zod";
import type { OrderStatus } from "./catalog-values";
import type { ShippingAddress } from "./order-view";
import { parsePageNumber } from "./pagination";
import { textParam } from "./query-params";
import { countOf } from "./numbers";
import { formatParisShortDate } from "./paris-time";

/**
 * The admin's users page (SPEC.md "Users page") and a user's page: the list's URL, its texts,
 * and the rules of role changes and GDPR erasure as pure decisions (the services apply them
 * inside their transactions, services/admin-users.server.ts and gdpr.server.ts).
 */
export const USERS_PAGE_SIZE = 20;
export const USER_SEARCH_MAX_LENGTH = 100;

/** Orders whose money the shop kept: the figures of the users page count these only. */
export const PAID_ORDER_STATUSES = ["paid", "shipped"] as const satisfies readonly OrderStatus[];
/** Orders the seller still has to settle (take the payment, ship, or refund). */
export const OPEN_ORDER_STATUSES = ["pending_payment", "paid", "refund_pending"] as const satisfies readonly OrderStatus[];

export type UserListQuery = { q: string; page: number };

/** `?q=` (name or e-mail) and `?page=`; anything unreadable is the default. */
export function parseUserListQuery(params: URLSearchParams): UserListQuery {
  return { q: textParam(params.get("q"), USER_SEARCH_MAX_LENGTH), page: parsePageNumber(params.get("page")) };
}

export function usersListHref(query: UserListQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `/admin/users?${search}` : "/admin/users";
}

/** `text` for a LIKE pattern, its wildcards taken literally ("jean_d" is not "jean-d"). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching `text` anywhere. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** "1 utilisateur", "3 utilisateurs" (0 is singular in French). */
export function userCountText(total: number): string {
  return countOf(total, "utilisateur");
}

/** dd/MM/yyyy as the day is in Paris, or "N/A" without a date (SPEC.md "Dernière commande"). */
export function formatDay(iso: string | null): string {
  return iso ? formatParisShortDate(iso) : "N/A";
}

export const ROLE_LABELS = { user: "Client", admin: "Administrateur" } as const;
export type Role = keyof typeof ROLE_LABELS;

/** The actions of a user's page; the form and the server read them with this one schema. */
export const userActionSchema = z.object({ intent: z.enum(["promote", "demote", "erase"], { message: "Action inconnue." }) });
export type UserAction = z.infer<typeof userActionSchema>["intent"];

export type Decision = { kind: "change" } | { kind: "unchanged" } | { kind: "refuse"; message: string };

/** Why an account whose e-mail address is not confirmed cannot become an admin. */
export const UNCONFIRMED_PROMOTION =
  "Cette adresse e-mail n'est pas confirmée : son titulaire doit d'abord cliquer sur le lien de confirmation reçu à l'inscription, puis vous pourrez le nommer administrateur.";

/**
 * Whether `actorId` may give `target` the role `role`, `adminCount` being the number of admins
 * read under lock. Never yourself down, never the last admin down, never an erased account, and
 * never up an account whose address is not confirmed: whoever signed up with a colleague's
 * address before them would become the admin.
 */
export function decideRoleChange(input: {
  actorId: string;
  target: { id: string; role: Role; erased: boolean; emailVerified: boolean };
  role: Role;
  adminCount: number;
}): Decision {
  const { actorId, target, role, adminCount } = input;
  if (target.erased) return { kind: "refuse", message: "Ce compte a été effacé : son rôle ne peut plus changer." };
  if (target.role === role) return { kind: "unchanged" };
  if (role === "admin" && !target.emailVerified) return { kind: "refuse", message: UNCONFIRMED_PROMOTION };
  if (role === "user") {
    if (target.id === actorId) return { kind: "refuse", message: "Vous ne pouvez pas retirer vos propres droits d'administrateur." };
    if (adminCount <= 1) return { kind: "refuse", message: "Impossible de retirer le dernier administrateur." };
  }
  return { kind: "change" };
}

/**
 * Whether `actorId` may erase `target`. An admin is demoted first (a deliberate second step),
 * and a customer with an order still to settle keeps their data until it is: the seller needs
 * the address to ship, and a payment in progress would write the payment page's details back.
 */
export function decideErasure(input: { actorId: string; target: { id: string; role: Role; erased: boolean }; openOrders: number }): Decision {
  const { actorId, target, openOrders } = input;
  if (target.erased) return { kind: "unchanged" };
  if (target.id === actorId) return { kind: "refuse", message: "Vous ne pouvez pas effacer votre propre compte." };
  if (target.role === "admin") return { kind: "refuse", message: "Retirez d'abord les droits d'administrateur de ce compte avant d'effacer ses données." };
  if (openOrders > 0) {
    return {
      kind: "refuse",
      message: "Ce client a une commande en cours (paiement en attente, à expédier ou à rembourser) : traitez-la avant d'effacer ses données.",
    };
  }
  return { kind: "change" };
}

/** What erased personal data becomes. */
export const ERASED_NAME = "Client supprimé";
export const ERASED_TEXT = "[effacé]";

/** A unique address that can never receive mail (.invalid is reserved, RFC 2606). */
export function erasedEmail(userId: string): string {
  return `efface-${userId.toLowerCase().replace(/[^a-z0-9-]/g, "")}@invalid.invalid`;
}

/**
 * An erased order's address: only the delivery method and the country stay, which the accounts
 * need (VAT follows the destination country); street, town, postal code, phone and relay point
 * would point back to the person.
 */
export function erasedAddress(address: ShippingAddress): ShippingAddress {
  return { method: address.method, fullName: ERASED_NAME, line1: ERASED_TEXT, postalCode: "", city: ERASED_TEXT, country: address.country };
}
