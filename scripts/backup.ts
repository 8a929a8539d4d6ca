// npm run backup [-- --out DIR] [--keep N]
// One archive of the shop (database, images, customers' files, generated secrets) into
// DATA_DIR/backups or DIR, while the shop keeps serving; with --keep, only the newest N archives
// stay in that folder. Uses DATA_DIR, DATABASE_URL and S3_* like the server (docs/operations.md).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseEnv } from "~/lib/env.server";
import { usePrivateUmask } from "~/lib/private-files.server";
import { createBackup } from "../server/backup/backup";
import { pruneArchives } from "../server/backup/retention";

const usage = "Usage : npm run backup [-- --out <dossier>] [--keep <nombre d'archives à garder>]";

/** The command itself, on its arguments and environment: what it prints and its exit code. */
export async function backupCommand(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: 0 | 1; message: string }> {
  let out: string | undefined;
  let keepText: string | undefined;
  try {
    ({ values: { out, keep: keepText } } = parseArgs({ args, options: { out: { type: "string" }, keep: { type: "string" } } }));
  } catch (error) {
    return { code: 1, message: `${(error as Error).message}\n${usage}` };
  }
  const keep = keepText === undefined ? null : Number(keepText);
  if (keep !== null && !(/^\d+$/.test(keepText!) && keep >= 1)) {
    return { code: 1, message: `--keep : un nombre entier d'archives à garder, au moins 1 (reçu « ${keepText} »).\n${usage}` };
  }
  const config = parseEnv(env);
  const dataDir = path.resolve(config.DATA_DIR);
  const s3 = config.S3_ENDPOINT
    ? { endpoint: config.S3_ENDPOINT, bucket: config.S3_BUCKET!, accessKeyId: config.S3_ACCESS_KEY_ID!, secretAccessKey: config.S3_SECRET_ACCESS_KEY! }
    : null;
  const started = Date.now();
  try {
    const outDir = path.resolve(out ?? path.join(dataDir, "backups"));
    const { file, manifest, recordError } = await createBackup({ dataDir, databaseUrl: config.DATABASE_URL, s3, outDir });
    // Only once the new archive is complete: a failed backup never costs an old one.
    const pruned = keep === null ? [] : pruneArchives(outDir, keep, path.basename(file));
    const rows = Object.values(manifest.database.tables).reduce((sum, n) => sum + n, 0);
    const files = manifest.entries.length - 1;
    const lines = [
      `Sauvegarde écrite : ${file}`,
      `  Base ${manifest.database.kind === "pglite" ? "PGlite" : "PostgreSQL"} : ${Object.keys(manifest.database.tables).length} tables, ${rows} lignes, ${manifest.database.migrations} migrations`,
      `  Fichiers : ${files}${manifest.s3 ? ` ; objets S3 listés (non copiés) : ${manifest.s3.objects.length}` : ""}`,
      `  Durée : ${((Date.now() - started) / 1000).toFixed(1)} s`,
      ...(keep === null ? [] : [`  Archives gardées : les ${keep} plus récentes${pruned.length ? ` ; supprimées : ${pruned.join(", ")}` : ""}`]),
      recordError ? `  Attention : la sauvegarde n'a pas pu être notée dans la base (${recordError}) ; le tableau de bord ne la verra pas.` : "  Notée dans la base : le tableau de bord la voit.",
    ];
    return { code: 0, message: lines.join("\n") };
  } catch (error) {
    return { code: 1, message: `Sauvegarde impossible : ${(error as Error).message}` };
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Before anything is written: what the command adds to DATA_DIR is its OS user's alone.
  usePrivateUmask();
  const { code, message } = await backupCommand(process.argv.slice(2), process.env);
  (code === 0 ? console.log : console.error)(message);
  process.exit(code);
}
