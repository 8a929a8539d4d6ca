import { spawnSync } from "node:child_process";

/** pdftotext (poppler-utils) is on this machine: PDFs can be read as text. */
export const HAS_PDFTOTEXT = !spawnSync("pdftotext", ["-v"], { stdio: "ignore" }).error;

/** A PDF's text as pdftotext lays it out, its spaces (no-break ones included) made plain. */
export function pdfText(pdf: Buffer): string {
  const result = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"], { input: pdf, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
  return result.stdout.replace(/[\u00a0\u202f]/g, " ");
}
