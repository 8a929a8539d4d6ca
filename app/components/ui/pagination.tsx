import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "~/components/ui/link";
import { pageWindow } from "~/domain/pagination";
import { cn } from "~/lib/utils";
import { buttonVariants } from "./button";

/**
 * Numbered pager of links (works without JavaScript). Following a link scrolls to the top,
 * as SPEC.md asks of the TCG page; hidden when there is a single page.
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
  if (pageCount <= 1) return null;
  const edge = "inline-flex size-11 items-center justify-center rounded-lg";
  return (
    <nav
      aria-label="Pagination"
      className={cn(
        "flex flex-wrap items-center justify-center gap-1.5",
        className,
      )}
    >
      {page > 1 ? (
        <Link
          to={href(page - 1)}
          className={buttonVariants({ variant: "outline", size: "icon" })}
          aria-label="Page précédente"
        >
          <ChevronLeft aria-hidden="true" />
        </Link>
      ) : (
        <span
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
          to={href(page + 1)}
          className={buttonVariants({ variant: "outline", size: "icon" })}
          aria-label="Page suivante"
        >
          <ChevronRight aria-hidden="true" />
        </Link>
      ) : (
        <span
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
