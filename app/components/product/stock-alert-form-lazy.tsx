import { lazy, Suspense } from "react";

const Form = lazy(() => import("./stock-alert-form").then((module) => ({ default: module.StockAlertForm })));

/**
 * "Prévenez-moi" in a chunk of its own, with the schema it checks in the browser (zod): only a
 * product sold out or not on sale yet shows it, and in the listings' shared chunk it brought zod
 * (about 25 KB gzipped) to every product page and listing. The server renders it in the page all
 * the same; the browser loads it with the page's hydration.
 */
export function StockAlertForm({ productId }: { productId: number }) {
  return (
    <Suspense fallback={null}>
      <Form productId={productId} />
    </Suspense>
  );
}
