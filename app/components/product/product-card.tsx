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

export function ProductCard({ product, eager = false }: { product: ProductView; eager?: boolean }) {
  const state = stockState(product.stock);
  return (
    <article className="group flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-lg">
      <Link to={productPath(product)} className="relative block" tabIndex={-1} aria-hidden="true">
        <ProductImage product={product} sizes={CARD_SIZES} eager={eager} className="transition-transform group-hover:scale-[1.02]" />
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <ProductBadges product={product} />
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
        <AddToCartButton product={product} />
      </div>
    </article>
  );
}
