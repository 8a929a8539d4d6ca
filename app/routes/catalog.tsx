import { RotateCcw } from "lucide-react";
import { SearchInput } from "~/components/ui/search-input";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { ProductGrid, ProductGridSkeleton } from "~/components/product/product-grid";
import { buttonVariants } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import {
  CATALOG_CATEGORY_LABELS,
  CATALOG_SORT_LABELS,
  CATALOG_SORTS,
  type CatalogQuery,
  catalogSearch,
  parseCatalogQuery,
} from "~/domain/catalog-query";
import { CATALOG_CATEGORY_IDS } from "~/domain/categories";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useShownValue } from "~/lib/use-shown-value";
import { cn } from "~/lib/utils";
import { listCatalog } from "~/services/catalog.server";
import type { Route } from "./+types/catalog";
import { countOf } from "~/domain/numbers";

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseCatalogQuery(new URL(request.url).searchParams);
  const result = await listCatalog(context.db, query, { now: new Date(), imageBaseUrl: context.storage.publicBaseUrl });
  return { query, ...result };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const root = seoRoot(matches);
  const category = data?.query.category ?? null;
  return pageMeta(root, {
    title: `${category ? `${CATALOG_CATEGORY_LABELS[category]} – ` : ""}Notre collection | ${root.shop.name}`,
    description: "Toute la collection : cartes Pokémon, produits scellés, Magic, One Piece, accessoires, mangas et jeux vidéo.",
    path: `/catalog${catalogSearch({ category })}`,
  });
};

export default function Catalog({ loaderData }: Route.ComponentProps) {
  const { query, products, total, page, pageCount } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/catalog";
  const filtered = query.q !== "" || query.category !== null || query.sort !== "newest";
  useShownValue("catalog-q", query.q);
  useShownValue("catalog-sort", query.sort);
  const href = (change: Partial<CatalogQuery>) => `/catalog${catalogSearch({ ...query, page: 1, ...change })}`;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-extrabold tracking-tight">Notre collection</h1>
      <p className="mt-1 text-muted-foreground">Cartes, produits scellés, accessoires, mangas et jeux vidéo.</p>

      {/* A GET form's own query gives way to its fields: its action names the page alone. */}
      <Form method="get" action="/catalog" role="search" className="mt-6 flex flex-col gap-3 sm:flex-row" preventScrollReset>
        {query.category ? <input type="hidden" name="category" value={query.category} /> : null}
        <div className="relative flex-1">
          <SearchInput id="catalog-q" label="Rechercher dans la collection" name="q" defaultValue={query.q} placeholder="Nom, série, description..." />
        </div>
        <label className="flex items-center gap-2 text-sm">
          <span className="shrink-0 text-muted-foreground">Trier par</span>
          <select
            id="catalog-sort"
            name="sort"
            defaultValue={query.sort}
            onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
            className="h-11 rounded-lg border border-input bg-card px-3 text-sm"
          >
            {CATALOG_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {CATALOG_SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonVariants({ variant: "secondary" })}>
          Rechercher
        </button>
      </Form>

      <nav aria-label="Catégories" className="mt-4 flex flex-wrap gap-2">
        {[null, ...CATALOG_CATEGORY_IDS].map((id) => {
          const active = query.category === id;
          return (
            <Link
              key={id ?? "all"}
              to={href({ category: id })}
              preventScrollReset
              aria-current={active ? "page" : undefined}
              className={cn(
                "inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-medium transition-colors",
                active ? "border-primary bg-primary text-primary-foreground" : "border-border hover:bg-muted",
              )}
            >
              {id ? CATALOG_CATEGORY_LABELS[id] : "Toutes"}
            </Link>
          );
        })}
      </nav>

      <div className="mt-6 flex min-h-11 flex-wrap items-center justify-between gap-2">
        <p className="tabular text-sm text-muted-foreground" role="status">
          {countOf(total, "produit")}
        </p>
        {filtered ? (
          <Link to="/catalog" className={buttonVariants({ variant: "ghost", size: "sm", className: "h-11" })}>
            <RotateCcw aria-hidden="true" /> Réinitialiser les filtres
          </Link>
        ) : null}
      </div>

      <div className="mt-4">
        {/* The cards' titles are h3: the outline needs this level between them and the h1. */}
        <h2 className="sr-only">Produits</h2>
        {loading ? (
          <ProductGridSkeleton count={8} />
        ) : products.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-border p-10 text-center">
            <p className="text-muted-foreground">Aucun produit ne correspond à vos critères de recherche.</p>
            <Link to="/catalog" className={buttonVariants({ variant: "outline", className: "mt-4" })}>
              Réinitialiser les filtres
            </Link>
          </div>
        ) : (
          <ProductGrid products={products} eagerCount={4} />
        )}
      </div>

      <Pagination page={page} pageCount={pageCount} href={(n) => href({ page: n })} className="mt-8" />
    </div>
  );
}
