import { ArrowLeft, X } from "lucide-react";
import { SearchInput } from "~/components/ui/search-input";
import { useLayoutEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { ProductGrid, ProductGridSkeleton } from "~/components/product/product-grid";
import { buttonVariants } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { RARITY_LABELS } from "~/domain/catalog-values";
import {
  CARDS_BATCH,
  parseTcgQuery,
  TCG_PAGE_SIZE,
  TCG_TAB_LABELS,
  TCG_TABS,
  type TcgQuery,
  tcgHeading,
  tcgSearch,
} from "~/domain/tcg-query";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useShownValue } from "~/lib/use-shown-value";
import { cn } from "~/lib/utils";
import { listProducts } from "~/services/catalog.server";
import type { Route } from "./+types/tcg";
import { countOf, groupThousands } from "~/domain/numbers";

export const headers = publicPageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseTcgQuery(new URL(request.url).searchParams);
  const options = { now: new Date(), imageBaseUrl: context.storage.publicBaseUrl };
  const result =
    query.category === "cards"
      ? await listProducts(
          context.db,
          { category: "cards", cardType: query.type, nameOrSeries: query.q, rarity: query.rarity },
          { ...options, pageSize: query.shown },
        )
      : await listProducts(context.db, { category: query.category }, {
          ...options,
          page: query.page,
          pageSize: TCG_PAGE_SIZE[query.category],
        });
  return { query, ...result };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const root = seoRoot(matches);
  const query = data?.query ?? parseTcgQuery(new URLSearchParams());
  const heading = tcgHeading(query);
  const canonical = { ...query, q: "", rarity: null, shown: CARDS_BATCH };
  return pageMeta(root, {
    title: `${heading.title} | ${root.shop.name}`,
    description: heading.description,
    path: `/tcg${tcgSearch(canonical)}`,
  });
};

const pill = (active: boolean) =>
  cn(
    "inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-semibold transition-colors",
    active ? "border-primary bg-primary text-primary-foreground" : "border-border hover:bg-muted",
  );

export default function Tcg({ loaderData }: Route.ComponentProps) {
  const { query, products, total, page, pageCount } = loaderData;
  useShownValue("tcg-card-search", query.q);
  const navigation = useNavigation();
  const heading = tcgHeading(query);
  const to = (change: Partial<TcgQuery>) => `/tcg${tcgSearch({ ...query, page: 1, shown: CARDS_BATCH, ...change })}`;
  const pending = navigation.state === "loading" && navigation.location.pathname === "/tcg" ? parseTcgQuery(new URLSearchParams(navigation.location.search)) : null;
  // Loading more keeps the cards on screen; any other change shows the skeleton.
  const loadingMore = pending !== null && pending.category === "cards" && pending.shown > query.shown;
  const replacing = pending !== null && !loadingMore;
  const cardsTab = query.category === "cards";
  const focusFirstNewCard = useFocusFirstNewCard(products.length);

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <Link to="/" className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3 h-11" })}>
        <ArrowLeft aria-hidden="true" /> Retour à l'accueil
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight">{heading.title}</h1>
      <p className="mt-1 max-w-2xl text-muted-foreground">{heading.description}</p>

      <nav aria-label="Univers TCG" className="mt-6 flex flex-wrap gap-2 border-b border-border pb-4">
        {TCG_TABS.map((tab) => (
          <Link key={tab} to={to({ category: tab, q: "", rarity: null })} aria-current={query.category === tab ? "page" : undefined} className={pill(query.category === tab)}>
            {TCG_TAB_LABELS[tab]}
          </Link>
        ))}
      </nav>

      {cardsTab ? (
        <div className="mt-4 flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
          <nav aria-label="Époque des cartes" className="flex gap-2">
            <Link to={to({ type: "recent" })} aria-current={query.type === "recent" ? "page" : undefined} className={pill(query.type === "recent")} preventScrollReset>
              Cartes récentes
            </Link>
            <Link to={to({ type: "vintage" })} aria-current={query.type === "vintage" ? "page" : undefined} className={pill(query.type === "vintage")} preventScrollReset>
              Cartes vintage
            </Link>
          </nav>
          <Form method="get" role="search" className="relative w-full md:max-w-sm" preventScrollReset>
            <input type="hidden" name="category" value="cards" />
            {query.type !== "recent" ? <input type="hidden" name="type" value={query.type} /> : null}
            {query.rarity ? <input type="hidden" name="rarity" value={query.rarity} /> : null}
            <SearchInput id="tcg-card-search" label="Rechercher une carte par nom ou série" name="q" defaultValue={query.q} placeholder="Rechercher une carte..." />
          </Form>
        </div>
      ) : null}

      {cardsTab && query.rarity ? (
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground">Rareté :</span>
          <Link to={to({ rarity: null })} className={cn(buttonVariants({ variant: "secondary", size: "sm" }), "h-11")} aria-label={`Retirer le filtre ${RARITY_LABELS[query.rarity]}`}>
            {RARITY_LABELS[query.rarity]} <X aria-hidden="true" />
          </Link>
        </p>
      ) : null}

      <p className="tabular mt-4 text-sm text-muted-foreground" role="status">
        {cardsTab && total > 0
          ? `${groupThousands(products.length)} sur ${countOf(total, "produit")}`
          : countOf(total, "produit")}
      </p>

      <div className="mt-4">
        {/* The cards' titles are h3: the outline needs this level between them and the h1. */}
        <h2 className="sr-only">Produits</h2>
        {replacing ? (
          <ProductGridSkeleton count={8} />
        ) : products.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-border p-10 text-center">
            <p className="font-semibold">Aucun produit trouvé</p>
            <Link to="/catalog" className={buttonVariants({ variant: "outline", className: "mt-4" })}>
              Voir tous les produits
            </Link>
          </div>
        ) : (
          <ProductGrid products={products} eagerCount={4} />
        )}
      </div>

      {cardsTab ? (
        products.length < total && !replacing ? (
          <div className="mt-8 flex justify-center">
            <Link
              to={to({ shown: query.shown + CARDS_BATCH })}
              preventScrollReset
              aria-disabled={loadingMore}
              onClick={focusFirstNewCard}
              className={buttonVariants({ variant: "outline", size: "lg" })}
            >
              {loadingMore ? "Chargement..." : "Afficher plus de produits"}
            </Link>
          </div>
        ) : null
      ) : (
        <Pagination page={page} pageCount={pageCount} href={(n) => to({ page: n })} className="mt-8" />
      )}
    </div>
  );
}

/**
 * After "Afficher plus de produits", the first card it brought takes the focus: the next Tab
 * goes on through the new cards (they come before the button), and the focus is not lost when
 * the button goes with the last ones. Returns the button's click handler.
 */
function useFocusFirstNewCard(count: number) {
  const moreFrom = useRef<number | null>(null);
  useLayoutEffect(() => {
    const from = moreFrom.current;
    if (from === null || count <= from) return;
    moreFrom.current = null;
    document.querySelectorAll<HTMLElement>("#contenu article h3 a")[from]?.focus();
  }, [count]);
  return () => {
    moreFrom.current = count;
  };
}
