/**
 * Puts focus back after a dialog closed or a submit changed the page: on `previous` when it is
 * still there and can take it, else on the page's heading (made focusable for this), so focus
 * never drops to the body and a keyboard user does not start again from the top.
 */
export function restoreFocus(previous: Element | null): void {
  if (previous instanceof HTMLElement && previous.isConnected && !previous.matches(":disabled")) {
    previous.focus();
    if (document.activeElement === previous) return;
  }
  const heading = document.querySelector<HTMLElement>("#contenu h1") ?? document.querySelector<HTMLElement>("h1");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus();
}
