import { Minus, Plus, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import type { CartLine } from "~/domain/cart";
import { PLACEHOLDER_IMAGE } from "~/domain/images";
import { formatEuros } from "~/domain/money";
import { productPath } from "~/domain/product-url";
import { changeQuantity, removeLine } from "~/lib/cart-store";
import { cn } from "~/lib/utils";

/** The cart's lines on /cart: image, name, unit price, quantity −/+, line total, remove. */
export function CartLines({ items, disabled }: { items: CartLine[]; disabled?: boolean }) {
  return (
    <ul className="flex flex-col divide-y divide-border rounded-2xl border border-border bg-card" aria-label="Articles du panier">
      {items.map(({ product, quantity }) => (
        <li key={product.id} className="grid grid-cols-[4.5rem_1fr] gap-4 p-4 sm:grid-cols-[6rem_1fr_auto] sm:items-center">
          <Link to={productPath(product)} className="block overflow-hidden rounded-lg bg-muted" tabIndex={-1} aria-hidden="true">
            <CartImage src={product.image} />
          </Link>
          <div className="min-w-0">
            <Link to={productPath(product)} className="line-clamp-2 font-semibold hover:text-accent hover:underline">
              {product.name}
            </Link>
            <p className="mt-1 text-sm text-muted-foreground">
              Prix unitaire : <span className="tabular">{formatEuros(product.priceCents)}</span>
            </p>
            <div className="mt-3 flex items-center gap-3">
              <div className="flex items-center rounded-lg border border-border" role="group" aria-label={`Quantité de ${product.name}`}>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  onClick={() => changeQuantity(product.id, quantity - 1)}
                  disabled={disabled || quantity <= 1}
                  aria-label={`Diminuer la quantité de ${product.name}`}
                >
                  <Minus aria-hidden="true" />
                </Button>
                <span className="tabular w-10 text-center text-sm font-semibold" aria-live="polite">
                  {quantity}
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  onClick={() => changeQuantity(product.id, quantity + 1)}
                  disabled={disabled || quantity >= product.stock}
                  aria-label={`Augmenter la quantité de ${product.name}`}
                >
                  <Plus aria-hidden="true" />
                </Button>
              </div>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                onClick={() => removeLine(product.id)}
                disabled={disabled}
                aria-label={`Retirer ${product.name} du panier`}
                className="text-muted-foreground hover:text-destructive"
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          </div>
          <p className="tabular col-start-2 text-right text-lg font-bold sm:col-start-3">
            <span className="sr-only">Total de la ligne : </span>
            {formatEuros(product.priceCents * quantity)}
          </p>
        </li>
      ))}
    </ul>
  );
}

/** A cart line's thumbnail: decorative (the name is next to it). */
export function CartImage({ src, className }: { src: string | null; className?: string }) {
  return (
    <div className={cn("flex aspect-square items-center justify-center bg-surface-art", className)}>
      <img src={src ?? PLACEHOLDER_IMAGE} alt="" width={96} height={96} loading="lazy" decoding="async" className="h-full w-full object-contain p-1" />
    </div>
  );
}
