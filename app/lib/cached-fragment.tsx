import { createContext, useContext, type ReactNode } from "react";

/**
 * Server only: the markup of `children`, rendered once per `key` and served again as it was
 * (app/lib/fragment-cache.server.ts). `context` is the render's own, so the part sees the same
 * providers (router, nonce) as it would in place.
 */
export type FragmentRenderer = (key: string, children: ReactNode, context: object) => ReactNode;

const FragmentRendererContext = createContext<FragmentRenderer | null>(null);
export const FragmentRendererProvider = FragmentRendererContext.Provider;

/**
 * A part of the page whose markup depends only on `cacheKey` (decision 029): the server renders
 * it once per key, the browser renders and hydrates it as usual. Inside, no useId (a part
 * rendered apart numbers its ids from zero, so they would repeat ids of the page) and nothing
 * read from elsewhere that the key leaves out (the location, the time, the visitor).
 */
export function CachedFragment({ cacheKey, children }: { cacheKey: string; children: ReactNode }, context?: object) {
  const render = useContext(FragmentRendererContext);
  // Preact passes every render its context (the providers above) as the second argument.
  return render ? render(cacheKey, children, context ?? {}) : children;
}
