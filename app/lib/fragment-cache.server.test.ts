import { createContext, createElement as h, type ReactNode, useContext, useId } from "react";
import { renderToString as preactRenderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { CachedFragment, FragmentRendererProvider } from "./cached-fragment";
import { createFragmentCache, type FragmentCache } from "./fragment-cache.server";

const Shop = createContext("no shop");
/** The server's renderer, on React's element types (the app's JSX types are React's). */
const renderToString = (node: ReactNode) => preactRenderToString(node as Parameters<typeof preactRenderToString>[0]);
const cached = (cacheKey: string, children: ReactNode) => h(CachedFragment, { cacheKey, children });

/** A part that counts its renders and shows the shop its provider gives. */
function counted() {
  const calls: string[] = [];
  function Part({ label }: { label: string }) {
    calls.push(label);
    return h("p", { class: "part" }, `${label} – ${useContext(Shop)} & <b>`);
  }
  return { Part, calls };
}

function page(cache: FragmentCache | null, Part: (props: { label: string }) => unknown, labels: string[]) {
  const parts = labels.map((label, i) =>
    h("li", { key: i }, cached(`part:${label}`, h(Part as never, { label }))),
  );
  return renderToString(
    h(FragmentRendererProvider, { value: cache ? cache.render : null, children: h(Shop.Provider, { value: "Comptoir", children: h("ul", null, parts) }) }),
  );
}

describe("createFragmentCache", () => {
  it("writes the same markup as rendering in place, with the providers above, rendering each key once", () => {
    const plain = counted();
    const expected = page(null, plain.Part, ["a", "b", "a"]);
    expect(expected).toContain("<li><p class=\"part\">a – Comptoir &amp; &lt;b></p></li>");

    const reusing = counted();
    const cache = createFragmentCache({ maxChars: 10_000 });
    expect(page(cache, reusing.Part, ["a", "b", "a"])).toBe(expected);
    expect(page(cache, reusing.Part, ["a", "b", "a"])).toBe(expected);
    expect(reusing.calls).toEqual(["a", "b"]);
    expect(cache.stats().entries).toBe(2);
  });

  it("drops the least recently used parts beyond its size", () => {
    const { Part, calls } = counted();
    const one = renderToString(h(Shop.Provider, { value: "Comptoir", children: h(Part, { label: "a" }) })).length + "part:a".length;
    calls.length = 0;
    const cache = createFragmentCache({ maxChars: 2 * one });
    page(cache, Part, ["a", "b"]);
    page(cache, Part, ["a"]); // a is now the most recently used
    page(cache, Part, ["c"]); // over the size: b goes
    expect(cache.stats()).toEqual({ entries: 2, chars: 2 * one });
    page(cache, Part, ["a", "c", "b"]);
    expect(calls).toEqual(["a", "b", "c", "b"]);
  });

  it("numbers useId from zero inside a part, which is why parts must not use it", () => {
    function WithId() {
      return h("span", { id: useId() });
    }
    const cache = createFragmentCache({ maxChars: 10_000 });
    const html = renderToString(
      h(FragmentRendererProvider, { value: cache.render, children: h("div", null, h(WithId, null), cached("id", h(WithId, null))) }),
    );
    const ids = [...html.matchAll(/id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });
});
