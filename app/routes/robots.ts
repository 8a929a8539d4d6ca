import { PUBLIC_PAGE_CACHE_CONTROL } from "~/lib/http";
import { robotsTxt } from "~/lib/sitemap";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(robotsTxt(context.publicUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL },
  });
}

export { readOnlyAction as action } from "~/lib/http";
