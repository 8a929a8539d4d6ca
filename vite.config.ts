import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { build, defineConfig, type Plugin } from "vite";

/**
 * Builds the Node entry (server/main.ts: Express, database, page cache) into
 * build/server/main.js right after React Router's server build, so production runs plain
 * JavaScript: no TypeScript loader thread, source maps or on-the-fly transforms in the server
 * process (about 150 MB less memory and a start in seconds, docs/performance.md).
 * Its packages stay imports from node_modules.
 */
function serverEntry(): Plugin {
  return {
    name: "comptoir:server-entry",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: "warn",
        resolve: { tsconfigPaths: true },
        build: {
          ssr: "server/main.ts",
          outDir: "build/server",
          emptyOutDir: false,
          copyPublicDir: false,
          target: "node20",
          minify: false,
          rollupOptions: { output: { entryFileNames: "main.js" } },
        },
      });
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), serverEntry()],
  resolve: { tsconfigPaths: true },
  // Server-only native or wasm packages must stay real imports from node_modules.
  ssr: { external: ["@electric-sql/pglite", "sharp", "pg", "pino"] },
});
