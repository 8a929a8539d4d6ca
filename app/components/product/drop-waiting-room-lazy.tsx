import { lazy, type ReactNode, Suspense } from "react";

const Room = lazy(() => import("./drop-waiting-room").then((module) => ({ default: module.DropWaitingRoom })));

/**
 * A drop's waiting room in a chunk of its own: only a drop's page shows it, so every other
 * product page does not carry it (its polling, its states, its collector form's loader). The
 * server renders it in the page all the same; the browser loads it with the page's hydration.
 */
export function DropWaitingRoom({ productId, children }: { productId: number; children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Room productId={productId}>{children}</Room>
    </Suspense>
  );
}
