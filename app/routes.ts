import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("tcg", "routes/tcg.tsx"),
  route("catalog", "routes/catalog.tsx"),
  route("product/:slug", "routes/product.tsx"),
  route("accessories", "routes/accessories.tsx"),
  route("entertainment", "routes/entertainment.tsx"),
  route("construction", "routes/construction.tsx"),
  route("api/search", "routes/api.search.ts"),
  route("api/products/:id/similar", "routes/api.similar-products.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
