// npm run restore -- FILE [--replace-database]
// Rebuilds a shop from an archive of npm run backup into an empty DATA_DIR, and into the empty
// PostgreSQL of DATABASE_URL when it is set (a PGlite archive then moves the shop to PostgreSQL).
// Stop any server on the target first (docs/operations.md).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseEnv } from "~/lib/env.server";
import { usePrivateUmask } from "~/lib/private-files.server";
import { restoreBackup } from "../server/backup/restore";

const usage = "Usage : npm run restore -- <archive.tar.gz> [--replace-database]";

export async function restoreCommand(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: 0 | 1; message: string }> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { "replace-database": { type: "boolean", default: false } } });
  } catch (error) {
    return { code: 1, message: `${(error as Error).message}\n${usage}` };
  }
  const [archive, ...extra] = parsed.positionals;
  if (!archive || extra.length > 0) return { code: 1, message: usage };
  const config = parseEnv(env);
  const started = Date.now();
  try {
    const summary = await restoreBackup({
      archive: path.resolve(archive),
      dataDir: path.resolve(config.DATA_DIR),
      databaseUrl: config.DATABASE_URL,
      replaceDatabase: parsed.values["replace-database"],
    });
    const rows = Object.values(summary.manifest.database.tables).reduce((sum, n) => sum + n, 0);
    const lines = [
      `Sauvegarde du ${summary.manifest.createdAt} restaurée (sommes de contrôle vérifiées).`,
      `  Base : ${summary.target === "pglite" ? `PGlite dans ${path.resolve(config.DATA_DIR, "pglite")}` : "PostgreSQL (DATABASE_URL)"}${summary.moved ? ", copiée depuis PGlite" : ""} ; ${rows} lignes`,
      `  Fichiers : ${summary.files} dans ${path.resolve(config.DATA_DIR)}`,
      ...(summary.manifest.s3 ? [`  S3 : ${summary.manifest.s3.objects.length} objets listés dans l'archive, restent dans le bucket ${summary.manifest.s3.bucket}`] : []),
      `  Durée : ${((Date.now() - started) / 1000).toFixed(1)} s`,
      ...(summary.notPrivate.length > 0 ? [`  Attention : ${summary.notPrivate.length} fichier(s) d'un autre utilisateur n'ont pas pu être rendus privés (${summary.notPrivate.slice(0, 3).join(", ")}) : donnez-les à l'utilisateur de la boutique.`] : []),
    ];
    return { code: 0, message: lines.join("\n") };
  } catch (error) {
    return { code: 1, message: `Restauration impossible : ${(error as Error).message}` };
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Before anything is written: what the command adds to DATA_DIR is its OS user's alone.
  usePrivateUmask();
  const { code, message } = await restoreCommand(process.argv.slice(2), process.env);
  (code === 0 ? console.log : console.error)(message);
  process.exit(code);
}
