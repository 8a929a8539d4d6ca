import { describe, expect, it } from "vitest";
import { quietRoutePatches } from "./quiet-route-patches";

/** The part of React Router's router this touches: patchRoutes tells the subscribers, as updateState({}) does. */
function fakeRouter() {
  const listeners = new Set<(state: string) => void>();
  const routes: string[] = [];
  const tell = (state: string) => listeners.forEach((listener) => listener(state));
  return {
    routes,
    tell,
    patchRoutes(parentId: unknown, children: unknown) {
      routes.push(`${parentId}:${children}`);
      tell("same state");
    },
    subscribe(listener: (state: string) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

describe("quietRoutePatches", () => {
  it("applies a patch without telling the subscribers, who still hear every other change", () => {
    const target: Record<string, unknown> = {};
    quietRoutePatches(target);
    const router = fakeRouter();
    target.__reactRouterDataRouter = router;
    expect(target.__reactRouterDataRouter).toBe(router);

    const heard: string[] = [];
    const unsubscribe = router.subscribe((state) => heard.push(state));
    router.patchRoutes("root", "routes/product");
    expect(router.routes).toEqual(["root:routes/product"]);
    expect(heard).toEqual([]);

    router.tell("navigating");
    expect(heard).toEqual(["navigating"]);
    unsubscribe();
    router.tell("idle");
    expect(heard).toEqual(["navigating"]);
  });

  it("hears changes again after a patch that threw", () => {
    const target: Record<string, unknown> = {};
    quietRoutePatches(target);
    const router = fakeRouter();
    router.patchRoutes = () => {
      throw new Error("bad patch");
    };
    target.__reactRouterDataRouter = router;
    const heard: string[] = [];
    router.subscribe((state) => heard.push(state));
    expect(() => router.patchRoutes("root", "x")).toThrow("bad patch");
    router.tell("loading");
    expect(heard).toEqual(["loading"]);
  });

  it("quiets a router that already exists", () => {
    const router = fakeRouter();
    const target: Record<string, unknown> = { __reactRouterDataRouter: router };
    quietRoutePatches(target);
    const heard: string[] = [];
    router.subscribe((state) => heard.push(state));
    router.patchRoutes("root", "routes/tcg");
    expect(heard).toEqual([]);
    expect(router.routes).toEqual(["root:routes/tcg"]);
  });
});
