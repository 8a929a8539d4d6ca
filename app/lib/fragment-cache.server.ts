import { createElement, Fragment, type ReactNode } from "react";
import { renderToString } from "preact-render-to-string";
import type { FragmentRenderer } from "./cached-fragment";
import { LruMap } from "./lru-map";

export type FragmentCache = {
  render: FragmentRenderer;
  /** How many parts and how many characters of markup it holds. */
  stats(): { entries: number; chars: number };
};

/**
 * The markup of <CachedFragment> parts, by key, the least recently used dropped first beyond
 * `maxChars` of keys and markup (a product card is about 3,200 characters). A hit costs a
 * lookup instead of rendering about twenty elements a card. The markup goes back into the page
 * as preact-render-to-string's precompiled-template fragment (`tpl`), so it is written out as
 * it is, without a wrapping element.
 */
export function createFragmentCache({ maxChars }: { maxChars: number }): FragmentCache {
  const parts = new LruMap<string, string>(maxChars, (html, key) => key.length + html.length);
  return {
    render(key, children, context) {
      let html = parts.get(key);
      if (html === undefined) {
        html = renderToString(children as Parameters<typeof renderToString>[0], context);
        parts.set(key, html);
      }
      return createElement(Fragment, { tpl: [html] } as object) as ReactNode;
    },
    stats: () => ({ entries: parts.count, chars: parts.size }),
  };
}
