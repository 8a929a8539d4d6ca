import { Gem, Gift, Sparkles } from "lucide-react";
import { SocialLinks } from "~/components/layout/social-icon";
import { buttonVariants } from "~/components/ui/button";
import type { HeroBanner } from "~/domain/site-content";
import type { ShopIdentity } from "~/lib/shop";
import { Link } from "react-router";

export function Hero({ shop, banner }: { shop: ShopIdentity; banner: HeroBanner }) {
  return (
    <section className="relative overflow-hidden border-b border-border">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,theme(colors.amber.400/.18),transparent_55%),radial-gradient(ellipse_at_bottom_left,theme(colors.sky.400/.14),transparent_50%)]" />
      <div className="relative mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 sm:px-6 md:py-20 lg:grid-cols-[1.3fr_1fr]">
        <div>
          {banner.isActive && banner.showPromoVersion === 1 ? (
            <p className="inline-flex flex-wrap items-center gap-2 rounded-full border border-primary/40 bg-primary/10 px-3 py-1.5 text-sm font-medium">
              <Sparkles className="size-4 text-primary" aria-hidden="true" />
              <span>{banner.message}</span>
              {banner.promoCode ? (
                <span>
                  avec le code <CodeChip code={banner.promoCode} />
                </span>
              ) : null}
            </p>
          ) : null}
          <h1 className="mt-6 text-4xl font-black leading-[1.05] tracking-tight sm:text-5xl lg:text-6xl">
            Bienvenue au {shop.name},
            <span className="block bg-gradient-to-r from-amber-600 via-orange-600 to-sky-700 dark:from-amber-300 dark:via-amber-400 dark:to-sky-300 bg-clip-text text-transparent">
              le repaire des collectionneurs
            </span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-muted-foreground">
            Cartes Pokémon récentes et vintage, displays scellés, Magic, One Piece, accessoires, mangas et jeux vidéo&nbsp;: tout est vérifié à la main et expédié protégé.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/tcg?category=sealed" className={buttonVariants({ size: "lg" })}>
              Explorer la collection
            </Link>
            <Link to="/tcg?category=cards&rarity=ultra-rare" className={buttonVariants({ size: "lg", variant: "outline" })}>
              <Gem aria-hidden="true" /> Cartes rares
            </Link>
          </div>
          {banner.isActive && banner.showPromoVersion === 2 ? (
            <div className="mt-8 flex max-w-xl items-start gap-3 rounded-2xl border border-primary/40 bg-card p-4">
              <Gift className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
              <div>
                <p className="font-bold">{banner.message}</p>
                {banner.promoCode ? (
                  <p className="mt-2 text-sm text-muted-foreground">
                    Votre code&nbsp;: <CodeChip code={banner.promoCode} />
                  </p>
                ) : null}
              </div>
            </div>
          ) : null}
          <SocialLinks socials={shop.socials} label="Suivez-nous" className="mt-8" />
        </div>
        <HeroArt />
      </div>
    </section>
  );
}

function CodeChip({ code }: { code: string }) {
  return <strong className="rounded bg-primary px-1.5 py-0.5 font-mono text-primary-foreground">{code}</strong>;
}

/** Three fanned cards drawn in CSS: decoration only. */
function HeroArt() {
  const card = "absolute aspect-[5/7] w-40 rounded-2xl border-4 border-amber-300/80 shadow-2xl sm:w-48";
  return (
    <div aria-hidden="true" className="relative mx-auto hidden h-80 w-full max-w-sm lg:block">
      <div className={`${card} left-4 top-10 -rotate-12 bg-gradient-to-br from-sky-500 to-indigo-700`} />
      <div className={`${card} right-4 top-10 rotate-12 bg-gradient-to-br from-fuchsia-500 to-rose-700`} />
      <div className={`${card} left-1/2 top-2 -translate-x-1/2 bg-gradient-to-br from-amber-300 via-orange-500 to-red-600`}>
        <div className="absolute inset-3 rounded-xl bg-[linear-gradient(135deg,rgba(255,255,255,.55),rgba(255,255,255,0)_40%,rgba(103,232,249,.45)_70%,rgba(255,255,255,0))]" />
        <div className="absolute left-1/2 top-1/3 size-16 -translate-x-1/2 rounded-full border-4 border-white/80 bg-white/20" />
      </div>
    </div>
  );
}
