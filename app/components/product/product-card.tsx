import type { ReactNode } from "react";
import type { ProductView } from "~/domain/product-view";
import { formatEuros } from "~/domain/money";
import { productPath } from "~/domain/product-url";
import { stockMessage, stockState } from "~/domain/stock";
import { AddToCartButton } from "./add-to-cart-button";
import { ProductBadges } from "./product-badges";
import { ProductImage } from "./product-image";
import { WishlistHeart } from "./wishlist-heart";
import { Link } from "react-router";

const CARD_SIZES = "(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw";
const IMAGE_CLASS = "transition-transform group-hover:scale-[1.02]";
const STOCK_CLASS = "-mt-1.5 flex items-center gap-1.5 text-xs font-medium before:size-1.5 before:rounded-full before:bg-current";
const STOCK_TONE = { out: "text-destructive", low: "text-warning", available: "text-success" } as const;

/**
 * How a sold-out product shows: a badge and a disabled "Indisponible" button (the default), or
 * "Rupture de stock" over the image and no button at all (/entertainment, SPEC.md).
 */
export type SoldOutDisplay = "badge" | "overlay";

/**
 * A listing renders dozens of these on every uncached request: few nodes, class strings worked
 * out once. One link, the title's, whose ::after covers the card so the image opens the
 * product too (the button sits above it); the image is then decorative, the title names it.
 */
export function ProductCard({
  product,
  eager = false,
  badge,
  soldOut = "badge",
}: {
  product: ProductView;
  eager?: boolean | "high";
  /** A badge of the page's own, first in the badge row. */
  badge?: ReactNode;
  soldOut?: SoldOutDisplay;
}) {
  const state = stockState(product.stock);
  const overlay = soldOut === "overlay" && state === "out";
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-lg">
      <ProductImage
        product={{ name: "", image: product.image }}
        sizes={CARD_SIZES}
        eager={eager}
        className={overlay ? `${IMAGE_CLASS} opacity-50 grayscale` : IMAGE_CLASS}
      />
      {overlay ? (
        // The stock line says it to assistive technologies.
        <span aria-hidden="true" className="absolute inset-x-0 top-0 flex aspect-square items-center justify-center bg-background/40">
          <span className="rounded-lg bg-destructive px-3 py-1.5 text-sm font-bold text-destructive-foreground shadow-md">Rupture de stock</span>
        </span>
      ) : null}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <ProductBadges product={product} extra={badge} soldOutBadge={soldOut === "badge"} />
        <h3 className="line-clamp-2 min-h-[2.75rem] text-base font-semibold leading-snug">
          <Link to={productPath(product)} className="after:absolute after:inset-0 hover:text-accent focus-visible:text-accent">
            {product.name}
          </Link>
        </h3>
        <p className="text-sm text-muted-foreground">{product.series ?? product.subCategory ?? product.category}</p>
        <p className="tabular mt-auto pt-1 text-xl font-bold">{formatEuros(product.priceCents)}</p>
        <p className={`${STOCK_CLASS} ${STOCK_TONE[state]}`}>{stockMessage(product.stock)}</p>
        {overlay ? null : <AddToCartButton product={product} />}
      </div>
      {/* Over the image's corner, last in the tab order: the card's own action comes first. */}
      <WishlistHeart
        productId={product.id}
        name={product.name}
        className="absolute right-2 top-2 z-10 size-11 rounded-full border border-border bg-background/90 text-foreground shadow-sm hover:bg-muted"
      />
    </article>
  );
}
