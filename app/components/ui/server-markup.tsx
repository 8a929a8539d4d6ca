import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { cn } from "~/lib/utils";

/**
 * Markup the server rendered from components that need no JavaScript (services/static-markup.server.ts),
 * so their code stays out of the page's bundle. Its links to the shop's own pages still navigate
 * inside the app, as a <Link> would; other links (another site, a new tab, a download, a
 * modified click, an anchor on this page) keep the browser's behaviour.
 */
export function ServerMarkup({ html, className }: { html: string; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a") : null;
      if (!link || link.target || link.hasAttribute("download")) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin || (url.pathname === window.location.pathname && url.search === window.location.search)) return;
      event.preventDefault();
      void navigate(url.pathname + url.search + url.hash);
    };
    element.addEventListener("click", onClick);
    return () => element.removeEventListener("click", onClick);
  }, [navigate]);
  return <div ref={ref} className={cn(className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
