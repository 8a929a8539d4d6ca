import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["app/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file opens its own database; two at a time keeps 2 cores busy without thrashing.
          maxWorkers: 2,
          // The run's templates (a migrated database, a server's data directory).
          globalSetup: ["tests/setup/vitest-global-setup.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
