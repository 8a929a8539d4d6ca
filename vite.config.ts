import path from "node:path";
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

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

const FRAMEWORK = /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router)[\\/]/;
// Packages imported through an index of everything they hold (every icon, every Radix primitive):
// their modules are left to the automatic split, which only takes the ones a page uses.
const BARREL = /[\\/]node_modules[\\/](?:radix-ui|lucide-react)[\\/]/;
const ROUTE_FILE = /[\\/]app[\\/](?:root\.tsx|routes[\\/])/;
const appFile = (file: string) => path.resolve(import.meta.dirname, "app", file);
/** The product pages and listings: what a shopper goes through, sharing the same components. */
const LISTING_ROUTES = ["home", "catalog", "tcg", "product", "accessories", "entertainment"].map((route) => appFile(`routes/${route}.tsx`));

/** Every module statically imported, directly or not, by one of `starts` (dynamic imports stay out). */
function staticGraph(graph: ModuleGraph, starts: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id) || BARREL.test(id)) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

const groupsOf = new WeakMap<ModuleGraph, { shell: Set<string>; listing: Set<string> }>();
/**
 * Which of three shared chunks a browser module goes to, instead of the 20 to 40 small ones
 * automatic splitting gave every page (an icon, a helper each): "framework" (React, React DOM,
 * React Router), "shell" (what the root layout imports, so on every page) and "listing" (what
 * the product pages and listings import besides); route modules and what only other pages or
 * on-demand code (menus, toasts, cart dropdown) import keep the automatic split.
 */
function sharedChunk(id: string, graph: ModuleGraph): string | null {
  if (FRAMEWORK.test(id)) return "framework";
  if (ROUTE_FILE.test(id)) return null;
  let groups = groupsOf.get(graph);
  if (!groups) {
    groups = { shell: staticGraph(graph, [appFile("root.tsx")]), listing: staticGraph(graph, LISTING_ROUTES) };
    groupsOf.set(graph, groups);
  }
  if (groups.shell.has(id)) return "shell";
  if (groups.listing.has(id)) return "listing";
  return null;
}

/** The browser build only: the server's bundle has no requests to save. */
function clientChunks(): Plugin {
  return {
    name: "comptoir:client-chunks",
    apply: "build",
    configEnvironment(name) {
      if (name !== "client") return;
      return {
        build: {
          rollupOptions: {
            // Each module in the group that names it, not dragged along with what imports it (so
            // one route's icon never lands in the shell); route modules may then gain exports.
            // Modules then run in import order only with strictExecutionOrder (about 5 KB of
            // wrappers): without it the home page rendered an undefined component (React #130).
            preserveEntrySignatures: "allow-extension",
            output: { strictExecutionOrder: true, codeSplitting: { groups: [{ name: sharedChunk, includeDependenciesRecursively: false }] } },
          },
        },
      };
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), serverEntry(), clientChunks()],
  resolve: { tsconfigPaths: true },
  // Server-only native or wasm packages must stay real imports from node_modules.
  ssr: { external: ["@electric-sql/pglite", "sharp", "pg", "pino"] },
});
