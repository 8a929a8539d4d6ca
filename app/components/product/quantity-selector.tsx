import { Minus, Plus } from "lucide-react";
import type { ComponentProps } from "react";
import { clampQuantity } from "~/domain/cart";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/** Quantity from 1 to the stock (SPEC.md section 5): minus unavailable at 1, plus at the stock. */
export function QuantitySelector({
  value,
  max,
  onChange,
  id = "quantity",
}: {
  value: number;
  max: number;
  onChange: (value: number) => void;
  id?: string;
}) {
  const disabled = max <= 0;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Quantité
      </label>
      <div className="flex items-center rounded-lg border border-border">
        <QuantityButton onClick={() => onChange(clampQuantity(value - 1, max))} disabled={disabled} atLimit={value <= 1} aria-label="Diminuer la quantité">
          <Minus aria-hidden="true" />
        </QuantityButton>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={1}
          max={Math.max(1, max)}
          value={value}
          disabled={disabled}
          onChange={(event) => {
            onChange(clampQuantity(Number(event.currentTarget.value), max));
          }}
          className="tabular h-11 w-14 bg-transparent text-center text-sm font-semibold [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none"
        />
        <QuantityButton onClick={() => onChange(clampQuantity(value + 1, max))} disabled={disabled} atLimit={value >= max} aria-label="Augmenter la quantité">
          <Plus aria-hidden="true" />
        </QuantityButton>
      </div>
    </div>
  );
}

/**
 * − or +: at its limit it says so (aria-disabled) but keeps the focus, so a keyboard user who
 * reaches the stock is not thrown back to the top of the page.
 */
export function QuantityButton({ atLimit, onClick, className, ...props }: ComponentProps<typeof Button> & { atLimit: boolean }) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      aria-disabled={atLimit || undefined}
      onClick={atLimit ? undefined : onClick}
      className={cn("aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-transparent", className)}
      {...props}
    />
  );
}
