import { ChevronLeft, ChevronRight } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { PLACEHOLDER_IMAGE } from "~/domain/images";
import type { ProductDetail } from "~/domain/product-view";
import { cn } from "~/lib/utils";

const SIZES = "(min-width: 1024px) 560px, 100vw";

/**
 * The product's images: one large image, and a carousel (arrows, thumbnails from 640 px, a
 * position counter below, ← →) when there is more than one. Images keep their width/height so nothing shifts.
 */
export function ProductGallery({ product }: { product: Pick<ProductDetail, "name" | "images"> }) {
  const [index, setIndex] = useState(0);
  const images = product.images;
  const count = images.length;
  const current = images[Math.min(index, count - 1)];
  const aspect = current?.aspect ?? "square";
  const [w, h] = aspect === "card" ? [960, 1344] : [960, 960];
  const go = (next: number) => setIndex((next + count) % count);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowLeft") go(index - 1);
    else if (event.key === "ArrowRight") go(index + 1);
    else return;
    event.preventDefault();
  }

  const main = (
    <div className="relative flex aspect-[16/10] items-center justify-center overflow-hidden rounded-2xl border border-border bg-surface-art sm:aspect-square">
      <img
        src={current?.src ?? PLACEHOLDER_IMAGE}
        srcSet={current?.srcSet}
        sizes={current ? SIZES : undefined}
        alt={count > 1 ? `${product.name}, image ${index + 1} sur ${count}` : product.name}
        width={w}
        height={h}
        fetchPriority="high"
        decoding="async"
        className={cn("h-full w-full object-contain", aspect === "card" ? "p-6" : "p-3")}
      />
      {count > 1 ? (
        <>
          <button
            type="button"
            onClick={() => go(index - 1)}
            aria-label="Image précédente"
            className="absolute left-2 top-1/2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full border border-border bg-card/90 shadow hover:bg-card"
          >
            <ChevronLeft className="size-5" aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={() => go(index + 1)}
            aria-label="Image suivante"
            className="absolute right-2 top-1/2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full border border-border bg-card/90 shadow hover:bg-card"
          >
            <ChevronRight className="size-5" aria-hidden="true" />
          </button>
          {/* On a phone the thumbnails give way (the button stays above the fold): where one is. */}
          <span aria-hidden="true" className="tabular absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full bg-card/90 px-2.5 py-0.5 text-xs font-semibold shadow sm:hidden">
            {index + 1} / {count}
          </span>
        </>
      ) : null}
    </div>
  );

  if (count <= 1) return main;
  return (
    <section aria-roledescription="carrousel" aria-label={`Images de ${product.name}`} onKeyDown={onKeyDown}>
      {main}
      <p className="sr-only" aria-live="polite">
        Image {index + 1} sur {count}
      </p>
      <div className="mt-3 hidden gap-2 overflow-x-auto pb-1 sm:flex">
        {images.map((image, i) => (
          <button
            key={image.src}
            type="button"
            onClick={() => setIndex(i)}
            aria-label={`Afficher l'image ${i + 1}`}
            aria-current={i === index ? "true" : undefined}
            className={cn(
              "size-16 shrink-0 overflow-hidden rounded-lg border-2 bg-surface-art p-1",
              i === index ? "border-primary" : "border-transparent hover:border-border",
            )}
          >
            <img src={image.src} alt="" width={64} height={64} loading="lazy" className="h-full w-full object-contain" />
          </button>
        ))}
      </div>
    </section>
  );
}
