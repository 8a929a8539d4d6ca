import { lazy, Suspense } from "react";

const Form = lazy(() => import("./stock-alert-form").then((module) => ({ default: module.StockAlertForm })));

/**
 * "Prévenez-moi" in a chunk of its own: only a product sold out or not on sale yet shows it, so
 * the listings' shared chunk does not carry it (its schema, zod, comes with its first submit:
 * decision 023). The server renders it in the page all the same; the browser loads it with the
 * page's hydration.
 */
export function StockAlertForm({ productId }: { productId: number }) {
  return (
    <Suspense fallback={null}>
      <Form productId={productId} />
    </Suspense>
  );
}
