import { describe, expect, it } from "vitest";
import { redirectFor } from "./redirects";

describe("redirectFor", () => {
  it.each([
    ["/checkout", "/cart", 302],
    ["/products", "/catalog", 301],
    ["/shop", "/catalog", 301],
    ["/register", "/signup", 301],
    ["/cgv", "/legal", 301],
    ["/mentions-legales", "/legal", 301],
    ["/terms", "/legal", 301],
    ["/produit/42", "/product/42", 301],
  ])("%s → %s (%i)", (from, location, status) => {
    expect(redirectFor(from)).toEqual({ location, status });
  });

  it("keeps the query string", () => {
    expect(redirectFor("/shop", "?category=sealed&page=2")).toEqual({ location: "/catalog?category=sealed&page=2", status: 301 });
    expect(redirectFor("/produit/42", "?ref=ig")).toEqual({ location: "/product/42?ref=ig", status: 301 });
  });

  it("ignores trailing slashes", () => {
    expect(redirectFor("/checkout/")).toEqual({ location: "/cart", status: 302 });
    expect(redirectFor("/cgv//")).toEqual({ location: "/legal", status: 301 });
    expect(redirectFor("/produit/42/")).toEqual({ location: "/product/42", status: 301 });
  });

  it("matches case-insensitively", () => {
    expect(redirectFor("/CGV")).toEqual({ location: "/legal", status: 301 });
  });

  it.each(["/", "/catalog", "/cart", "/foo", "/produit", "/produit/", "/produit/42/extra", "/checkout/step"])(
    "does not redirect %s",
    (path) => {
      expect(redirectFor(path)).toBeNull();
    },
  );
});
