import { Component, Suspense, type ReactNode } from "react";

/**
 * Hydration in slices (decision 026). A page's first hydration was one long task (on /catalog
 * about 100 ms on a mid-range phone, 4 times that under Lighthouse's slowdown), during which a
 * tap waits. A part wrapped in <HydrateLater> suspends during that first hydration: Preact keeps
 * its server markup as it is and hydrates it when its turn comes, each part in a task of its
 * own, in page order. Outside the first hydration (a client navigation, a part shown later) it
 * renders at once.
 *
 * Until every part has hydrated, the page behaves as server HTML does: a click on a link and a
 * form's submission are left to the browser (a page load), and a press on a button marked
 * data-early-press is held until that button has hydrated (early-press.ts). Should the router's
 * state change meanwhile (a live update), the waiting parts hydrate at once, before the change
 * reaches them: a part always hydrates the markup it was rendered with.
 */

type RouterState = {
  navigation: { state: string };
  revalidation: string;
  location: unknown;
  loaderData: unknown;
  actionData: unknown;
  errors: unknown;
};
type DataRouter = { state: RouterState; subscribe(listener: (state: RouterState) => void): () => void };

let firstHydration = false;
const turns: (() => void)[] = [];
let draining = false;
let whenDone: (() => void) | null = null;
let stopWatching: (() => void) | null = null;

/**
 * In the browser, before the first hydration: from here on, HydrateLater parts wait for their
 * turn. Resolves in the next task: the modules have just run in this one, the root hydrates there.
 */
export function startSlicedHydration(done: () => void): Promise<void> {
  firstHydration = true;
  whenDone = done;
  document.addEventListener("click", leaveToBrowser, true);
  document.addEventListener("submit", leaveToBrowser, true);
  return new Promise((resolve) => nextTask(resolve));
}

/** Once the root has hydrated (its layout's effect): the waiting parts hydrate, one task each. */
export function hydrateWaitingParts() {
  if (draining || !firstHydration) return;
  draining = true;
  const router = (window as unknown as { __reactRouterDataRouter?: DataRouter }).__reactRouterDataRouter;
  if (router) {
    const first = router.state;
    stopWatching = router.subscribe((state) => {
      const changed =
        state.navigation.state !== "idle" ||
        state.revalidation !== "idle" ||
        state.location !== first.location ||
        state.loaderData !== first.loaderData ||
        state.actionData !== first.actionData ||
        state.errors !== first.errors;
      if (changed) hydrateAllNow();
    });
  }
  nextTask(hydrateNext);
}

/** Before a change reaches the page: every part still waiting, and any inside them, hydrate now. */
function hydrateAllNow() {
  firstHydration = false;
  for (const resolve of turns.splice(0)) resolve();
}

function hydrateNext() {
  const resolve = turns.shift();
  if (resolve) {
    resolve();
    // The part hydrates in this task's microtasks (parts inside it join the queue); the next
    // part gets a task of its own.
    return nextTask(hydrateNext);
  }
  firstHydration = false;
  draining = false;
  stopWatching?.();
  document.removeEventListener("click", leaveToBrowser, true);
  document.removeEventListener("submit", leaveToBrowser, true);
  whenDone?.();
  whenDone = null;
}

/**
 * Captured at the document, before any element's own handler: a link or a form handled in the
 * app (a router navigation) could change a part that has not hydrated yet. The browser's own
 * way (a page load) is left as it is; a prevented click stays prevented (an early press).
 */
function leaveToBrowser(event: Event) {
  if (!firstHydration || event.defaultPrevented) return;
  if (event.type === "submit" || (event.target instanceof Element && event.target.closest("a[href]"))) event.stopPropagation();
}

const channel = typeof MessageChannel === "undefined" ? null : new MessageChannel();
const queuedTasks: (() => void)[] = [];
if (channel) channel.port1.onmessage = () => queuedTasks.shift()?.();

/** Runs `callback` in a task of its own, ahead of timers (nested setTimeouts wait 4 ms each). */
function nextTask(callback: () => void) {
  if (!channel) return void setTimeout(callback);
  queuedTasks.push(callback);
  channel.port2.postMessage(null);
}

/**
 * A class, not a hook: a component that suspends before it first commits loses its hooks but
 * keeps its instance, so the turn it waits for is still there when it renders again.
 */
class WaitForTurn extends Component<{ children: ReactNode }> {
  turn: Promise<void> | null = firstHydration ? new Promise<void>((resolve) => turns.push(resolve)).then(() => void (this.turn = null)) : null;

  render() {
    if (this.turn) throw this.turn;
    return this.props.children;
  }
}

/**
 * A part that hydrates on its turn. Its own Suspense boundary, so each part resumes alone (one
 * boundary resumes all its parts together). `children` must render exactly one element, always:
 * Preact keeps the first node of a suspended part's markup, and would give a second one away.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  return (
    <Suspense>
      <WaitForTurn>{children}</WaitForTurn>
    </Suspense>
  );
}
