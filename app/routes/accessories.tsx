import { ArrowLeft, PackageOpen } from "lucide-react";
import { ProductListing } from "~/components/product/product-listing";
import { buttonVariants } from "~/components/ui/button";
import { ACCESSORIES_PAGE_SIZE, listingHref, pagedTitle, parseAccessoriesQuery } from "~/domain/listing-query";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { countProducts, listProducts } from "~/services/catalog.server";
import type { Route } from "./+types/accessories";
import { Link } from "react-router";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, packs } = parseAccessoriesQuery(new URL(request.url).searchParams);
  const now = new Date();
  const [result, packCount] = await Promise.all([
    listProducts(context.db, { category: "accessories", featured: packs }, {
      now,
      imageBaseUrl: context.storage.publicBaseUrl,
      page,
      pageSize: ACCESSORIES_PAGE_SIZE,
    }),
    // The banner needs to know whether any pack exists, whatever page is shown.
    countProducts(context.db, { category: "accessories", featured: true }, now),
  ]);
  return { ...result, packs, hasPacks: packCount > 0 };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const root = seoRoot(matches);
  const page = loaderData?.page ?? 1;
  const packs = loaderData?.packs ?? false;
  return pageMeta(root, {
    title: `${pagedTitle(packs ? "Packs accessoires" : "Accessoires", page)} | ${root.shop.name}`,
    description:
      "Protège-cartes, classeurs et rangements pour garder vos cartes Pokémon, Magic et One Piece intactes, en jeu comme en collection.",
    path: listingHref("/accessories", { page, packs }),
  });
};

export default function Accessories({ loaderData }: Route.ComponentProps) {
  const { products, total, page, pageCount, packs, hasPacks } = loaderData;
  const allAccessories = (
    <Link to="/accessories" className={buttonVariants({ variant: "outline" })}>
      Voir tous les accessoires
    </Link>
  );

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <Link to="/" className={buttonVariants({ variant: "ghost", className: "-ml-3" })}>
        <ArrowLeft aria-hidden="true" /> Retour à l'accueil
      </Link>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">Accessoires</h1>
      <p className="mt-1 text-muted-foreground">Protège-cartes, classeurs et rangements pour garder votre collection intacte.</p>

      {hasPacks ? (
        <section
          aria-labelledby="packs-title"
          className="mt-6 flex flex-col gap-4 rounded-2xl border border-primary/40 bg-gradient-to-br from-primary/15 to-card p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6"
        >
          <div className="flex items-start gap-4">
            <PackageOpen className="mt-0.5 size-8 shrink-0 text-amber-700 dark:text-primary" aria-hidden="true" />
            <div>
              <h2 id="packs-title" className="text-xl font-bold">
                Packs accessoires
              </h2>
              <p className="mt-1 text-sm text-muted-foreground">
                {packs
                  ? "Voici notre sélection d'accessoires mis en avant."
                  : "Notre sélection d'accessoires pour protéger et ranger vos cartes, choisie par le vendeur."}
              </p>
            </div>
          </div>
          {packs ? (
            allAccessories
          ) : (
            <Link to={listingHref("/accessories", { packs: true })} className={buttonVariants({ className: "shrink-0" })}>
              Voir les packs
            </Link>
          )}
        </section>
      ) : null}

      <div className="mt-8">
        <ProductListing
          products={products}
          total={total}
          page={page}
          pageCount={pageCount}
          href={(n) => listingHref("/accessories", { page: n, packs })}
          empty="Aucun accessoire trouvé"
          emptyAction={packs ? allAccessories : null}
        />
      </div>
    </div>
  );
}
