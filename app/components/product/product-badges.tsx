import { AlertTriangle, Sparkles, Star } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { RARITY_LABELS, type Rarity } from "~/domain/catalog-values";
import type { ProductView } from "~/domain/product-view";
import { showLowStockBadge } from "~/domain/stock";

/** A colour per rarity, always with its name: colour is never the only signal. */
const RARITY_TONE: Record<Rarity, "neutral" | "info" | "success" | "warning" | "accent"> = {
  common: "neutral",
  uncommon: "success",
  rare: "info",
  "ultra-rare": "warning",
  "secret-rare": "warning",
};

/**
 * The badge row. `extra` goes first (a page's own badge, e.g. Manga/Gaming); `soldOutBadge`
 * false leaves "Rupture de stock" to a card that says it over the image instead.
 */
export function ProductBadges({
  product,
  extra,
  soldOutBadge = true,
}: {
  product: ProductView;
  extra?: ReactNode;
  soldOutBadge?: boolean;
}) {
  return (
    <div className="flex flex-wrap gap-1.5">
      {extra}
      {product.featured ? (
        <Badge tone="accent">
          <Star className="size-3" aria-hidden="true" /> Vedette
        </Badge>
      ) : null}
      {product.isNew ? (
        <Badge tone="info">
          <Sparkles className="size-3" aria-hidden="true" /> Nouveau
        </Badge>
      ) : null}
      {product.rarity ? <Badge tone={RARITY_TONE[product.rarity]}>{RARITY_LABELS[product.rarity]}</Badge> : null}
      {product.stock <= 0 ? (
        soldOutBadge ? <Badge tone="destructive">Rupture de stock</Badge> : null
      ) : showLowStockBadge(product.stock) ? (
        <Badge tone="warning">
          <AlertTriangle className="size-3" aria-hidden="true" /> Plus que {product.stock}
        </Badge>
      ) : null}
    </div>
  );
}
