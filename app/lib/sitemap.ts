import { absoluteUrl } from "./seo";

/** The public pages of SPEC.md section 2 that search engines should index, products aside. */
export const SITEMAP_PAGES = [
  "/",
  "/tcg?category=sealed",
  "/tcg?category=cards",
  "/tcg?category=other-cards",
  "/catalog",
  "/accessories",
  "/entertainment",
  "/about",
  "/contact",
  "/rachat",
  "/legal",
] as const;

/** Private or per-visitor areas that have nothing to index. */
export const ROBOTS_DISALLOW = ["/admin", "/account", "/api/", "/cart", "/merci", "/test-email"] as const;

export type SitemapEntry = { path: string; lastmod?: Date };

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
}

/** A sitemaps.org urlset with absolute URLs ("&" of query strings escaped, as XML requires). */
export function sitemapXml(publicUrl: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastmod ? `<lastmod>${entry.lastmod.toISOString()}</lastmod>` : "";
    return `  <url><loc>${escapeXml(absoluteUrl(publicUrl, entry.path))}</loc>${lastmod}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${absoluteUrl(publicUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
