import { displayCategory } from "./categories";
import type { CardType, Condition, MainCategory, Rarity } from "./catalog-values";
import { IMAGE_WIDTHS, imageAspect, imageSrcSet, imageUrl } from "./images";
import { isNewProduct } from "./visibility";

/** What the browser receives about a product: display-ready, nothing internal. */
export type ProductView = {
  id: number;
  name: string;
  description: string;
  priceCents: number;
  stock: number;
  image: { src: string; srcSet: string; aspect: "card" | "square" } | null;
  category: string;
  mainCategory: MainCategory;
  subCategory: string | null;
  cardType: CardType | null;
  series: string | null;
  rarity: Rarity | null;
  condition: Condition | null;
  featured: boolean;
  isNew: boolean;
};

/** The product page: the card's fields plus every image and when it changed. */
export type ProductDetail = ProductView & {
  images: NonNullable<ProductView["image"]>[];
  updatedAt: string;
};

type ProductLike = {
  id: number;
  title: string;
  description: string;
  priceCents: number;
  stock: number;
  imagePath: string | null;
  category: MainCategory;
  subCategory: string | null;
  cardType: CardType | null;
  series: string | null;
  rarity: string | null;
  condition: string | null;
  featured: boolean;
  createdAt: Date;
};

function productImage(imageBaseUrl: string, key: string, aspect: "card" | "square") {
  return { src: imageUrl(imageBaseUrl, key, IMAGE_WIDTHS[1]), srcSet: imageSrcSet(imageBaseUrl, key), aspect };
}

export function toProductView(p: ProductLike, imageBaseUrl: string, now: Date): ProductView {
  return {
    id: p.id,
    name: p.title,
    description: p.description,
    priceCents: p.priceCents,
    stock: Math.max(0, p.stock),
    image: p.imagePath ? productImage(imageBaseUrl, p.imagePath, imageAspect(p)) : null,
    category: displayCategory(p),
    mainCategory: p.category,
    subCategory: p.subCategory,
    cardType: p.cardType,
    series: p.series,
    rarity: (p.rarity as Rarity | null) ?? null,
    condition: (p.condition as Condition | null) ?? null,
    featured: p.featured,
    isNew: isNewProduct(p.createdAt, now),
  };
}

export function toProductDetail(
  p: ProductLike & { additionalImages: string[]; updatedAt: Date },
  imageBaseUrl: string,
  now: Date,
): ProductDetail {
  const view = toProductView(p, imageBaseUrl, now);
  const aspect = imageAspect(p);
  const extra = p.additionalImages.slice(0, 4).map((key) => productImage(imageBaseUrl, key, aspect));
  return { ...view, images: view.image ? [view.image, ...extra] : extra, updatedAt: p.updatedAt.toISOString() };
}
