/**
 * Puts focus back after a dialog closed or a submit changed the page: on `previous` when it is
 * still there and can take it, else on the page's heading (made focusable for this), so focus
 * never drops to the body and a keyboard user does not start again from the top. When
 * `previous` goes a moment later (the row a confirmed deletion removes, the button an order's
 * new status replaces), focus follows to the heading then.
 */
/** Focus fell to the page's body: the element that had it was removed or disabled. */
export function focusIsLost(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

export function restoreFocus(previous: Element | null): void {
  if (previous instanceof HTMLElement && previous.isConnected && !previous.matches(":disabled")) {
    previous.focus();
    if (document.activeElement === previous) {
      followRemoval(previous);
      return;
    }
  }
  focusHeading();
}

export function focusHeading(options?: FocusOptions): void {
  const heading = document.querySelector<HTMLElement>("#contenu h1") ?? document.querySelector<HTMLElement>("h1");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus(options);
}

/** Watches `element` for a few seconds: removed while it has the focus, the heading takes it. */
function followRemoval(element: HTMLElement): void {
  const check = () => {
    if (element.isConnected) return;
    stop();
    if (focusIsLost()) focusHeading();
  };
  const observer = new MutationObserver(check);
  // A blur is the user moving on, or (in browsers that fire one) the element's removal.
  const moved = () =>
    window.setTimeout(() => {
      if (element.isConnected) stop();
      else check();
    });
  const timer = window.setTimeout(() => stop(), 10_000);
  function stop() {
    observer.disconnect();
    element.removeEventListener("blur", moved);
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  element.addEventListener("blur", moved);
}
