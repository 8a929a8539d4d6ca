import { ChevronRight } from "lucide-react";
import { Fragment, useState } from "react";
import { data, Link } from "react-router";
import { AddToCartButton } from "~/components/product/add-to-cart-button";
import { Price } from "~/components/product/price";
import { CountdownTimer } from "~/components/promotions/countdown-banner";
import { DropTerms } from "~/components/product/drop-terms";
import { PreorderTerms } from "~/components/product/preorder-terms";
import { DropWaitingRoom } from "~/components/product/drop-waiting-room-lazy";
import { StockAlertForm } from "~/components/product/stock-alert-form-lazy";
import { ProductBadges } from "~/components/product/product-badges";
import { ProductGallery } from "~/components/product/product-gallery";
import { ProductImage } from "~/components/product/product-image";
import { PegiRating } from "~/components/product/pegi-rating";
import { ProductSafetyDetails } from "~/components/product/product-safety";
import { QuantitySelector } from "~/components/product/quantity-selector";
import { SimilarProducts } from "~/components/product/similar-products";
import { WishlistHeart } from "~/components/product/wishlist-heart";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { clampQuantity } from "~/domain/cart";
import { formatEuros } from "~/domain/money";
import { CONDITION_LABELS, RARITY_LABELS } from "~/domain/catalog-values";
import { productJsonLd } from "~/domain/product-jsonld";
import { parseProductParam, productPath } from "~/domain/product-url";
import { stockMessage, stockState } from "~/domain/stock";
import { publicPageHeaders } from "~/lib/http";
import { absoluteUrl, pageMeta, seoRoot } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { formatParisMoment } from "~/domain/site-content-display";
import { findProductHiddenByCountdown, findUpcomingProduct, getPublicProduct } from "~/services/catalog.server";
import type { Route } from "./+types/product";

export const headers = publicPageHeaders;

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseProductParam(params.slug);
  // Not a product address at all: the site's 404 page (which offers to go to the catalogue).
  if (id === null) throw data(null, { status: 404 });
  const now = new Date();
  const product = await getPublicProduct(context.db, id, { now, imageBaseUrl: context.storage.publicBaseUrl });
  if (!product) {
    // Hidden by a running countdown: a page that says when it comes back, without selling it.
    const hidden = await findProductHiddenByCountdown(context.db, id, now);
    if (hidden) return data({ product: null, comingBack: { name: hidden.name, until: hidden.until.toISOString(), drop: null } }, { status: 404 });
    // Scheduled for a drop: the same page for every buyer waiting on it (cached, purged when it opens).
    const upcoming = await findUpcomingProduct(context.db, id, { now, imageBaseUrl: context.storage.publicBaseUrl });
    if (upcoming) {
      const { name, dropTime, priceCents, image, drop } = upcoming;
      return { product: null, comingBack: { name, until: dropTime.toISOString(), drop: { productId: id, priceCents, image, terms: drop } } };
    }
    return data({ product: null, comingBack: null }, { status: 404 });
  }
  return { product, comingBack: null };
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const root = seoRoot(matches);
  const product = loaderData?.product;
  if (!product) {
    const title = loaderData?.comingBack ? `${loaderData.comingBack.name} – bientôt disponible` : "Produit introuvable";
    return [{ title: `${title} | ${root.shop.name}` }, { name: "robots", content: "noindex" }];
  }
  const path = productPath(product);
  return [
    ...pageMeta(root, {
      title: `${product.name} | ${root.shop.name}`,
      description: product.description || product.name,
      path,
      image: product.images[0]?.src,
      type: "product",
    }),
    { property: "product:price:amount", content: (product.priceCents / 100).toFixed(2) },
    { property: "product:price:currency", content: "EUR" },
    {
      "script:ld+json": productJsonLd(product, {
        url: absoluteUrl(root.publicUrl, path),
        absolute: (p) => absoluteUrl(root.publicUrl, p),
        shopName: root.shop.name,
      }),
    },
  ];
};

const PAGE_HEART_CLASS = "min-h-11 self-start rounded-lg px-2 text-sm hover:bg-muted";

const BREADCRUMB_LINKS = [
  { to: "/", label: "Accueil" },
  { to: "/catalog", label: "Catalogue" },
];

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, comingBack } = loaderData;
  if (!product) return comingBack ? <ProductComingBack {...comingBack} /> : <ProductNotFound />;
  // Keyed by product: moving to a similar product starts again at quantity 1.
  return <ProductDetails key={product.id} product={product} />;
}

function ProductDetails({ product }: { product: NonNullable<Route.ComponentProps["loaderData"]["product"]> }) {
  const [wanted, setWanted] = useState(1);
  // A live stock change may lower the stock under the chosen quantity; a drop's limit caps it too.
  const limit = product.drop?.perCustomerLimit ?? product.preorder?.perCustomerLimit;
  const most = limit === undefined ? product.stock : Math.min(product.stock, limit);
  const quantity = clampQuantity(wanted, most);
  const state = stockState(product.stock);
  const characteristics: [string, string][] = [
    // "Cartes Vintage" says it all; otherwise the main category and its sub-category.
    ["Catégorie", product.category !== product.mainCategory || !product.subCategory ? product.category : `${product.category} · ${product.subCategory}`],
    ["État", product.condition ? CONDITION_LABELS[product.condition] : "Non précisé"],
    ["Rareté", product.rarity ? RARITY_LABELS[product.rarity] : "Non précisée"],
    ["Stock", product.stock > 0 ? `${product.stock} exemplaire${product.stock > 1 ? "s" : ""}` : "Rupture de stock"],
    ["Série", product.series ?? "Non précisée"],
  ];

  return (
    // On a 390 px phone the image, price, stock and the button show without scrolling
    // (DESIGN.md): a wider than tall image, the page's name once (its title), the description after the button.
    <div className="mx-auto max-w-7xl px-4 py-4 sm:px-6 sm:py-8">
      <nav aria-label="Fil d'Ariane">
        <ol className="flex flex-wrap items-center gap-1 text-sm text-muted-foreground">
          {BREADCRUMB_LINKS.map(({ to, label }, index) => (
            <Fragment key={to}>
              <li>
                <Link to={to} className="inline-flex min-h-11 items-center hover:text-foreground hover:underline">
                  {label}
                </Link>
              </li>
              <li aria-hidden="true" className={index === BREADCRUMB_LINKS.length - 1 ? "max-sm:hidden" : undefined}>
                <ChevronRight className="size-4" />
              </li>
            </Fragment>
          ))}
          <li aria-current="page" className="line-clamp-1 font-medium text-foreground max-sm:sr-only">
            {product.name}
          </li>
        </ol>
      </nav>

      <section aria-labelledby="product-title" className="mt-2 grid grid-cols-1 gap-5 sm:mt-4 sm:gap-8 lg:grid-cols-2 lg:gap-12">
        <ProductGallery product={product} />

        <div className="flex flex-col gap-3 sm:gap-4">
          <div className="flex flex-wrap gap-1.5">
            <Badge tone="neutral">{product.category}</Badge>
            <ProductBadges product={product} />
          </div>
          <h1 id="product-title" className="text-2xl font-extrabold leading-tight tracking-tight [overflow-wrap:anywhere] sm:text-4xl">
            {product.name}
          </h1>
          {product.condition || product.series ? (
            <p className="text-muted-foreground [overflow-wrap:anywhere]">
              {[product.series, product.condition ? `État : ${CONDITION_LABELS[product.condition]}` : null].filter(Boolean).join(" · ")}
            </p>
          ) : null}
          {product.pegi ? <PegiRating age={product.pegi.age} descriptors={product.pegi.descriptors} /> : null}
          <p className="flex flex-wrap items-baseline gap-x-2">
            <Price cents={product.priceCents} className="text-3xl" />
            <span className="text-sm font-medium text-muted-foreground">TTC</span>
            {product.compareAtCents !== null ? (
              // Shown only when the price history allows it (L112-1-1: at most the lowest price of the 30 days before the reduction).
              <span className="text-lg text-muted-foreground">
                <span className="sr-only">au lieu de </span>
                <del className="tabular">{formatEuros(product.compareAtCents)}</del>
              </span>
            ) : null}
          </p>
{product.preorder ? (
            <PreorderTerms terms={product.preorder} />
          ) : (
                      <p
              className={cn(
                "flex items-center gap-2 text-sm font-semibold",
                state === "out" ? "text-destructive" : state === "low" ? "text-warning" : "text-success",
              )}
              aria-live="polite"
            >
              <span aria-hidden="true" className="size-2 rounded-full bg-current" />
              {stockMessage(product.stock)}
            </p>
          )}
          {product.drop ? <DropTerms terms={product.drop} /> : null}
          {product.drop?.waitingRoom ? (
            // A drop's units are bought in turn: the controls show once the turn has come.
            <DropWaitingRoom productId={product.id}>
              <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
                <QuantitySelector value={quantity} max={most} onChange={setWanted} />
                <AddToCartButton product={product} quantity={quantity} className="sm:flex-1" />
              </div>
            </DropWaitingRoom>
          ) : (
            <div className="mt-1 flex flex-col gap-3 rounded-2xl border border-border bg-card p-3 sm:mt-2 sm:flex-row sm:items-center sm:p-4">
              <QuantitySelector value={quantity} max={most} onChange={setWanted} />
              <AddToCartButton product={product} quantity={quantity} className="sm:flex-1" />
            </div>
          )}
          <WishlistHeart productId={product.id} className={PAGE_HEART_CLASS} />
          {product.stock <= 0 && !product.drop?.waitingRoom ? <StockAlertForm productId={product.id} /> : null}
          {product.description ? <p className="whitespace-pre-line leading-relaxed [overflow-wrap:anywhere]">{product.description}</p> : null}

          <section aria-labelledby="characteristics-title" className="mt-4">
            <h2 id="characteristics-title" className="text-lg font-bold">
              Caractéristiques
            </h2>
            <table className="mt-2 w-full text-sm">
              <tbody>
                {characteristics.map(([label, value]) => (
                  <tr key={label} className="border-b border-border last:border-0">
                    <th scope="row" className="w-1/3 py-2.5 pr-4 text-left font-medium text-muted-foreground">
                      {label}
                    </th>
                    <td className="py-2.5 [overflow-wrap:anywhere]">{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <ProductSafetyDetails safety={product.safety} labelImage={product.safetyLabelImage} />
        </div>
      </section>

      <SimilarProducts productId={product.id} />
    </div>
  );
}

type ComingBack = NonNullable<Route.ComponentProps["loaderData"]["comingBack"]>;

/** A product not for sale yet: its drop (name, image, price, when, a countdown), or the end of a countdown hiding it. */
function ProductComingBack({ name, until, drop }: ComingBack) {
  const moment = new Date(until);
  return (
    <section className={cn("mx-auto max-w-2xl px-4 text-center", drop ? "py-10 sm:py-16" : "py-24")}>
      {drop ? <ProductImage product={{ name, image: drop.image }} sizes="(min-width: 640px) 320px, 60vw" eager="high" className="mx-auto mb-6 w-3/5 max-w-80 rounded-2xl" /> : null}
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">Bientôt disponible</p>
      <h1 id="product-title" className="mt-3 text-3xl font-extrabold [overflow-wrap:anywhere]">
        {name}
      </h1>
      {drop ? (
        <>
          <p className="mt-3 flex items-baseline justify-center gap-2">
            <Price cents={drop.priceCents} className="text-2xl" />
            <span className="text-sm font-medium text-muted-foreground">TTC</span>
          </p>
          <p className="mt-4 text-muted-foreground">
            Mise en vente le {formatParisMoment(moment)}. Cette page s'ouvre d'elle-même à ce moment-là.
          </p>
          {drop.terms ? <DropTerms terms={drop.terms} className="mt-3 justify-center" /> : null}
          <div className="mx-auto mt-6 flex max-w-md flex-col gap-4 text-left">
            {drop.terms?.waitingRoom ? <DropWaitingRoom productId={drop.productId}>{null}</DropWaitingRoom> : null}
            {/* On the list, its opening is an alert of the customer's (issue 56). */}
            <WishlistHeart productId={drop.productId} className={PAGE_HEART_CLASS} />
            <StockAlertForm productId={drop.productId} />
          </div>
          <CountdownTimer target={moment} className="mt-6 justify-center" />
        </>
      ) : (
        <p className="mt-4 text-muted-foreground">
          Ce produit revient à la fin du compte à rebours, {formatParisMoment(moment)}. Revenez à ce moment-là pour le commander.
        </p>
      )}
      <Link to="/catalog" className={buttonVariants({ className: "mt-8" })}>
        Retour au catalogue
      </Link>
    </section>
  );
}

function ProductNotFound() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 id="product-title" className="text-3xl font-extrabold">Produit introuvable</h1>
      <p className="mt-4 text-muted-foreground">Le produit que vous recherchez n'existe pas ou a été supprimé.</p>
      <Link to="/catalog" className={buttonVariants({ className: "mt-8" })}>
        Retour au catalogue
      </Link>
    </section>
  );
}
