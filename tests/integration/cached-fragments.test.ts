import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { serverDataDir } from "./test-database";

/**
 * The header, the footer and the product cards are rendered once per content and their markup
 * reused (decision 029). Reused in the wrong place, a part would show another page's state (the
 * current menu link, another product's stock): so every page is read from a server that renders
 * everything and from one that reuses the parts, each page after the others have filled the
 * cache, and the two must be the same, byte for byte but the nonce and the render's time.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const PAGES = ["/", "/catalog", "/tcg", "/tcg?category=cards", "/accessories", "/entertainment", "/about", "/legal", "/catalog?page=2&sort=price-asc", "/catalog?category=tcg", "/Catalog?category=tcg", "/catalog?q=pokemon&sort=name", "/cart", "/login", "/contact", "/rachat", "/retractation", "/construction", "/cette-page-n-existe-pas"];

/** What changes from one answer to the next whatever the cache: the CSP nonce and the render's time (and the port, by server). */
const stable = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""').replace(/\\"renderedAt\\",\d+/g, '\\"renderedAt\\",0');

/** Where two pages part, with some context; null when they are the same. */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 120), i + 120)}… instead of …${b.slice(Math.max(0, i - 120), i + 120)}…`;
}

describe.skipIf(onPostgres)("parts rendered once per content", () => {
  let dataDir = "";
  let pages: string[] = [];
  const rendered = new Map<string, string>();
  const reused = new Map<string, string>();

  async function readAll(env: Record<string, string>, order: string[], into: Map<string, string>, before?: (server: RunningServer) => Promise<void>) {
    const server = await startServer({ DATA_DIR: dataDir, ...env });
    try {
      await before?.(server);
      for (const page of order) {
        const response = await fetch(`${server.url}${page}`, { redirect: "manual" });
        into.set(page, stable((await response.text()).replaceAll(server.url, "http://shop")));
      }
    } finally {
      await server.stop();
    }
  }

  beforeAll(async () => {
    ensureBuild();
    dataDir = await serverDataDir("comptoir-fragments-");
    // The PGlite data directory opens in one process at a time: one server, then the other.
    await readAll({ FRAGMENT_CACHE: "false" }, PAGES.slice(0, 1), rendered, async (server) => {
      const html = await (await fetch(`${server.url}/catalog`)).text();
      const products = [...new Set([...html.matchAll(/href="(\/product\/\d+-[a-z0-9-]+)"/g)].map((match) => match[1]!))];
      expect(products.length).toBeGreaterThan(2);
      pages = [...PAGES, ...products.slice(0, 3)];
    });
    await readAll({ FRAGMENT_CACHE: "false" }, pages, rendered);
    // Each page twice, the second time in reverse order: then its parts come from the others.
    await readAll({}, [...pages, ...[...pages].reverse()], reused);
  }, 180_000);

  afterAll(() => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves every page as a full render writes it", () => {
    expect(reused.size).toBe(pages.length);
    for (const page of pages) {
      expect(rendered.get(page)!.length, page).toBeGreaterThan(1000);
      const difference = firstDifference(reused.get(page)!, rendered.get(page)!);
      expect(difference, page).toBeNull();
    }
  });

  it("marks the section's own menu link as the current page", () => {
    /** The header's main menu links marked as the current page. */
    const current = (page: string) => {
      const html = reused.get(page)!;
      const menu = html.slice(html.indexOf('aria-label="Navigation principale"'), html.indexOf("</nav>", html.indexOf('aria-label="Navigation principale"')));
      return [...menu.matchAll(/<a [^>]*aria-current="page"[^>]*href="([^"]+)"/g)].map((match) => match[1]);
    };
    expect(current("/accessories")).toEqual(["/accessories"]);
    expect(current("/about")).toEqual(["/about"]);
    expect(current("/")).toEqual(["/"]);
    expect(current("/catalog")).toEqual([]);
  });
});
