import type { ReactNode } from "react";
import { Link } from "react-router";
import type { ProductView } from "~/domain/product-view";
import { productPath } from "~/domain/product-url";
import { stockMessage, stockState } from "~/domain/stock";
import { cn } from "~/lib/utils";
import { AddToCartButton } from "./add-to-cart-button";
import { Price } from "./price";
import { ProductBadges } from "./product-badges";
import { ProductImage } from "./product-image";

const CARD_SIZES = "(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw";

/**
 * How a sold-out product shows: a badge and a disabled "Indisponible" button (the default), or
 * "Rupture de stock" over the image and no button at all (/entertainment, SPEC.md).
 */
export type SoldOutDisplay = "badge" | "overlay";

export function ProductCard({
  product,
  eager = false,
  badge,
  soldOut = "badge",
}: {
  product: ProductView;
  eager?: boolean;
  /** A badge of the page's own, first in the badge row. */
  badge?: ReactNode;
  soldOut?: SoldOutDisplay;
}) {
  const state = stockState(product.stock);
  const overlay = soldOut === "overlay" && state === "out";
  return (
    <article className="group flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-lg">
      <Link to={productPath(product)} className="relative block" tabIndex={-1} aria-hidden="true">
        <ProductImage
          product={product}
          sizes={CARD_SIZES}
          eager={eager}
          className={cn("transition-transform group-hover:scale-[1.02]", overlay && "opacity-50 grayscale")}
        />
        {overlay ? (
          // Hidden from assistive technologies with the rest of the image link: the stock line says it too.
          <span className="absolute inset-0 flex items-center justify-center bg-background/40">
            <span className="rounded-lg bg-destructive px-3 py-1.5 text-sm font-bold text-destructive-foreground shadow-md">
              Rupture de stock
            </span>
          </span>
        ) : null}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <ProductBadges product={product} extra={badge} soldOutBadge={soldOut === "badge"} />
        <h3 className="line-clamp-2 min-h-[2.75rem] text-base font-semibold leading-snug">
          <Link to={productPath(product)} className="hover:text-accent focus-visible:text-accent">
            {product.name}
          </Link>
        </h3>
        <p className="text-sm text-muted-foreground">{product.series ?? product.subCategory ?? product.category}</p>
        <div className="mt-auto flex flex-col gap-0.5 pt-1">
          <Price cents={product.priceCents} className="text-xl" />
          <span
            className={cn(
              "flex items-center gap-1.5 text-xs font-medium",
              state === "out" ? "text-destructive" : state === "low" ? "text-warning" : "text-success",
            )}
          >
            <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
            {stockMessage(product.stock)}
          </span>
        </div>
        {overlay ? null : <AddToCartButton product={product} />}
      </div>
    </article>
  );
}
