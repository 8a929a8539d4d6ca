import { ArrowRight, Boxes, Gamepad2, Layers, Package, Shield } from "lucide-react";
import { type CatalogCategoryId, categoryHref } from "~/domain/categories";
import { countOf } from "~/domain/numbers";
import { Link } from "react-router";

const TILES: { id: CatalogCategoryId; title: string; text: string; Icon: typeof Package; tint: string }[] = [
  { id: "sealed", title: "Produits scellés", text: "Boosters, displays et coffrets", Icon: Package, tint: "from-amber-400/25" },
  { id: "cards", title: "Cartes à l'unité", text: "Pokémon récentes et vintage", Icon: Layers, tint: "from-sky-400/25" },
  { id: "other-cards", title: "Autres cartes", text: "Magic, One Piece et plus", Icon: Boxes, tint: "from-fuchsia-400/25" },
  { id: "accessories", title: "Accessoires", text: "Protège-cartes, classeurs", Icon: Shield, tint: "from-emerald-400/25" },
  { id: "entertainment", title: "Gaming & Mangas", text: "Jeux vidéo et mangas", Icon: Gamepad2, tint: "from-rose-400/25" },
];

export function CategoryTiles({ counts }: { counts: Record<CatalogCategoryId, number> }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
      {TILES.map(({ id, title, text, Icon, tint }) => (
        <li key={id} className={id === "sealed" ? "col-span-2 lg:col-span-1" : undefined}>
          <Link
            to={categoryHref(id)}
            className={`group relative flex h-full min-h-36 flex-col justify-between overflow-hidden rounded-2xl border border-border bg-gradient-to-br ${tint} to-card p-4 transition-colors hover:border-primary/60 sm:p-5`}
          >
            <Icon className="size-7 text-primary" aria-hidden="true" />
            <div className="mt-6">
              <h3 className="font-bold leading-tight">{title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              <p className="tabular mt-2 flex items-center gap-1 text-xs font-semibold text-accent">
                {countOf(counts[id], "produit")}
                <ArrowRight className="size-3.5 transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
              </p>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
