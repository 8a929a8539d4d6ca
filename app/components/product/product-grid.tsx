import type { ReactNode } from "react";
import { Skeleton } from "~/components/ui/skeleton";
import type { ProductView } from "~/domain/product-view";
import { ProductCard, type SoldOutDisplay } from "./product-card";

export const GRID_CLASS = "grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4";

export type ProductGridOptions = {
  /**
   * Each card's own badge, first in its badge row (see ProductCard), drawn from the product
   * alone; `name` tells the cached cards that have it from those that do not.
   */
  badge?: { name: string; render: (product: ProductView) => ReactNode };
  soldOut?: SoldOutDisplay;
};

export function ProductGrid({
  products,
  eagerCount = 0,
  badge,
  soldOut,
}: { products: ProductView[]; eagerCount?: number } & ProductGridOptions) {
  return (
    <ul className={GRID_CLASS}>
      {products.map((product, i) => {
        const eager = i < eagerCount && (i === 0 ? "high" : true);
        return (
          <li key={product.id}>
            <ProductCard product={product} eager={eager} badge={badge?.render(product)} soldOut={soldOut} />
          </li>
        );
      })}
    </ul>
  );
}

/** Same box as a ProductCard, so nothing moves when the products arrive. */
export function ProductCardSkeleton() {
  return (
    <div className="flex flex-col overflow-hidden rounded-2xl border border-border bg-card">
      <Skeleton className="aspect-square rounded-none" />
      <div className="flex flex-col gap-2 p-4">
        <Skeleton className="h-5 w-20" />
        <Skeleton className="h-[2.75rem] w-full" />
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="mt-1 h-7 w-24" />
        <Skeleton className="h-4 w-32" />
        <Skeleton className="h-11 w-full" />
      </div>
    </div>
  );
}

/** `waiting`: nothing is loading yet (a block below the fold), so the placeholder stands still. */
export function ProductGridSkeleton({ count, waiting = false }: { count: number; waiting?: boolean }) {
  return (
    <ul className={GRID_CLASS} aria-busy="true" aria-label="Chargement des produits" data-waiting={waiting ? "" : undefined}>
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <ProductCardSkeleton />
        </li>
      ))}
    </ul>
  );
}
