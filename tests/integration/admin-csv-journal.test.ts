import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_CSV_COLUMNS, type CatalogCsvColumn, parseCsv, serializeCsv } from "~/domain/catalog-csv";
import { ensureBuild, type RunningServer, startServer } from "./server-process";
import { databaseLabel, suiteServerDataDir, suiteServerDatabase } from "./test-database";
import { signInAdmin, signUpCustomer, tableRows } from "./http-accounts";

/**
 * The catalogue CSV export and import (/admin/csv) and the admin Journal (/admin/journal), over
 * HTTP against the built server, as a browser without JavaScript posts them.
 */
const ADMIN = { email: "admin@comptoir.test", password: "admin-csv-mot-de-passe" };
const CUSTOMER = { name: "Client Csv", email: "client-csv@example.com", password: "Ronflex-2026" };
const NBSP = "\u00a0";

const col = (column: CatalogCsvColumn) => CATALOG_CSV_COLUMNS.indexOf(column);
/** Page text without tags or React's markers, entities read back. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&nbsp;/g, NBSP)
    .replace(/[ \t\n]+/g, " ");

function csvForm(intent: string, csv: string | null, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set("intent", intent);
  if (csv !== null) form.set("file", new Blob([csv], { type: "text/csv" }), "catalogue.csv");
  for (const [name, value] of Object.entries(extra)) form.set(name, value);
  return form;
}

describe(`admin CSV import/export and journal over HTTP on ${databaseLabel}`, () => {
  const dataDir = suiteServerDataDir("comptoir-csv-journal-");
  const database = suiteServerDatabase("comptoir_csv_journal");
  let server: RunningServer;
  let adminCookie = "";
  let customerCookie = "";
  let exported: string[][] = [];

  const get = (pathname: string, cookie = adminCookie) => fetch(`${server.url}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const post = (pathname: string, body: FormData | URLSearchParams, headers: Record<string, string> = { cookie: adminCookie }) =>
    fetch(`${server.url}${pathname}`, { method: "POST", body, headers, redirect: "manual" });

  beforeAll(async () => {
    ensureBuild();
    server = await startServer({ DATA_DIR: dataDir, ...database, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    adminCookie = await signInAdmin(server.url, ADMIN);

    customerCookie = await signUpCustomer(server.url, adminCookie, CUSTOMER);
  }, 120_000);

  afterAll(async () => {
    // 0: stopped at once. An answer left unread holds its connection: forced out after 10 s, with 1.
    if (server) expect(await server.stop()).toBe(0);
  });

  it("exports the catalogue as a dated CSV download, never cached", async () => {
    const response = await get("/admin/csv/export");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="catalogue-comptoir-\d{4}-\d{2}-\d{2}\.csv"$/);
    // An admin answer read the session: the server sends it private, whatever the route says.
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith(`${CATALOG_CSV_COLUMNS.join(";")}\r\n`)).toBe(true);
    const parsed = parseCsv(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    exported = parsed.records.map((record) => record.cells);
    expect(exported.length).toBeGreaterThan(1);
  });

  it("keeps the export and the import page from visitors and customers", async () => {
    const visits = [
      ["", "/admin/login"],
      [customerCookie, "/admin/unauthorized"],
    ].flatMap(([cookie, location]) => ["/admin/csv/export", "/admin/csv", "/admin/journal"].map((pathname) => ({ cookie: cookie!, location, pathname })));
    await Promise.all(
      visits.map(async ({ cookie, location, pathname }) => {
        const response = await get(pathname, cookie);
        await response.arrayBuffer();
        expect(response.status, pathname).toBe(302);
        expect(response.headers.get("location"), pathname).toBe(location);
      }),
    );
  });

  it("shows the import form and the export link", async () => {
    const html = await (await get("/admin/csv")).text();
    expect(html).toContain("Exporter le catalogue (CSV)");
    expect(html).toContain('href="/admin/csv/export"');
    const input = html.match(/<input[^>]*type="file"[^>]*>/)?.[0] ?? "";
    expect(input).toContain('name="file"');
    expect(input).toContain('accept=".csv,text/csv"');
    expect(textOf(html)).toContain("Fichier CSV");
  });

  it("previews a file with a bad line as errors by line, with nothing to apply", async () => {
    const [header, first] = exported;
    const bad = [...first!];
    bad[col("id")] = "";
    bad[col("price")] = "douze euros";
    const response = await post("/admin/csv", csvForm("preview", serializeCsv([header!, bad])));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(textOf(html)).toMatch(/Ligne 2 : .*\(colonne price\)/);
    expect(html).not.toContain('name="payload"');
  });

  it("refuses a file over 5 MB, in French", async () => {
    const big = `${CATALOG_CSV_COLUMNS.join(";")}\r\n${"x".repeat(5 * 1024 * 1024 + 10)}`;
    const response = await post("/admin/csv", csvForm("preview", big));
    expect(response.status).toBe(413);
    expect(textOf(await response.text())).toContain("dépasse 5 Mo");
  });

  it("previews then applies a creation and an update, both in the journal", async () => {
    const [header, first, second] = exported;
    const created = [...first!];
    created[col("id")] = "";
    created[col("title")] = "Booster importé par CSV";
    const updated = [...second!];
    updated[col("stock")] = String(Number(updated[col("stock")]) + 7);
    const csv = serializeCsv([header!, created, updated, first!]);

    const preview = await post("/admin/csv", csvForm("preview", csv));
    expect(preview.status).toBe(200);
    const html = await preview.text();
    const text = textOf(html);
    expect(text).toContain("Aperçu de l'import");
    expect(text).toMatch(/À créer 1 /);
    expect(text).toMatch(/À mettre à jour 1 /);
    expect(text).toMatch(/Inchangés 1 /);
    const rows = tableRows(html).map(textOf);
    expect(rows.find((row) => row.includes("Booster importé par CSV"))).toContain("Création");
    expect(rows.find((row) => row.includes(second![col("title")]!))).toMatch(new RegExp(`Mise à jour.*Stock${NBSP}:`));
    const payload = html.match(/name="payload" value="([^"]+)"/)?.[1];
    expect(payload).toBeTruthy();

    // Nothing is written by the preview.
    expect(textOf(await (await get("/admin/journal")).text())).not.toContain("Booster importé par CSV");

    const apply = await post("/admin/csv", csvForm("apply", null, { payload: payload! }));
    expect(apply.status).toBe(200);
    expect(textOf(await apply.text())).toContain(`Import appliqué${NBSP}: 1 créé, 1 mis à jour.`);

    const journal = await (await get("/admin/journal")).text();
    const entries = tableRows(journal);
    const creation = entries.find((row) => row.includes("Booster importé par CSV"));
    expect(creation).toBeTruthy();
    expect(textOf(creation!)).toContain("Ajout");
    expect(textOf(creation!)).toContain(ADMIN.email);
    const newId = creation!.match(/\/admin\/products\/edit\/(\d+)/)?.[1];
    expect(newId).toBeTruthy();
    const update = entries.find((row) => row.includes(`/admin/products/edit/${second![col("id")]}"`));
    expect(textOf(update!)).toContain("Modification");
    expect(textOf(update!)).toContain(`Stock${NBSP}: ${second![col("stock")]} → ${Number(second![col("stock")]) + 7}`);

    // Filtered by product: that product's entries only.
    const filtered = await (await get(`/admin/journal?product=${newId}`)).text();
    expect(textOf(filtered)).toContain("Produit (n°)");
    const filteredRows = tableRows(filtered).slice(1);
    expect(filteredRows).toHaveLength(1);
    expect(filteredRows[0]).toContain("Booster importé par CSV");

    // Applying the same text again changes nothing more than the catalogue already holds.
    const again = await post("/admin/csv", csvForm("apply", null, { payload: payload! }));
    expect(textOf(await again.text())).toContain(`Import appliqué${NBSP}: 1 créé, 0 mis à jour.`);
  });

  it("says so when the journal holds nothing for a product", async () => {
    const html = await (await get("/admin/journal?product=999999")).text();
    expect(html).toContain("Aucune action enregistrée.");
  });

  it("refuses a customer's import, and a cross-site one, with 403", async () => {
    const [header, first] = exported;
    const csv = serializeCsv([header!, first!]);
    const customer = await post("/admin/csv", csvForm("preview", csv), { cookie: customerCookie });
    expect(customer.status).toBe(403);
    await customer.arrayBuffer();
    // Another site's Origin: refused before any route (server/request-guards.ts); nothing is read.
    const crossSite = await post("/admin/csv", csvForm("preview", csv), { cookie: adminCookie, origin: "https://ailleurs.example" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).not.toContain("Aperçu de l'import");
    // Without Origin, a browser's cross-site form says so in Sec-Fetch-Site: requireAdmin refuses it.
    const crossSiteFetch = await post("/admin/csv", csvForm("preview", csv), { cookie: adminCookie, "sec-fetch-site": "cross-site" });
    expect(crossSiteFetch.status).toBe(403);
    await crossSiteFetch.arrayBuffer();
    const signedOut = await post("/admin/csv", csvForm("preview", csv), {});
    expect(signedOut.status).toBe(401);
    await signedOut.arrayBuffer();
  });
});
