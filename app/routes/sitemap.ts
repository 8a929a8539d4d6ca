import { productPath } from "~/domain/product-url";
import { PUBLIC_PAGE_CACHE_CONTROL } from "~/lib/http";
import { SITEMAP_PAGES, sitemapXml } from "~/lib/sitemap";
import { listSitemapProducts } from "~/services/sitemap.server";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  const products = await listSitemapProducts(context.db, new Date());
  const xml = sitemapXml(context.publicUrl, [
    ...SITEMAP_PAGES.map((path) => ({ path })),
    ...products.map((p) => ({ path: productPath(p), lastmod: p.updatedAt })),
  ]);
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL },
  });
}

export { readOnlyAction as action } from "~/lib/http";
