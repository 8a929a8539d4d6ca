import { createElement, Fragment, type ReactNode } from "react";
import { renderToString } from "preact-render-to-string";
import type { FragmentRenderer } from "./cached-fragment";

export type FragmentCache = {
  render: FragmentRenderer;
  /** How many parts and how many characters of markup it holds. */
  stats(): { entries: number; chars: number };
};

/**
 * The markup of <CachedFragment> parts, by key, the least recently used dropped first beyond
 * `maxChars` (about 1 MB a thousand characters of markup per 1,000 parts: a product card is
 * about 3,200). A hit costs a Map lookup instead of rendering about twenty elements a card.
 * The markup goes back into the page as preact-render-to-string's precompiled-template
 * fragment (`tpl`), so it is written out as it is, without a wrapping element.
 */
export function createFragmentCache({ maxChars }: { maxChars: number }): FragmentCache {
  const entries = new Map<string, string>();
  let chars = 0;
  return {
    render(key, children, context) {
      let html = entries.get(key);
      if (html === undefined) {
        html = renderToString(children as Parameters<typeof renderToString>[0], context);
        chars += key.length + html.length;
        for (const [oldKey, oldHtml] of entries) {
          if (chars <= maxChars) break;
          entries.delete(oldKey);
          chars -= oldKey.length + oldHtml.length;
        }
      } else {
        entries.delete(key); // moved to the end: the most recently used
      }
      entries.set(key, html);
      return createElement(Fragment, { tpl: [html] } as object) as ReactNode;
    },
    stats: () => ({ entries: entries.size, chars }),
  };
}
