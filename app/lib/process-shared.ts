/**
 * The server process holds two copies of the app modules both of its bundles import: the Node
 * entry (server/main.ts → build/server/main.js) and React Router's build (build/server/index.js)
 * are built apart, and in development tsx and Vite each load their own. A class or a module-level
 * value exists once per copy (decision 019). What must be one per process is kept here, under a
 * registered symbol that every copy finds.
 */
export function processShared<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return (store[brand(name)] ??= create());
}

/** The registered symbol of `name`: a `processShared` value's key, or the mark an instance of a cross-copy class carries (`[brand]: true`) for its `Symbol.hasInstance`. */
export function brand(name: string): symbol {
  return Symbol.for(`comptoir.${name}`);
}

export function hasBrand(value: unknown, mark: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[mark] === true;
}
