import { ChevronLeft, ChevronRight } from "lucide-react";
import { useLayoutEffect, useRef } from "react";
import { pageWindow } from "~/domain/pagination";
import { focusHeading, focusIsLost } from "~/lib/restore-focus";
import { cn } from "~/lib/utils";
import { buttonVariants } from "./button";
import { Link } from "react-router";

/**
 * Numbered pager of links (works without JavaScript). Following a link scrolls to the top,
 * as SPEC.md asks of the TCG page, and the focus goes to the page's heading there (it would
 * stay on a link at the bottom of a page the visitor is no longer reading); hidden when there
 * is a single page.
 */
export function Pagination({
  page,
  pageCount,
  href,
  maxNumbers = 5,
  items,
  showPageText = true,
  className,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  maxNumbers?: number;
  /** The numbers to show, "…" for a gap (the admin list's pager); else `maxNumbers` around the page. */
  items?: (number | "…")[];
  /** "Page x sur y" under the numbers, unless the screen shows it elsewhere. */
  showPageText?: boolean;
  className?: string;
}) {
  const nav = useRef<HTMLElement>(null);
  const followed = useRef(false);
  useLayoutEffect(() => {
    if (!followed.current) return;
    followed.current = false;
    // The scroll is ScrollRestoration's (or the history entry's) to set.
    if (focusIsLost() || nav.current?.contains(document.activeElement)) focusHeading({ preventScroll: true });
  }, [page]);
  if (pageCount <= 1) return null;
  const edge = "inline-flex size-11 items-center justify-center rounded-lg";
  return (
    <nav
      ref={nav}
      aria-label="Pagination"
      onClick={(event) => {
        if (event.target instanceof Element && event.target.closest("a")) followed.current = true;
      }}
      className={cn(
        "flex flex-wrap items-center justify-center gap-1.5",
        className,
      )}
    >
      {page > 1 ? (
        <Link
          key="previous"
          to={href(page - 1)}
          className={buttonVariants({ variant: "outline", size: "icon" })}
          aria-label="Page précédente"
        >
          <ChevronLeft aria-hidden="true" />
        </Link>
      ) : (
        <span
          key="previous"
          className={cn(edge, "border border-border opacity-40")}
          aria-hidden="true"
        >
          <ChevronLeft className="size-4" />
        </span>
      )}
      {(items ?? pageWindow(page, pageCount, maxNumbers)).map((n, i) =>
        n === "…" ? (
          <span
            key={`gap-${i}`}
            className={cn(edge, "text-muted-foreground")}
            aria-hidden="true"
          >
            …
          </span>
        ) : (
          <Link
            key={n}
            to={href(n)}
            aria-label={`Page ${n}`}
            aria-current={n === page ? "page" : undefined}
            className={cn(
              buttonVariants({
                variant: n === page ? "primary" : "outline",
                size: "icon",
              }),
              "tabular",
            )}
          >
            {n}
          </Link>
        ),
      )}
      {page < pageCount ? (
        <Link
          key="next"
          to={href(page + 1)}
          className={buttonVariants({ variant: "outline", size: "icon" })}
          aria-label="Page suivante"
        >
          <ChevronRight aria-hidden="true" />
        </Link>
      ) : (
        <span
          key="next"
          className={cn(edge, "border border-border opacity-40")}
          aria-hidden="true"
        >
          <ChevronRight className="size-4" />
        </span>
      )}
      {showPageText ? (
        <p className="tabular w-full pt-1 text-center text-sm text-muted-foreground">
          Page {page} sur {pageCount}
        </p>
      ) : null}
    </nav>
  );
}
