import { describe, expect, it } from "vitest";
import { DEFAULT_ORDER_QUERY, adminOrderListHref, emptyOrdersText, hasOrderFilters, itemCountText, ordersFoundText, parseAdminOrderQuery } from "./admin-order-list";

const parse = (search: string) => parseAdminOrderQuery(new URLSearchParams(search));

describe("parseAdminOrderQuery", () => {
  it("reads search, status and page", () => {
    expect(parse("q=%20marie%40example.com%20&status=paid&page=3")).toEqual({ q: "marie@example.com", status: "paid", page: 3 });
  });

  it("falls back to the defaults on anything unknown or out of range", () => {
    expect(parse("")).toEqual(DEFAULT_ORDER_QUERY);
    expect(parse("status=livree&page=0")).toEqual(DEFAULT_ORDER_QUERY);
    expect(parse("status=PAID&page=-2")).toEqual(DEFAULT_ORDER_QUERY);
    expect(parse("page=2.5")).toEqual(DEFAULT_ORDER_QUERY);
    expect(parse(`q=${"x".repeat(101)}`)).toEqual(DEFAULT_ORDER_QUERY);
  });
});

describe("adminOrderListHref", () => {
  it("writes only what differs from the defaults, and round-trips", () => {
    expect(adminOrderListHref(DEFAULT_ORDER_QUERY)).toBe("/admin/orders");
    expect(adminOrderListHref({ q: "", status: "paid", page: 1 })).toBe("/admin/orders?status=paid");
    const query = { q: "CPT-123 & co", status: "refunded" as const, page: 4 };
    const href = adminOrderListHref(query);
    expect(href).toBe("/admin/orders?q=CPT-123+%26+co&status=refunded&page=4");
    expect(parseAdminOrderQuery(new URL(href, "http://x").searchParams)).toEqual(query);
  });
});

describe("texts", () => {
  it("counts in French", () => {
    expect(ordersFoundText(0)).toBe("0 commande trouvée");
    expect(ordersFoundText(1)).toBe("1 commande trouvée");
    expect(ordersFoundText(1250)).toBe("1\u202f250 commandes trouvées");
    expect(itemCountText(1)).toBe("1 article");
    expect(itemCountText(3)).toBe("3 articles");
  });

  it("says why the list is empty", () => {
    expect(hasOrderFilters(DEFAULT_ORDER_QUERY)).toBe(false);
    expect(emptyOrdersText(DEFAULT_ORDER_QUERY)).toBe("Aucune commande pour le moment.");
    expect(emptyOrdersText({ ...DEFAULT_ORDER_QUERY, status: "paid" })).toBe("Aucune commande à expédier\u00a0: tout est parti\u00a0!");
    expect(emptyOrdersText({ ...DEFAULT_ORDER_QUERY, status: "refunded" })).toBe("Aucune commande avec ce statut.");
    expect(emptyOrdersText({ ...DEFAULT_ORDER_QUERY, q: "zorglub" })).toBe("Aucune commande ne correspond à «\u00a0zorglub\u00a0».");
  });
});
