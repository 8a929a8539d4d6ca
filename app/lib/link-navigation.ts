import { useEffect } from "react";
import { useNavigate } from "react-router";

/** The click a browser would follow itself: another tab or window, a download, a modified click. */
export function leftToTheBrowser(event: MouseEvent, anchor: HTMLAnchorElement): boolean {
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (anchor.target !== "" && anchor.target !== "_self") ||
    anchor.hasAttribute("download") ||
    anchor.origin !== window.location.origin
  );
}

/**
 * Follows the shop's links (~/components/ui/link) inside the page, as React Router's <Link>
 * would: one listener for the whole document instead of one handler per link. It listens after
 * React's own handlers, so a handler that prevents the click (a menu that closes) still wins.
 * Before the scripts have run, the browser follows the link as a normal one.
 */
export function useLinkNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const follow = (event: MouseEvent) => {
      const anchor = event.target instanceof Element ? event.target.closest("a[data-link]") : null;
      if (!(anchor instanceof HTMLAnchorElement) || leftToTheBrowser(event, anchor)) return;
      event.preventDefault();
      const to = `${anchor.pathname}${anchor.search}${anchor.hash}`;
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      void navigate(to, {
        // A link to where one already is does not add a step to the history (as <Link> does).
        replace: anchor.hasAttribute("data-replace") || to === here,
        preventScrollReset: anchor.hasAttribute("data-prevent-scroll-reset"),
      });
    };
    document.addEventListener("click", follow);
    return () => document.removeEventListener("click", follow);
  }, [navigate]);
}
