import * as circleCheck from "lucide-react/icons/circle-check";
import * as house from "lucide-react/icons/house";
import * as search from "lucide-react/icons/search";
import { renderToString } from "preact-render-to-string";
import { type ComponentType, createElement } from "react";
import { describe, expect, it } from "vitest";
import { type LucideIconData, leanIcon } from "./lean-icon";

/** What the build hands leanIcon (vite.config.ts); the package's types only declare the component. */
const dataOf = (module: object) => (module as { __iconData: LucideIconData }).__iconData;

const html = (component: ComponentType<Record<string, unknown>>, props: Record<string, unknown>) =>
  renderToString(createElement(component, props) as never);

const ICONS = [
  ["house (an alias: home)", house],
  ["search (a circle)", search],
  ["circle-check", circleCheck],
] as const;

describe("leanIcon", () => {
  it.each(ICONS)("writes what lucide-react writes: %s", (_name, module) => {
    const lucide = module.default;
    const lean = leanIcon(dataOf(module));
    for (const props of [
      { className: "size-4 text-muted-foreground", "aria-hidden": "true" },
      { className: "!size-5" },
      {},
      { "aria-label": "Rechercher" },
      { role: "img", "aria-labelledby": "t" },
      { "aria-describedby": "d" },
      { "aria-label": undefined, className: "size-4" },
      { className: "size-5", "data-state": "on", id: "icon" },
    ]) {
      expect(html(lean as never, props)).toBe(html(lucide as never, props));
    }
  });
});
