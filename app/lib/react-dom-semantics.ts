import { options } from "preact";

/**
 * The page runs on Preact's React compatibility layer (decision 022). Where React DOM treats a
 * prop differently from Preact, this brings React's meaning back, on the server and in the
 * browser alike, for every element (ours, Radix's, React Router's).
 */

/** React reads these itself and never writes them to the page; Preact would write attributes. */
const REACT_ONLY_PROPS = ["suppressHydrationWarning", "precedence"] as const;

/** Attributes whose "false" means something (React writes the word, Preact removes the attribute). */
const ENUMERATED_PROPS = ["spellCheck", "draggable", "contentEditable"] as const;

/** Elements already given focus by `autoFocus`: React focuses once, when the element mounts. */
const autoFocused = new WeakSet<Element>();

type Ref = ((element: Element | null) => void) | { current: Element | null } | null | undefined;

function focusOnMount(ref: Ref) {
  return (element: Element | null) => {
    if (element && !autoFocused.has(element)) {
      autoFocused.add(element);
      // After the insertion, as React does: the element is in the document by then.
      queueMicrotask(() => (element as HTMLElement).focus());
    }
    if (typeof ref === "function") ref(element);
    else if (ref) ref.current = element;
  };
}

function isExecutableScriptType(type: unknown): boolean {
  return type === undefined || type === "" || type === "module" || type === "text/javascript";
}

/** React's discrete events: the effects of the render one causes run before its task ends. */
const DISCRETE_EVENTS = [
  "keydown", "keyup", "keypress", "click", "auxclick", "dblclick", "contextmenu", "mousedown", "mouseup",
  "pointerdown", "pointerup", "pointercancel", "touchstart", "touchend", "touchcancel", "input", "change",
  "beforeinput", "submit", "reset", "focusin", "focusout", "compositionstart", "compositionend", "dragstart", "drop",
] as const;

/**
 * Preact runs effects (useEffect) after the next frame is painted; React runs those of a render
 * caused by a key press or a click at the end of that render, before the next event. A widget
 * that moves the focus in an effect (react-day-picker's days, Radix's menus) would otherwise
 * leave the next key press (Enter after an arrow) on the element it left.
 */
if (typeof window !== "undefined") {
  let discrete = false;
  let flushEffects: (() => void) | null = null;
  let flushQueued = false;
  const reset = () => (discrete = false);
  for (const type of DISCRETE_EVENTS) {
    window.addEventListener(
      type,
      () => {
        if (!discrete) setTimeout(reset);
        discrete = true;
      },
      { capture: true, passive: true },
    );
  }
  const afterFrame = (callback: () => void) => {
    const done = () => {
      clearTimeout(timeout);
      cancelAnimationFrame(frame);
      setTimeout(callback);
    };
    const timeout = setTimeout(done, 35);
    const frame = requestAnimationFrame(done);
  };
  // After the render's commit (its microtask), still inside the event's task.
  const flushSoon = () => {
    if (flushQueued || !flushEffects) return;
    flushQueued = true;
    const flush = flushEffects;
    queueMicrotask(() => {
      flushQueued = false;
      flush();
    });
  };
  options.requestAnimationFrame = (flush: () => void) => {
    flushEffects = flush;
    if (discrete) flushSoon();
    else afterFrame(flush);
  };
  // Effects queued behind a flush already waiting for the frame.
  const previousDiffed = options.diffed;
  options.diffed = (vnode) => {
    previousDiffed?.(vnode);
    if (discrete) flushSoon();
  };
}

const previous = options.vnode;
options.vnode = (vnode) => {
  if (typeof vnode.type === "string" && vnode.props) {
    const props = vnode.props as Record<string, unknown>;
    for (const name of REACT_ONLY_PROPS) if (name in props) delete props[name];
    // Enumerated attributes: React writes spellcheck="false"; Preact drops a false attribute.
    for (const name of ENUMERATED_PROPS) {
      if (typeof props[name] === "boolean") {
        const value = String(props[name]);
        delete props[name];
        props[name.toLowerCase()] = value;
      }
    }
    // React's onChange on a form hears every keystroke of its fields (the input event);
    // the DOM's change event on a form only fires when a field loses focus.
    if (vnode.type === "form" && typeof props.onChange === "function") {
      props.onInput = props.onChange;
      delete props.onChange;
    }
    const inBrowser = typeof document !== "undefined";
    // The attribute only works on page load (the server's page keeps it); in the browser
    // React focuses the element when it mounts.
    if ("autoFocus" in props && inBrowser) {
      if (props.autoFocus === true) {
        const node = vnode as unknown as { ref: Ref };
        node.ref = focusOnMount(node.ref);
      }
      delete props.autoFocus;
    }
    // React creates the scripts a component renders in the browser inert (only the server's
    // run); Preact's would run, and the page's CSP refuses them (a script whose component is
    // rendered again, e.g. after a live update). Hydration keeps the server's attributes.
    if (vnode.type === "script" && inBrowser && isExecutableScriptType(props.type)) {
      props.type = "text/plain";
    }
  }
  previous?.(vnode);
  // Preact's React layer marks the options a select's defaultValue names, then leaves the prop
  // on, which a select has no property for: it became an invalid `defaultvalue` attribute.
  if (vnode.type === "select" && vnode.props && "defaultValue" in vnode.props) delete (vnode.props as Record<string, unknown>).defaultValue;
};
