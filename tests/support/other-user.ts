import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Another user of the machine, `nobody`, run through runuser (which only root may use), as the
 * user who found the admin's e-mail in PGlite's WAL did (issue 48): what can it list, read or
 * write in a folder? On CI (CI set) it must be available: there a missing one fails the file.
 */
const OTHER_USER = "nobody";

function whyUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "runuser needs root (the tests run as another user)";
  const probe = spawnSync("runuser", ["-u", OTHER_USER, "--", process.execPath, "-e", "process.exit(0)"], { cwd: "/", encoding: "utf8" });
  if (probe.error) return `runuser is missing (${probe.error.message})`;
  if (probe.status !== 0) return `runuser -u ${OTHER_USER} could not run ${process.execPath}: ${probe.stderr.trim() || `code ${probe.status}`}`;
  return null;
}

export const otherUserUnavailable = whyUnavailable();
if (otherUserUnavailable && process.env.CI) throw new Error(`the other-user checks cannot run on CI: ${otherUserUnavailable}`);

/** Each entry below `dir` (itself included) by kind and mode, as root sees them: { d700: 34, f600: 1221 }. */
export function modeCounts(dir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entriesOf(dir)) {
    const stat = fs.lstatSync(entry);
    const kind = stat.isDirectory() ? "d" : stat.isFile() ? "f" : stat.isSocket() ? "s" : stat.isSymbolicLink() ? "l" : "?";
    const key = `${kind}${(stat.mode & 0o7777).toString(8)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** As a version before issue 48 or another umask left it: folders 0755, files 0666. */
export function openToEveryone(dir: string): void {
  for (const entry of entriesOf(dir)) {
    const stat = fs.lstatSync(entry);
    if (stat.isDirectory()) fs.chmodSync(entry, 0o755);
    else if (stat.isFile()) fs.chmodSync(entry, 0o666);
  }
}

function entriesOf(dir: string): string[] {
  return [dir, ...fs.readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) => path.join(entry.parentPath, entry.name))];
}

export type Attempts = {
  /** Entries the other user could list (folders), read or open for writing (files), or create a file in (folders). */
  listed: string[];
  read: string[];
  written: string[];
  /** Each refusal's error code, counted: EACCES when the permissions refused it. */
  refusals: Record<string, number>;
};

/**
 * Run as the other user: lists every folder and creates a file in it ("wx": never over one),
 * opens every file for reading and for writing ("r+": neither created nor truncated). The
 * paths come from root's listing, so a refusal is the permissions', not a wrong name.
 */
const ATTEMPTS_SCRIPT = `
  const fs = require("node:fs");
  const path = require("node:path");
  const entries = JSON.parse(fs.readFileSync(0, "utf8"));
  const result = { listed: [], read: [], written: [], refusals: {} };
  const attempt = (list, entry, action) => {
    try {
      action();
      result[list].push(entry);
    } catch (error) {
      result.refusals[error.code] = (result.refusals[error.code] ?? 0) + 1;
    }
  };
  for (const { entry, folder } of entries) {
    if (folder) {
      attempt("listed", entry, () => fs.readdirSync(entry));
      attempt("written", entry, () => fs.closeSync(fs.openSync(path.join(entry, ".other-user-was-here"), "wx")));
    } else {
      attempt("read", entry, () => fs.closeSync(fs.openSync(entry, "r")));
      attempt("written", entry, () => fs.closeSync(fs.openSync(entry, "r+")));
    }
  }
  process.stdout.write(JSON.stringify(result));
`;

/** What the other user manages to do with each folder and file below `dir` (its sockets left out). */
export function otherUserAttempts(dir: string): Attempts {
  const entries = entriesOf(dir)
    .map((entry) => ({ entry, stat: fs.lstatSync(entry) }))
    .filter(({ stat }) => stat.isDirectory() || stat.isFile())
    .map(({ entry, stat }) => ({ entry, folder: stat.isDirectory() }));
  const run = spawnSync("runuser", ["-u", OTHER_USER, "--", process.execPath, "-e", ATTEMPTS_SCRIPT], { cwd: "/", input: JSON.stringify(entries), encoding: "utf8" });
  if (run.status !== 0) throw new Error(`the other user's attempts did not run: ${run.stderr}`);
  return JSON.parse(run.stdout) as Attempts;
}
