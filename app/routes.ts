import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("catalog", "routes/catalog.tsx"),
  route("construction", "routes/construction.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
