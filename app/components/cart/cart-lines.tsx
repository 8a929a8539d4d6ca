import { Minus, Plus, Trash2 } from "lucide-react";
import { useRef } from "react";
import { Button } from "~/components/ui/button";
import { QuantityButton } from "~/components/product/quantity-selector";
import type { CartLine } from "~/domain/cart";
import { PLACEHOLDER_IMAGE } from "~/domain/images";
import { formatEuros } from "~/domain/money";
import { productPath } from "~/domain/product-url";
import { changeQuantity, removeLine } from "~/lib/cart-store";
import { cn } from "~/lib/utils";
import { Link } from "react-router";

/**
 * The cart's lines on /cart: image, name (to the product page), unit price, quantity − / +
 * (− stops at 1, + at the stock), line total, remove. `afterLastRemoved` says where the focus
 * goes when the last line leaves (otherwise it moves to the next line's remove button).
 */
export function CartLines({ items, disabled, afterLastRemoved }: { items: CartLine[]; disabled?: boolean; afterLastRemoved?: () => void }) {
  const list = useRef<HTMLUListElement>(null);

  function remove(productId: number, index: number) {
    removeLine(productId);
    // The pressed button is gone: keep the keyboard where it was rather than on <body>.
    requestAnimationFrame(() => {
      const buttons = list.current?.querySelectorAll<HTMLButtonElement>("[data-remove-line]");
      if (buttons && buttons.length > 0) buttons[Math.min(index, buttons.length - 1)]?.focus();
      else afterLastRemoved?.();
    });
  }

  return (
    <ul ref={list} className="flex flex-col divide-y divide-border rounded-2xl border border-border bg-card" aria-label="Articles du panier">
      {items.map(({ product, quantity }, index) => (
        <li key={product.id} className="grid grid-cols-[4.5rem_1fr] items-start gap-x-3 gap-y-3 p-4 sm:grid-cols-[6rem_1fr_auto] sm:items-center sm:gap-x-4">
          <Link to={productPath(product)} className="block overflow-hidden rounded-lg" tabIndex={-1} aria-hidden="true">
            <CartImage src={product.image} className="size-[4.5rem] sm:size-24" />
          </Link>
          <div className="min-w-0">
            <Link to={productPath(product)} className="line-clamp-2 font-semibold hover:text-accent hover:underline">
              {product.name}
            </Link>
            <p className="mt-1 text-sm text-muted-foreground">
              Prix unitaire&nbsp;: <span className="tabular">{formatEuros(product.priceCents)}</span>
            </p>
            {product.preorder ? <p className="mt-0.5 text-xs font-medium">{product.preorder}</p> : null}
            {product.stock <= 3 ? (
              <p className="mt-0.5 text-xs font-medium text-warning">
                {product.stock === 1 ? "Dernier exemplaire" : `Plus que ${product.stock} exemplaires`}
              </p>
            ) : null}
          </div>
          <div className="col-span-2 flex items-center justify-between gap-3 sm:col-span-1 sm:justify-end sm:gap-4">
            <div className="flex items-center gap-1">
              <div className="flex items-center rounded-lg border border-border" role="group" aria-label={`Quantité de ${product.name}`}>
                <QuantityButton
                  onClick={() => changeQuantity(product.id, quantity - 1)}
                  disabled={disabled}
                  atLimit={quantity <= 1}
                  aria-label={`Diminuer la quantité de ${product.name}`}
                >
                  <Minus aria-hidden="true" />
                </QuantityButton>
                <span className="tabular w-9 text-center text-sm font-semibold" aria-live="polite">
                  <span className="sr-only">Quantité&nbsp;: </span>
                  {quantity}
                </span>
                <QuantityButton
                  onClick={() => changeQuantity(product.id, quantity + 1)}
                  disabled={disabled}
                  atLimit={quantity >= product.stock}
                  aria-label={`Augmenter la quantité de ${product.name}`}
                  title={quantity >= product.stock ? "Stock disponible atteint" : undefined}
                >
                  <Plus aria-hidden="true" />
                </QuantityButton>
              </div>
              <RemoveLineButton name={product.name} onClick={() => remove(product.id, index)} disabled={disabled} />
            </div>
            <p className="tabular text-right text-lg font-bold sm:min-w-28">
              <span className="sr-only">Total de la ligne&nbsp;: </span>
              {formatEuros(product.priceCents * quantity)}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A cart line's thumbnail: decorative (the name is next to it). */
export function CartImage({ src, className }: { src: string | null; className?: string }) {
  return (
    <div className={cn("flex aspect-square items-center justify-center rounded-lg bg-surface-art", className)}>
      <img src={src ?? PLACEHOLDER_IMAGE} alt="" width={96} height={96} loading="lazy" decoding="async" className="h-full w-full object-contain p-1" />
    </div>
  );
}

/** A cart line's remove button (the page and the header panel); marked for focus management. */
export function RemoveLineButton({ name, onClick, disabled, className }: { name: string; onClick: () => void; disabled?: boolean; className?: string }) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      onClick={onClick}
      disabled={disabled}
      aria-label={`Retirer ${name} du panier`}
      data-remove-line=""
      className={cn("text-muted-foreground hover:text-destructive", className)}
    >
      <Trash2 aria-hidden="true" />
    </Button>
  );
}
