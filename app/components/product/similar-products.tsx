import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { ProductView } from "~/domain/product-view";
import { ProductGrid, ProductGridSkeleton } from "./product-grid";

/**
 * Up to 4 similar products, fetched only when the block scrolls into view (SPEC.md).
 * Reloaded when the product changes.
 */
export function SimilarProducts({ productId }: { productId: number }) {
  const fetcher = useFetcher<{ products: ProductView[] }>();
  const ref = useRef<HTMLElement>(null);
  const load = fetcher.load;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const url = `/api/products/${productId}/similar`;
    if (typeof IntersectionObserver === "undefined") {
      void load(url);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          void load(url);
        }
      },
      { rootMargin: "200px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [productId, load]);

  const products = fetcher.data?.products;
  if (products && products.length === 0) return null;
  return (
    <section ref={ref} aria-labelledby="similar-title" className="mt-16">
      <h2 id="similar-title" className="text-2xl font-extrabold tracking-tight">
        Produits similaires
      </h2>
      <div className="mt-6">{products ? <ProductGrid products={products} /> : <ProductGridSkeleton count={4} waiting={fetcher.state === "idle"} />}</div>
    </section>
  );
}
