import { describe, expect, it } from "vitest";
import {
  containsPattern,
  decideErasure,
  decideRoleChange,
  UNCONFIRMED_PROMOTION,
  erasedAddress,
  erasedEmail,
  formatDay,
  parseUserListQuery,
  userActionSchema,
  userCountText,
  usersListHref,
} from "./admin-users";

const parse = (search: string) => parseUserListQuery(new URLSearchParams(search));

describe("users page URL and texts", () => {
  it("reads the search and the page, anything unreadable as the default", () => {
    expect(parse("")).toEqual({ q: "", page: 1 });
    expect(parse("q=%20Marie%20&page=3")).toEqual({ q: "Marie", page: 3 });
    expect(parse("page=-1")).toEqual({ q: "", page: 1 });
    expect(parse("page=abc")).toEqual({ q: "", page: 1 });
    expect(parse(`q=${"x".repeat(101)}`)).toEqual({ q: "", page: 1 });
  });

  it("round-trips through the URL and leaves the defaults out", () => {
    expect(usersListHref({ q: "", page: 1 })).toBe("/admin/users");
    const href = usersListHref({ q: "jean d'arc", page: 2 });
    expect(href).toBe("/admin/users?q=jean+d%27arc&page=2");
    expect(parse(href.split("?")[1]!)).toEqual({ q: "jean d'arc", page: 2 });
  });

  it("takes LIKE wildcards literally", () => {
    expect(containsPattern("marie")).toBe("%marie%");
    expect(containsPattern("100%_a\\b")).toBe("%100\\%\\_a\\\\b%");
  });

  it("counts in French (0 and 1 singular)", () => {
    expect(userCountText(0)).toBe("0 utilisateur");
    expect(userCountText(1)).toBe("1 utilisateur");
    expect(userCountText(3)).toBe("3 utilisateurs");
    expect(userCountText(1200)).toBe("1\u202f200 utilisateurs");
  });

  it("shows a day as dd/MM/yyyy in Paris, or N/A", () => {
    expect(formatDay(null)).toBe("N/A");
    expect(formatDay("2026-03-05T10:00:00.000Z")).toBe("05/03/2026");
    // 23:30 UTC on 31 December is already New Year's Day in Paris.
    expect(formatDay("2026-12-31T23:30:00.000Z")).toBe("01/01/2027");
  });

  it("reads the actions with one schema, refusing anything else in French", () => {
    expect(userActionSchema.parse({ intent: "erase" })).toEqual({ intent: "erase" });
    const refused = userActionSchema.safeParse({ intent: "delete" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("Action inconnue.");
  });
});

describe("role changes", () => {
  const admin = { id: "a1", role: "admin" as const, erased: false, emailVerified: true };
  const customer = { id: "c1", role: "user" as const, erased: false, emailVerified: true };

  it("never promotes an account whose address is not confirmed (a squatter of a colleague's address)", () => {
    expect(decideRoleChange({ actorId: "a2", target: { ...customer, emailVerified: false }, role: "admin", adminCount: 1 })).toEqual({
      kind: "refuse",
      message: UNCONFIRMED_PROMOTION,
    });
    expect(UNCONFIRMED_PROMOTION).toMatch(/^Cette adresse e-mail n'est pas confirmée/);
    // Demoting one stays possible.
    expect(decideRoleChange({ actorId: "a2", target: { ...admin, emailVerified: false }, role: "user", adminCount: 2 })).toEqual({ kind: "change" });
  });

  it("promotes a customer and demotes another admin while one remains", () => {
    expect(decideRoleChange({ actorId: "a2", target: customer, role: "admin", adminCount: 1 })).toEqual({ kind: "change" });
    expect(decideRoleChange({ actorId: "a2", target: admin, role: "user", adminCount: 2 })).toEqual({ kind: "change" });
  });

  it("never demotes yourself, even with other admins", () => {
    expect(decideRoleChange({ actorId: "a1", target: admin, role: "user", adminCount: 3 })).toEqual({
      kind: "refuse",
      message: "Vous ne pouvez pas retirer vos propres droits d'administrateur.",
    });
  });

  it("never demotes the last admin", () => {
    expect(decideRoleChange({ actorId: "other", target: admin, role: "user", adminCount: 1 })).toEqual({
      kind: "refuse",
      message: "Impossible de retirer le dernier administrateur.",
    });
  });

  it("a second click changes nothing; an erased account keeps its role", () => {
    expect(decideRoleChange({ actorId: "a2", target: admin, role: "admin", adminCount: 2 })).toEqual({ kind: "unchanged" });
    expect(decideRoleChange({ actorId: "a2", target: customer, role: "user", adminCount: 1 })).toEqual({ kind: "unchanged" });
    expect(decideRoleChange({ actorId: "a2", target: { ...customer, erased: true }, role: "admin", adminCount: 1 })).toMatchObject({ kind: "refuse" });
  });
});

describe("erasure", () => {
  const customer = { id: "c1", role: "user" as const, erased: false };

  it("erases a customer with nothing left to settle", () => {
    expect(decideErasure({ actorId: "a1", target: customer, openOrders: 0 })).toEqual({ kind: "change" });
  });

  it("refuses yourself, an admin, and a customer with an open order", () => {
    expect(decideErasure({ actorId: "c1", target: customer, openOrders: 0 })).toMatchObject({ kind: "refuse", message: "Vous ne pouvez pas effacer votre propre compte." });
    expect(decideErasure({ actorId: "a1", target: { ...customer, role: "admin" }, openOrders: 0 })).toMatchObject({ kind: "refuse", message: expect.stringContaining("Retirez d'abord") });
    expect(decideErasure({ actorId: "a1", target: customer, openOrders: 1 })).toMatchObject({ kind: "refuse", message: expect.stringContaining("commande en cours") });
  });

  it("erasing twice is harmless", () => {
    expect(decideErasure({ actorId: "a1", target: { ...customer, erased: true }, openOrders: 0 })).toEqual({ kind: "unchanged" });
  });

  it("gives a unique address that can never receive mail", () => {
    expect(erasedEmail("AbC123xyz")).toBe("efface-abc123xyz@invalid.invalid");
    expect(erasedEmail("a1")).not.toBe(erasedEmail("a2"));
  });

  it("keeps only the delivery method and the country of an address", () => {
    const erased = erasedAddress({
      method: "relay",
      fullName: "Marie Curie",
      relayPointName: "Tabac du Marché",
      line1: "12 rue des Lilas",
      line2: "Bât. B",
      postalCode: "75011",
      city: "Paris",
      country: "FR",
      phone: "0612345678",
    });
    expect(erased).toEqual({ method: "relay", fullName: "Client supprimé", line1: "[effacé]", postalCode: "", city: "[effacé]", country: "FR" });
  });
});
