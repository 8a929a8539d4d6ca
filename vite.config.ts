import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  // Server-only native or wasm packages must stay real imports from node_modules.
  ssr: { external: ["@electric-sql/pglite", "sharp", "pg", "pino"] },
});
