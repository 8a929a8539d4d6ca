import { data } from "react-router";
import { NotFound } from "~/components/layout/not-found";
import type { Route } from "./+types/not-found";

export function loader({ request, context }: Route.LoaderArgs) {
  context.logger.info({ path: new URL(request.url).pathname }, "404 not found");
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: "Page introuvable" },
  { name: "robots", content: "noindex" },
];

export default function NotFoundRoute() {
  return <NotFound />;
}
