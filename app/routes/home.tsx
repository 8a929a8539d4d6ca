import { Star } from "lucide-react";
import { Suspense } from "react";
import { Await, Link } from "react-router";
import { CategoryTiles } from "~/components/home/category-tiles";
import { Hero } from "~/components/home/hero";
import { ProductGrid, ProductGridSkeleton } from "~/components/product/product-grid";
import { countByCatalogCategory, listFeaturedProducts } from "~/services/catalog.server";
import { getHeroBanner } from "~/services/site-content.server";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const now = new Date();
  const imageBaseUrl = context.storage.publicBaseUrl;
  const [banner, counts] = await Promise.all([getHeroBanner(context.db), countByCatalogCategory(context.db, now)]);
  // Not awaited: the featured block streams in after the shell (4 skeletons meanwhile).
  const featured = listFeaturedProducts(context.db, { now, imageBaseUrl, limit: 8 });
  return { banner, counts, featured };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, {
    title: `${root.shop.name} – Cartes Pokémon, TCG, mangas et jeux vidéo`,
    description:
      "Boutique en ligne de cartes Pokémon, Magic et One Piece, produits scellés, accessoires, mangas et jeux vidéo. Cartes vérifiées, expédition soignée depuis la France.",
    path: "/",
  });
};

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const { banner, counts, featured } = loaderData;
  const shop = matches[0].loaderData.shop;
  return (
    <>
      <Hero shop={shop} banner={banner} />
      <section aria-labelledby="categories-title" className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        <h2 id="categories-title" className="text-2xl font-extrabold tracking-tight">
          Nos catégories
        </h2>
        <p className="mt-1 text-muted-foreground">Trouvez votre bonheur parmi nos univers.</p>
        <div className="mt-6">
          <CategoryTiles counts={counts} />
        </div>
      </section>
      <section aria-labelledby="featured-title" className="mx-auto max-w-7xl px-4 pb-4 sm:px-6">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id="featured-title" className="flex items-center gap-2 text-2xl font-extrabold tracking-tight">
              <Star className="size-6 text-primary" aria-hidden="true" /> Produits vedettes
            </h2>
            <p className="mt-1 text-muted-foreground">La sélection du moment, choisie par le vendeur.</p>
          </div>
          <Link to="/catalog" className="inline-flex min-h-11 items-center text-sm font-semibold text-accent hover:underline">
            Voir tout le catalogue
          </Link>
        </div>
        <div className="mt-6">
          <Suspense fallback={<ProductGridSkeleton count={4} />}>
            <Await resolve={featured} errorElement={<p className="text-muted-foreground">Les produits vedettes n'ont pas pu être chargés.</p>}>
              {(products) =>
                products.length > 0 ? (
                  <ProductGrid products={products} />
                ) : (
                  <p className="rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">
                    Aucun produit en vedette pour le moment.
                  </p>
                )
              }
            </Await>
          </Suspense>
        </div>
      </section>
    </>
  );
}
