import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
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

/**
 * `import { Camera, X } from "lucide-react"` becomes one import per icon, from the module the
 * package publishes for it (`lucide-react/icons/camera`, its `./icons/*` export): the chunk
 * groups below then see which icons the shell and the listings really use and put them in
 * those chunks, instead of one small file per icon per page. The names come from the package's
 * own index (aliases included); types stay on the index.
 */
function lucideIconImports(): Plugin {
  const index = createRequire(import.meta.url).resolve("lucide-react").replace(/[\\/]cjs[\\/][^\\/]+$/, "/esm/lucide-react.mjs");
  const fileOf = new Map<string, string>();
  for (const m of fs.readFileSync(index, "utf8").matchAll(/^export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs';$/gm)) {
    for (const name of m[1]!.matchAll(/default as (\w+)/g)) fileOf.set(name[1]!, m[2]!);
  }
  return {
    name: "comptoir:lucide-icon-imports",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]app[\\/].*\.tsx?$/.test(id) || !code.includes('"lucide-react"')) return null;
      const next = code.replace(/import\s*\{([^}]*)\}\s*from\s*"lucide-react";?/g, (_whole, names: string) => {
        const specifiers = names.split(",").map((part) => part.trim()).filter(Boolean);
        const kept: string[] = [];
        const lines: string[] = [];
        for (const specifier of specifiers) {
          const [imported = "", local = imported] = specifier.split(/\s+as\s+/);
          const file = fileOf.get(imported);
          if (file) lines.push(`import ${local} from "lucide-react/icons/${file}";`);
          else kept.push(specifier);
        }
        if (kept.length > 0) lines.push(`import { ${kept.join(", ")} } from "lucide-react";`);
        return lines.join("\n");
      });
      return next === code ? null : { code: next, map: null };
    },
  };
}

/**
 * Chromium's explicit compile hint (decision 026): a script that starts with this comment has
 * all its functions compiled eagerly, on a background thread while it downloads, instead of
 * lazily on the main thread at their first call. The browser chunks' code nearly all runs as
 * the page hydrates, where that lazy compilation was about a third of the long task. Other
 * browsers read a comment.
 */
const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
function compileHints(): Plugin {
  return {
    name: "comptoir:compile-hints",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    // After minification, which would drop the comment.
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) if (chunk.type === "chunk") chunk.code = COMPILE_HINT + chunk.code;
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/**
 * Writes `name.br` (Brotli, highest quality) and `name.gz` (gzip level 9) beside each browser
 * script, stylesheet and SVG over 1 KB, for server/precompressed.ts to serve as they are.
 */
function precompressAssets(): Plugin {
  return {
    name: "comptoir:precompress-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const dir = options.dir!;
      const files = Object.keys(bundle).filter((file) => /\.(?:js|css|svg)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const source = await fs.promises.readFile(path.join(dir, file));
          if (source.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gzip(source, { level: 9 }),
          ]);
          await Promise.all([fs.promises.writeFile(path.join(dir, `${file}.br`), br), fs.promises.writeFile(path.join(dir, `${file}.gz`), gz)]);
        }),
      );
    },
  };
}

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

const FRAMEWORK = /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router)[\\/]/;
// Indexes of everything a package holds (every Radix primitive, every icon): their modules are
// left to the automatic split, which only takes the ones a page uses. Icons are imported one by one
// (lucideIconImports), so they join the groups.
const BARREL = /[\\/]node_modules[\\/](?:radix-ui[\\/]|lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$)/;
const ROUTE_FILE = /[\\/]app[\\/](?:root\.tsx|routes[\\/])/;
const appFile = (file: string) => path.resolve(import.meta.dirname, "app", file);
/** The product pages and listings: what a shopper goes through, sharing the same components. */
const LISTING_NAMES = ["home", "catalog", "tcg", "product", "accessories", "entertainment"];
const LISTING_ROUTES = LISTING_NAMES.map((route) => appFile(`routes/${route}.tsx`));
/**
 * Signed-in pages that use the listings' own components (the pager of /account/orders): they load
 * the listing chunk, instead of those components joining the shell of every page (/cart would pay
 * for a pager it never shows; docs/decisions/065-orders-history.md).
 */
const PRIVATE_LISTING_USERS = ["account-orders"];
/** The other pages of the shop (the admin's aside): /legal, /cart, /contact, /account… */
const OTHER_SHOP_ROUTES = fs
  .readdirSync(appFile("routes"))
  .filter((file) => file.endsWith(".tsx") && ![...LISTING_NAMES, ...PRIVATE_LISTING_USERS].includes(file.slice(0, -4)))
  .map((file) => appFile(`routes/${file}`));

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

const groupsOf = new WeakMap<ModuleGraph, { shell: Set<string>; listing: Set<string>; otherShop: Set<string> }>();
/**
 * Which of three shared chunks a browser module goes to, instead of the 20 to 40 small ones
 * automatic splitting gave every page (an icon, a helper each): "framework" (React, React DOM,
 * React Router), "shell" (what the root layout imports, so on every page) and "listing" (what
 * the product pages and listings import besides); route modules and what only other pages or
 * on-demand code (menus, toasts, cart dropdown) import keep the automatic split. What the
 * listings share with the shop's other pages (SEO helpers, prices, the product image) goes to
 * the shell: /legal or /cart would otherwise load the whole listing chunk for it.
 */
function sharedChunk(id: string, graph: ModuleGraph): string | null {
  if (FRAMEWORK.test(id)) return "framework";
  if (ROUTE_FILE.test(id)) return null;
  let groups = groupsOf.get(graph);
  if (!groups) {
    groups = { shell: staticGraph(graph, [appFile("root.tsx")]), listing: staticGraph(graph, LISTING_ROUTES), otherShop: staticGraph(graph, OTHER_SHOP_ROUTES) };
    groupsOf.set(graph, groups);
  }
  if (groups.shell.has(id)) return "shell";
  if (groups.listing.has(id)) return groups.otherShop.has(id) ? "shell" : "listing";
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
  plugins: [lucideIconImports(), tailwindcss(), reactRouter(), serverEntry(), clientChunks(), compileHints(), precompressAssets()],
  resolve: { tsconfigPaths: true },
  // Server-only native or wasm packages must stay real imports from node_modules.
  ssr: { external: ["@electric-sql/pglite", "sharp", "pg", "pino"] },
});
