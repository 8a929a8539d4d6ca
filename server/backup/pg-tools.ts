import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

// Debian's packages put the versioned tools here; /usr/bin holds a wrapper when installed.
const FALLBACK_DIRS = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"];

/** pg_dump or pg_restore: from PATH, else PostgreSQL's own folders; a clear error when absent. */
export function findPgTool(name: "pg_dump" | "pg_restore"): string {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), ...FALLBACK_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(
    `${name} introuvable : installez le client PostgreSQL (paquet postgresql-client, de la version du serveur ou plus récent) ou ajoutez-le au PATH. / ` +
      `${name} not found: install the PostgreSQL client (postgresql-client, the server's version or newer) or add it to PATH.`,
  );
}

/**
 * The connection for a libpq tool: the URL without its password (a command line is visible to
 * every user of the machine in `ps`), the password in PGPASSWORD.
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function runTool(name: "pg_dump" | "pg_restore", url: string, args: (dbname: string) => string[]): Promise<string> {
  const { dbname, env } = connection(url);
  try {
    const { stdout } = await run(findPgTool(name), args(dbname), { env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${name} a échoué / failed: ${(stderr || message).trim()}`, { cause: error });
  }
}

/** pg_dump's custom format (compressed, restorable table by table) of the snapshot `snapshot`. */
export async function pgDump(url: string, file: string, snapshot: string): Promise<void> {
  await runTool("pg_dump", url, (dbname) => ["--format=custom", `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${dbname}`]);
}

/**
 * Restores a custom-format dump into an empty database, in one transaction (a failure leaves it
 * as it was). Owners and grants are the target's (its user may not be the dump's); the
 * extension's comment is left out, since only a superuser may set it.
 */
export async function pgRestore(url: string, file: string, workDir: string): Promise<void> {
  const listing = await runTool("pg_restore", url, () => ["--list", file]);
  const list = path.join(workDir, "restore.list");
  fs.writeFileSync(list, listing.split("\n").filter((line) => !/ COMMENT - EXTENSION /.test(line)).join("\n"));
  await runTool("pg_restore", url, (dbname) => ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", `--use-list=${list}`, `--dbname=${dbname}`, file]);
}
