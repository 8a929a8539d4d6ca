import { describe, expect, it } from "vitest";
import { escapeXml, robotsTxt, sitemapXml } from "./sitemap";

describe("escapeXml", () => {
  it("escapes the five XML special characters", () => {
    expect(escapeXml(`a & b <c> "d" 'e'`)).toBe("a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;");
  });
});

describe("sitemapXml", () => {
  it("lists absolute, escaped URLs with their last modification when known", () => {
    const xml = sitemapXml("https://boutique.example/", [
      { path: "/" },
      { path: "/tcg?category=sealed&page=2" },
      { path: "/product/7-pikachu", lastmod: new Date("2026-03-01T10:00:00Z") },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    expect(xml).toContain("<url><loc>https://boutique.example/</loc></url>");
    expect(xml).toContain("<loc>https://boutique.example/tcg?category=sealed&amp;page=2</loc>");
    expect(xml).toContain("<url><loc>https://boutique.example/product/7-pikachu</loc><lastmod>2026-03-01T10:00:00.000Z</lastmod></url>");
    expect(xml.trimEnd().endsWith("</urlset>")).toBe(true);
  });
});

describe("robotsTxt", () => {
  it("keeps robots out of private areas and points to the sitemap", () => {
    const lines = robotsTxt("https://boutique.example").split("\n");
    expect(lines[0]).toBe("User-agent: *");
    for (const path of ["/admin", "/account", "/api/", "/cart", "/merci", "/test-email"]) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain("Sitemap: https://boutique.example/sitemap.xml");
  });
});
