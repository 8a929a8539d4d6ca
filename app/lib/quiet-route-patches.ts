/**
 * React Router discovers the routes of the links on a page after it loads (a manifest patch per
 * batch of links), adds them to its route tree, then tells its subscribers that its state
 * changed, although nothing in it did: the same location, matches and data. The provider then
 * renders the whole page again for nothing, one of the longest tasks of a page load (on
 * /catalog 60 to 120 ms under Lighthouse's 4x slowdown). A patch never changes what is on the
 * screen: the routes it adds match other addresses, and the next navigation renders with them.
 *
 * So the router's subscribers are not told about a patch. Installed before the router exists
 * (it is made while the page hydrates), by catching the global React Router sets it on.
 */
type Listener = (...args: unknown[]) => void;
type PatchableRouter = {
  patchRoutes: (...args: unknown[]) => unknown;
  subscribe: (listener: Listener) => () => void;
};

const GLOBAL = "__reactRouterDataRouter";

export function quietRoutePatches(target: Record<string, unknown> = window as unknown as Record<string, unknown>) {
  let router: unknown = target[GLOBAL];
  if (router) return quiet(router as PatchableRouter);
  Object.defineProperty(target, GLOBAL, {
    configurable: true,
    enumerable: true,
    get: () => router,
    set(value: unknown) {
      router = value;
      if (value) quiet(value as PatchableRouter);
    },
  });
}

function quiet(router: PatchableRouter) {
  let patching = false;
  const patchRoutes = router.patchRoutes;
  router.patchRoutes = (...args) => {
    patching = true;
    try {
      return patchRoutes(...args);
    } finally {
      patching = false;
    }
  };
  const subscribe = router.subscribe;
  router.subscribe = (listener) =>
    subscribe((...args) => {
      if (!patching) listener(...args);
    });
}
