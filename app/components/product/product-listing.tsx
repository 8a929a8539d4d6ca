import type { ReactNode } from "react";
import { useLocation, useNavigation } from "react-router";
import { Pagination } from "~/components/ui/pagination";
import type { ProductView } from "~/domain/product-view";
import { ProductGrid, type ProductGridOptions, ProductGridSkeleton } from "./product-grid";
import { countOf } from "~/domain/numbers";

/**
 * A paged product list of a category page: count, grid, empty state and numbered pager. Moving
 * within the same page (another page number, a filter) shows 8 skeleton cards until the data
 * is in; leaving for another route keeps the current list on screen.
 */
export function ProductListing({
  products,
  total,
  page,
  pageCount,
  href,
  empty,
  emptyAction,
  ...gridOptions
}: {
  products: ProductView[];
  total: number;
  page: number;
  pageCount: number;
  href: (page: number) => string;
  /** The empty-state sentence of SPEC.md. */
  empty: string;
  emptyAction?: ReactNode;
} & ProductGridOptions) {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const loading = navigation.state === "loading" && navigation.location.pathname === pathname;

  return (
    <>
      <p className="tabular min-h-5 text-sm text-muted-foreground" role="status">
        {total > 0 ? countOf(total, "produit") : null}
      </p>
      <div className="mt-4">
        {loading ? (
          <ProductGridSkeleton count={8} />
        ) : products.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-border p-10 text-center">
            <p className="text-muted-foreground">{empty}</p>
            {emptyAction ? <div className="mt-4">{emptyAction}</div> : null}
          </div>
        ) : (
          <ProductGrid products={products} eagerCount={4} {...gridOptions} />
        )}
      </div>
      <Pagination page={page} pageCount={pageCount} href={href} className="mt-8" />
    </>
  );
}
