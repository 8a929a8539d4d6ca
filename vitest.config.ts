import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          // A guard against a hang, not a speed check: the longest loops (paris-time.test.ts,
          // 60 years of instants) take a second here and ran out of vitest's 5 s on a loaded CI.
          testTimeout: 30_000,
          // Pure modules: the files share a worker's imports (about 30 s of the unit run was
          // importing the same modules again for each file). A test that changes a module's
          // state or fakes the timers puts it back in afterEach (see server/live.test.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file opens its own database; two at a time keeps 2 cores busy without thrashing
          // (one when `npm test` runs them beside the end-to-end tests).
          maxWorkers: Number(process.env.INTEGRATION_WORKERS ?? 2),
          // The files share a worker's imports too: about 45 s of each run was importing the
          // server's modules again for every file. Each file still opens its own database and
          // none fakes modules or the environment; the one that fakes Date (admin-two-factor,
          // its TOTP steps) gives it back, and the TOTP helper's hook, in its afterAll.
          isolate: false,
          // The run's templates (a migrated database, a server's data directory).
          globalSetup: ["tests/setup/vitest-global-setup.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
