import * as React from "react";
import { type To, UNSAFE_LocationContext, UNSAFE_NavigationContext, UNSAFE_RouteContext } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NotFound, shouldRedirectToCatalog } from "./not-found";

describe("shouldRedirectToCatalog", () => {
  it("redirects vanished product pages", () => {
    expect(shouldRedirectToCatalog("/product/12")).toBe(true);
    expect(shouldRedirectToCatalog("/product/dracaufeu-ex")).toBe(true);
  });

  it("does not redirect /product/undefined nor other paths", () => {
    expect(shouldRedirectToCatalog("/product/undefined")).toBe(false);
    expect(shouldRedirectToCatalog("/foo")).toBe(false);
    expect(shouldRedirectToCatalog("/products")).toBe(false);
    expect(shouldRedirectToCatalog("/catalog")).toBe(false);
  });
});

type Element = { props?: { role?: string; children?: unknown } };
type Effect = { deps: unknown[] | undefined; cleanup?: void | (() => void) };

/**
 * NotFound at `pathname`, run by a few lines standing in for React's renderer (the unit tests
 * have no DOM): its hooks keep their state from one render to the next, its layout effects then
 * its effects run after a render and clean up before they run again, and a state change renders
 * it again. React Router's own hooks run, on a router whose navigator records each navigation.
 */
function mount(pathname: string) {
  const internals = (React as unknown as Record<string, { H: unknown }>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE!;
  const navigations: { to: string; replace: boolean }[] = [];
  const href = (to: To) => (typeof to === "string" ? to : `${to.pathname ?? ""}${to.search ?? ""}${to.hash ?? ""}`);
  const navigator = {
    createHref: href,
    push: (to: To) => navigations.push({ to: href(to), replace: false }),
    replace: (to: To) => navigations.push({ to: href(to), replace: true }),
    go: () => {},
  };
  const contexts = new Map<unknown, unknown>([
    [UNSAFE_LocationContext, { location: { pathname, search: "", hash: "", state: null, key: "default" }, navigationType: "POP" }],
    [UNSAFE_NavigationContext, { basename: "/", navigator, static: false, future: {} }],
    [UNSAFE_RouteContext, { outlet: null, matches: [], isDataRoute: false }],
  ]);

  const slots: unknown[] = [];
  const effects: Effect[] = [];
  let queued: { layout: (() => void)[]; passive: (() => void)[] } = { layout: [], passive: [] };
  let cursor = 0;
  let rendering = false;
  let tree: unknown = null;
  const changed = (before: unknown[] | undefined, after: unknown[] | undefined) =>
    !before || !after || before.length !== after.length || before.some((value, i) => !Object.is(value, after[i]));
  const effect = (kind: "layout" | "passive") => (create: () => void | (() => void), deps?: unknown[]) => {
    const i = cursor++;
    const previous = slots[i] as Effect | undefined;
    if (previous && !changed(previous.deps, deps)) return;
    const slot: Effect = { deps };
    slots[i] = slot;
    queued[kind].push(() => {
      if (typeof previous?.cleanup === "function") previous.cleanup();
      slot.cleanup = create();
      effects.push(slot);
    });
  };
  const memo = <T,>(create: () => T, deps: unknown[]): T => {
    const i = cursor++;
    const previous = slots[i] as { value: T; deps: unknown[] } | undefined;
    if (previous && !changed(previous.deps, deps)) return previous.value;
    slots[i] = { value: create(), deps };
    return (slots[i] as { value: T }).value;
  };
  const dispatcher = {
    useContext: (context: { _currentValue?: unknown }) => (contexts.has(context) ? contexts.get(context) : context._currentValue),
    useState: <T,>(initial: T | (() => T)) => {
      const i = cursor++;
      if (!(i in slots)) slots[i] = typeof initial === "function" ? (initial as () => T)() : initial;
      const set = (next: T | ((value: T) => T)) => {
        if (rendering) throw new Error("a state change during a render: not supported here");
        const value = typeof next === "function" ? (next as (value: T) => T)(slots[i] as T) : next;
        if (Object.is(value, slots[i])) return;
        slots[i] = value;
        render();
      };
      return [slots[i], set];
    },
    useRef: <T,>(initial: T) => {
      const i = cursor++;
      if (!(i in slots)) slots[i] = { current: initial };
      return slots[i];
    },
    useMemo: memo,
    useCallback: <T,>(callback: T, deps: unknown[]) => memo(() => callback, deps),
    useLayoutEffect: effect("layout"),
    useEffect: effect("passive"),
  };

  function render() {
    const previous = internals.H;
    internals.H = dispatcher;
    cursor = 0;
    rendering = true;
    try {
      tree = NotFound();
    } finally {
      rendering = false;
      internals.H = previous;
    }
    const { layout, passive } = queued;
    queued = { layout: [], passive: [] };
    for (const run of [...layout, ...passive]) run();
  }
  render();

  /** The text of the element of that role, or null when there is none. */
  function textOf(role: string): string | null {
    const find = (node: unknown): Element | null => {
      if (Array.isArray(node)) return node.map(find).find(Boolean) ?? null;
      const element = node as Element | null;
      if (!element?.props) return null;
      return element.props.role === role ? element : find(element.props.children);
    };
    const text = (node: unknown): string =>
      Array.isArray(node) ? node.map(text).join("") : typeof node === "string" || typeof node === "number" ? String(node) : text((node as Element | null)?.props?.children ?? []);
    const found = find(tree);
    return found ? text(found.props!.children) : null;
  }

  return {
    navigations,
    status: () => textOf("status"),
    unmount: () => {
      for (const slot of effects) if (typeof slot.cleanup === "function") slot.cleanup();
    },
  };
}

describe("NotFound", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("counts 5 seconds down on a vanished product page, then replaces it with /catalog", () => {
    const page = mount("/product/12-dracaufeu");
    expect(console.error).toHaveBeenCalledWith("404 : la page /product/12-dracaufeu n'existe pas");
    expect(page.status()).toBe("Ce produit n'est plus disponible. Vous allez être redirigé vers le catalogue dans 5 secondes.");
    vi.advanceTimersByTime(1_000);
    expect(page.status()).toMatch(/dans 4 secondes\.$/);
    vi.advanceTimersByTime(3_000);
    expect(page.status()).toMatch(/dans 1 seconde\.$/);
    vi.advanceTimersByTime(999);
    expect(page.navigations).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(page.navigations).toEqual([{ to: "/catalog", replace: true }]);
    page.unmount();
  });

  it("does not go to the catalogue once the visitor has left the page", () => {
    const page = mount("/product/12");
    vi.advanceTimersByTime(3_000);
    page.unmount();
    vi.advanceTimersByTime(10_000);
    expect(page.navigations).toEqual([]);
  });

  it("neither counts down nor redirects elsewhere", () => {
    for (const pathname of ["/page-qui-n-existe-pas", "/product/undefined"]) {
      const page = mount(pathname);
      expect(page.status()).toBeNull();
      vi.advanceTimersByTime(10_000);
      expect(page.navigations).toEqual([]);
      page.unmount();
    }
  });
});
