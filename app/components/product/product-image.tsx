import type { ProductView } from "~/domain/product-view";
import { PLACEHOLDER_IMAGE } from "~/domain/images";
import { cn } from "~/lib/utils";

/**
 * Single cards sit in a 5:7 frame, everything else in a square one; the art is never
 * cropped (object-contain) and width/height are set so nothing shifts while it loads.
 */
export function ProductImage({
  product,
  sizes,
  eager = false,
  className,
}: {
  product: Pick<ProductView, "name" | "image">;
  sizes: string;
  /**
   * Loaded at once rather than lazily; "high" also asks for it first (the likely LCP image). React
   * preloads high-priority images ahead of everything in <head>, so one per page, not a row.
   */
  eager?: boolean | "high";
  className?: string;
}) {
  const aspect = product.image?.aspect ?? "square";
  const [w, h] = aspect === "card" ? [640, 896] : [640, 640];
  return (
    <div className={cn("flex items-center justify-center overflow-hidden bg-surface-art", "aspect-square", className)}>
      <img
        src={product.image?.src ?? PLACEHOLDER_IMAGE}
        srcSet={product.image?.srcSet}
        sizes={product.image ? sizes : undefined}
        alt={product.name}
        width={w}
        height={h}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={eager === "high" ? "high" : undefined}
        className={cn("h-full w-full object-contain", aspect === "card" ? "p-4" : "p-2")}
      />
    </div>
  );
}
