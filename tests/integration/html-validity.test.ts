import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_FOUND_PAGE, PRODUCT_PAGE, PUBLIC_PAGES } from "../support/public-pages";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, onPostgresPass, serverDataDir, suiteServerDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

/**
 * Every public page is valid HTML by the W3C's rules: the built server's pages, as a visitor
 * gets them, are read by the Nu Html Checker (vnu.jar, the W3C validator's own engine, from the
 * `vnu-jar` package). It needs Java: on CI a missing Java fails the run (.ci/run installs it);
 * elsewhere the suite says it skips.
 */
const vnuJar = String(createRequire(import.meta.url)("vnu-jar"));
const hasJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
if (!hasJava && process.env.CI) throw new Error("Java is missing: the HTML validity suite needs it on CI (.ci/run installs default-jre-headless)");
if (!hasJava) console.warn("html-validity: no Java on this machine, the W3C validation is skipped");

/** The public pages, and the other pages a visitor reaches from them: searches, forms, withdrawal. */
const PAGES = [
  ...PUBLIC_PAGES,
  "/catalog?q=dracaufeu&sort=price-asc",
  "/catalog?q=aucun-produit-ici",
  "/forgot-password",
  "/retractation",
];

type VnuMessage = { type: string; subType?: string; url?: string; message: string; lastLine?: number; extract?: string };

describe.skipIf(!hasJava || onPostgresPass)(`every public page is valid HTML (Nu Html Checker), on ${databaseLabel}`, runsOn("PGlite"), () => {
  const database = suiteServerDatabase("comptoir_html");
  let dataDir = "";
  let pagesDir = "";
  let server: RunningServer;

  beforeAll(async () => {
    ensureBuild();
    dataDir = await serverDataDir("comptoir-html-");
    pagesDir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-html-pages-"));
    server = await startServer({ DATA_DIR: dataDir, ...database });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    for (const dir of [dataDir, pagesDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("has no error on any of them", async () => {
    const product = /href="(\/product\/\d+-[a-z0-9-]+)"/.exec(await (await fetch(`${server.url}/catalog`)).text())?.[1];
    expect(product).toBeTruthy();
    const files = new Map<string, string>();
    // All at once (the pages are only read), kept in the list's order.
    const pages = PAGES.map((page) => (page === PRODUCT_PAGE ? product! : page));
    const answers = await Promise.all(
      pages.map(async (page) => {
        const answer = await fetch(`${server.url}${page}`);
        return { page, status: answer.status, type: answer.headers.get("content-type"), html: await answer.text() };
      }),
    );
    // Each page as a visitor gets it: a valid error page (a 500's) must not pass for the page.
    expect(answers.map(({ page, status }) => ({ page, status }))).toEqual(pages.map((page) => ({ page, status: page === NOT_FOUND_PAGE ? 404 : 200 })));
    for (const [index, { page, type, html }] of answers.entries()) {
      expect(type, page).toContain("text/html");
      const file = path.join(pagesDir, `page-${index}.html`);
      fs.writeFileSync(file, html);
      files.set(`file:${file}`, page);
    }
    // A control the checker must refuse: the header search as it was (a combobox on type=search).
    const control = path.join(pagesDir, "control.html");
    fs.writeFileSync(control, '<!DOCTYPE html><html lang="fr"><head><title>t</title></head><body><input type="search" role="combobox" aria-label="q" aria-expanded="false"></body></html>');
    files.set(`file:${control}`, "control");
    // The client compiler only: the same checker, its answer in about half the time of a short run
    // with both compilers; its deeper frames need a bigger stack than the default.
    const run = spawnSync("java", ["-XX:TieredStopAtLevel=1", "-Xss8m", "-jar", vnuJar, "--format", "json", "--stdout", "--exit-zero-always", ...[...files.keys()].map((url) => url.slice(5))], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.status, run.stderr).toBe(0);
    const { messages } = JSON.parse(run.stdout) as { messages: VnuMessage[] };
    const errors = messages
      .filter((message) => message.type === "error" || message.type === "non-document-error")
      .map((message) => `${files.get(message.url ?? "") ?? message.url} (line ${message.lastLine}): ${message.message} ${message.extract ?? ""}`);
    expect(errors.filter((error) => error.startsWith("control "))).not.toEqual([]);
    expect(errors.filter((error) => !error.startsWith("control "))).toEqual([]);
  }, 120_000);
});
