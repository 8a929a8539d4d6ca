/** Legacy and alias paths of SPEC.md, answered as real HTTP redirects. */
const FIXED: Record<string, { to: string; status: 301 | 302 }> = {
  // The cart is where checkout starts; a dedicated checkout page may come back, so not permanent.
  "/checkout": { to: "/cart", status: 302 },
  "/products": { to: "/catalog", status: 301 },
  "/shop": { to: "/catalog", status: 301 },
  "/register": { to: "/signup", status: 301 },
  "/cgv": { to: "/legal", status: 301 },
  "/mentions-legales": { to: "/legal", status: 301 },
  "/terms": { to: "/legal", status: 301 },
};

/** Where a request path should be redirected to, keeping its query string; null when it should not. */
export function redirectFor(pathname: string, search = ""): { location: string; status: 301 | 302 } | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const fixed = FIXED[path.toLowerCase()];
  if (fixed) return { location: fixed.to + search, status: fixed.status };
  const produit = /^\/produit\/([^/]+)$/i.exec(path);
  if (produit) return { location: `/product/${produit[1]}${search}`, status: 301 };
  return null;
}
