/**
 * A test or suite that runs in one pass of `npm test` only (PGlite or PostgreSQL): its skip in
 * the other pass is by design, and `npm test` counts it so (scripts/test-summary.mjs). Any other
 * skip (a tool or server missing here) is named in the summary and fails CI.
 *
 *   describe.skipIf(onPostgresPass)("…", runsOn("PGlite"), () => { … });
 */
declare module "vitest" {
  interface TaskMeta {
    /** Why the test never runs in the other pass (read by scripts/vitest-counts-reporter.mjs). */
    skippedByDesign?: string;
  }
}

const onPostgresPass = Boolean(process.env.TEST_DATABASE_URL);

/** The options of a test or suite that runs on `pass` only: in the other pass, its skip is by design. */
export function runsOn(pass: "PGlite" | "PostgreSQL") {
  const otherPass = pass === "PGlite" ? onPostgresPass : !onPostgresPass;
  return otherPass ? { meta: { skippedByDesign: `runs on the ${pass} pass` } } : {};
}
