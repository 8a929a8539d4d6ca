import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("tcg", "routes/tcg.tsx"),
  route("catalog", "routes/catalog.tsx"),
  route("product/:slug", "routes/product.tsx"),
  route("accessories", "routes/accessories.tsx"),
  route("entertainment", "routes/entertainment.tsx"),
  route("construction", "routes/construction.tsx"),
  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("account", "routes/account.tsx"),
  route("logout", "routes/logout.ts"),
  route("verify-email", "routes/verify-email.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  ...prefix("admin", [
    route("login", "routes/admin/login.tsx"),
    route("unauthorized", "routes/admin/unauthorized.tsx"),
    layout("routes/admin/layout.tsx", [
      index("routes/admin/index.tsx"),
      route("emails", "routes/admin/emails.tsx"),
      route("emails/:id", "routes/admin/email.tsx"),
    ]),
  ]),
  route("api/search", "routes/api.search.ts"),
  route("api/products/:id/similar", "routes/api.similar-products.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
