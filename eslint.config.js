import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", ".tmp/", "test-results/", "playwright-report/", "drizzle/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='request'][callee.property.name=/^(formData|json)$/]",
          message: "Read posts with readForm / readJson (~/lib/request-input.server): they drop NUL characters, which PostgreSQL refuses in text.",
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["**/db/client.server*"], message: "Routes get the database from the load context (context.db); only server/ and scripts/ open it." }],
          paths: [
            { name: "sonner", message: "Import toast from ~/components/ui/toaster: sonner loads on demand, and its <Toaster /> only mounts through that module (docs/performance.md)." },
          ],
        },
      ],
    },
  },
  {
    // The hooks rules run the React Compiler on each file (three quarters of the lint's time when
    // they ran on every file): only where components and hooks live, not on tests, server-only
    // modules, services, the schema, server/, scripts/ or tests/.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.test.ts", "app/**/*.server.ts", "app/services/**", "app/db/**"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ["app/components/ui/toaster.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/db/client.server*"], message: "Routes get the database from the load context (context.db); only server/ and scripts/ open it." }] }],
    },
  },
  {
    files: ["server/**", "scripts/**", "tests/**"],
    rules: { "no-restricted-imports": "off" },
  },
);
