import { BookOpen, Gamepad2 } from "lucide-react";
import { ProductListing } from "~/components/product/product-listing";
import { Badge } from "~/components/ui/badge";
import { ENTERTAINMENT_KIND_LABELS, entertainmentKind } from "~/domain/entertainment";
import { ENTERTAINMENT_PAGE_SIZE, listingHref, pagedTitle, parsePage } from "~/domain/listing-query";
import type { ProductView } from "~/domain/product-view";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { listProducts } from "~/services/catalog.server";
import type { Route } from "./+types/entertainment";

export async function loader({ request, context }: Route.LoaderArgs) {
  return listProducts(context.db, { category: "entertainment" }, {
    now: new Date(),
    imageBaseUrl: context.storage.publicBaseUrl,
    page: parsePage(new URL(request.url).searchParams),
    pageSize: ENTERTAINMENT_PAGE_SIZE,
  });
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const root = seoRoot(matches);
  const page = loaderData?.page ?? 1;
  return pageMeta(root, {
    title: `${pagedTitle("Gaming & Mangas", page)} | ${root.shop.name}`,
    description: "Mangas et jeux vidéo neufs : les tomes de vos séries préférées et les jeux Pokémon sur Nintendo Switch, expédiés avec soin.",
    path: listingHref("/entertainment", { page }),
  });
};

const INTROS = [
  {
    title: "Mangas",
    text: "Les séries qui ont fait naître nos cartes, de One Piece à Pokémon\u00a0: des tomes neufs, expédiés protégés pour arriver sans un pli.",
    Icon: BookOpen,
  },
  {
    title: "Jeux vidéo",
    text: "Les aventures Pokémon et les incontournables Nintendo, neufs sous blister, pour continuer la collection manette en main.",
    Icon: Gamepad2,
  },
];

function KindBadge({ product }: { product: ProductView }) {
  const kind = entertainmentKind(product.subCategory);
  const Icon = kind === "manga" ? BookOpen : Gamepad2;
  return (
    <Badge tone="neutral" data-testid="kind-badge">
      <Icon className="size-3" aria-hidden="true" /> {ENTERTAINMENT_KIND_LABELS[kind]}
    </Badge>
  );
}

export default function Entertainment({ loaderData }: Route.ComponentProps) {
  const { products, total, page, pageCount } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-3xl font-extrabold tracking-tight">Gaming &amp; Mangas</h1>
      <p className="mt-1 text-muted-foreground">Mangas et jeux vidéo, neufs et expédiés avec le même soin que nos cartes.</p>

      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {INTROS.map(({ title, text, Icon }) => (
          <li key={title} className="flex items-start gap-4 rounded-2xl border border-border bg-card p-5">
            <Icon className="mt-0.5 size-8 shrink-0 text-amber-700 dark:text-primary" aria-hidden="true" />
            <div>
              <h2 className="text-lg font-bold">{title}</h2>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>

      <div className="mt-8">
        <ProductListing
          products={products}
          total={total}
          page={page}
          pageCount={pageCount}
          href={(n) => listingHref("/entertainment", { page: n })}
          empty="Aucun produit trouvé"
          badge={{ name: "kind", render: (product) => <KindBadge product={product} /> }}
          soldOut="overlay"
        />
      </div>
    </div>
  );
}
