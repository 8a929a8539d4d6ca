import type { ReactNode } from "react";
import { badgeVariants } from "~/components/ui/badge";
import { RARITY_LABELS, type Rarity } from "~/domain/catalog-values";
import type { ProductView } from "~/domain/product-view";
import { showLowStockBadge } from "~/domain/stock";
import { AlertIcon, SparklesIcon, StarIcon } from "./icons";

type Tone = NonNullable<Parameters<typeof badgeVariants>[0]>["tone"] & string;
const TONES: Tone[] = ["accent", "info", "neutral", "success", "warning", "destructive"];
/** Each tone's classes worked out once: a listing repeats a few badges per card. */
const BADGE = Object.fromEntries(TONES.map((tone) => [tone, badgeVariants({ tone })])) as Record<Tone, string>;

/** A colour per rarity, always with its name: colour is never the only signal. */
const RARITY_TONE: Record<Rarity, Tone> = {
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
        <span className={BADGE.accent}>
          <StarIcon className="size-3" /> Vedette
        </span>
      ) : null}
      {product.isNew ? (
        <span className={BADGE.info}>
          <SparklesIcon className="size-3" /> Nouveau
        </span>
      ) : null}
      {product.rarity ? <span className={BADGE[RARITY_TONE[product.rarity]]}>{RARITY_LABELS[product.rarity]}</span> : null}
      {product.stock <= 0 ? (
        soldOutBadge ? <span className={BADGE.destructive}>Rupture de stock</span> : null
      ) : showLowStockBadge(product.stock) ? (
        <span className={BADGE.warning}>
          <AlertIcon className="size-3" /> {`Plus que ${product.stock}`}
        </span>
      ) : null}
    </div>
  );
}
