// Global setup of the integration tests: a directory for the run's templates (a migrated PGlite
// dump, a server's data directory), each made by the first test file that needs one and copied
// by the others (tests/integration/test-database.ts, tests/setup/data-dir-template.ts). Only
// the directory is made here, so a run of one file that needs no template pays nothing for it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-test-run-"));
  project.provide("testRunDir", dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    testRunDir: string;
  }
}
