import { displayCategory } from "./categories";
import type { CardType, Condition, MainCategory, Rarity } from "./catalog-values";
import { IMAGE_WIDTHS, imageAspect, imageSrcSet, imageUrl } from "./images";
import { isPegiAge, type PegiAge, type PegiDescriptor, PEGI_DESCRIPTORS, takesPegiRating } from "./pegi";
import { type ProductSafety, productSafety, type SafetyOverrides, type SafetyProfileValues } from "./safety-profile";
import { isNewProduct } from "./visibility";

/**
 * What the browser receives about a product in a listing (a product card): display-ready,
 * nothing internal, and nothing a card does not show, since a listing sends it twice (the
 * HTML and the hydration data).
 */
export type ProductView = {
  id: number;
  name: string;
  priceCents: number;
  stock: number;
  image: { src: string; srcSet: string; aspect: "card" | "square" } | null;
  category: string;
  subCategory: string | null;
  series: string | null;
  rarity: Rarity | null;
  featured: boolean;
  isNew: boolean;
};

/**
 * The product page: the card's fields plus the description, the details, every image, when it
 * changed, the former price when the law lets the page show it (domain/reference-price) and the
 * product safety information (domain/safety-profile).
 */
export type ProductDetail = ProductView & {
  description: string;
  mainCategory: MainCategory;
  cardType: CardType | null;
  condition: Condition | null;
  images: NonNullable<ProductView["image"]>[];
  updatedAt: string;
  /** Shown struck through beside the price; null when there is none or it may not be shown. */
  compareAtCents: number | null;
  safety: ProductSafety;
  /** The picture of the product's label, when the seller gave one. */
  safetyLabelImage: { src: string; srcSet: string } | null;
  /** A video game's PEGI rating; null elsewhere or when not given. */
  pegi: { age: PegiAge; descriptors: PegiDescriptor[] } | null;
  /** A drop's rules the page announces ("Limité à N par client"); null for an ordinary product. */
  drop: ProductDropTerms | null;
  /** A pre-order's dates and limit (issue 55); null for a product sold from stock. */
  preorder: ProductPreorderTerms | null;
};

/** What a product page says of a pre-order: Paris calendar days ("2026-12-12"), and the units left. */
export type ProductPreorderTerms = { releaseOn: string; estimatedDeliveryOn: string; perCustomerLimit: number; unitsLeft: number };

/** What a product page says of a drop's rules for buyers. */
export type ProductDropTerms = {
  perCustomerLimit: number;
  accountRequired: boolean;
  /** Bought through a waiting room (a drop with an opening time). */
  waitingRoom: boolean;
};

/** The columns a card needs (services select these, not whole rows). */
export type ProductCardRow = {
  id: number;
  title: string;
  priceCents: number;
  stock: number;
  imagePath: string | null;
  category: MainCategory;
  subCategory: string | null;
  cardType: CardType | null;
  series: string | null;
  rarity: string | null;
  featured: boolean;
  createdAt: Date;
};

type ProductRow = ProductCardRow &
  SafetyOverrides & { description: string; condition: string | null; additionalImages: string[]; updatedAt: Date; pegiRating?: number | null; pegiDescriptors?: string[] };

/** The rating stored on a video game, as its page shows it (the database's check keeps the age known). */
function pegiOf(p: ProductRow): ProductDetail["pegi"] {
  if (!takesPegiRating(p.category, p.subCategory) || p.pegiRating == null || !isPegiAge(p.pegiRating)) return null;
  return { age: p.pegiRating, descriptors: PEGI_DESCRIPTORS.filter((descriptor) => p.pegiDescriptors?.includes(descriptor)) };
}

function productImage(imageBaseUrl: string, key: string, aspect: "card" | "square") {
  return { src: imageUrl(imageBaseUrl, key, IMAGE_WIDTHS[1]), srcSet: imageSrcSet(imageBaseUrl, key), aspect };
}

export function toProductView(p: ProductCardRow, imageBaseUrl: string, now: Date): ProductView {
  return {
    id: p.id,
    name: p.title,
    priceCents: p.priceCents,
    stock: Math.max(0, p.stock),
    image: p.imagePath ? productImage(imageBaseUrl, p.imagePath, imageAspect(p)) : null,
    category: displayCategory(p),
    subCategory: p.subCategory,
    series: p.series,
    rarity: (p.rarity as Rarity | null) ?? null,
    featured: p.featured,
    isNew: isNewProduct(p.createdAt, now),
  };
}

/**
 * `page.compareAtCents`: the former price once allowed (the caller decides from the price history);
 * `page.profile`: the product's brand safety profile, whose values fill the ones the product lacks.
 */
export function toProductDetail(
  p: ProductRow,
  imageBaseUrl: string,
  now: Date,
  page: { compareAtCents?: number | null; profile?: SafetyProfileValues | null; drop?: ProductDropTerms | null; preorder?: ProductPreorderTerms | null } = {},
): ProductDetail {
  const view = toProductView(p, imageBaseUrl, now);
  const aspect = imageAspect(p);
  const extra = p.additionalImages.slice(0, 4).map((key) => productImage(imageBaseUrl, key, aspect));
  return {
    ...view,
    description: p.description,
    mainCategory: p.category,
    cardType: p.cardType,
    condition: (p.condition as Condition | null) ?? null,
    images: view.image ? [view.image, ...extra] : extra,
    updatedAt: p.updatedAt.toISOString(),
    compareAtCents: page.compareAtCents ?? null,
    safety: productSafety(p, page.profile),
    safetyLabelImage: p.labelImagePath ? productImage(imageBaseUrl, p.labelImagePath, "square") : null,
    pegi: pegiOf(p),
    drop: page.drop ?? null,
    preorder: page.preorder ?? null,
  };
}
