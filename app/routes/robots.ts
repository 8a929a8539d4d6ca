import { PUBLIC_PAGE_CACHE_CONTROL, methodNotAllowed } from "~/lib/http";
import { robotsTxt } from "~/lib/sitemap";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(robotsTxt(context.publicUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL },
  });
}

/** A post here is a script's: this address is only read. */
export function action() {
  return methodNotAllowed("GET, HEAD");
}
