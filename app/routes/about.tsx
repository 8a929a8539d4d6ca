import { ArrowRight, Gem, Mail, ScanSearch, ShieldCheck } from "lucide-react";
import { SocialLinks } from "~/components/layout/social-icon";
import { buttonVariants } from "~/components/ui/button";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import type { Route } from "./+types/about";
import { Link } from "react-router";

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, {
    title: `À propos | ${root.shop.name}`,
    description: `L'histoire de ${root.shop.name}, boutique de cartes Pokémon, Magic et One Piece tenue par un collectionneur : authenticité, expertise et qualité à chaque envoi.`,
    path: "/about",
  });
};

const VALUES = [
  {
    icon: ShieldCheck,
    title: "Authenticité",
    text: "Nous ne vendons que des produits authentiques, issus de distributeurs officiels ou de collections rachetées et examinées une à une. Impression, texture, découpe : chaque carte est vérifiée à la main. Au moindre doute, elle ne part pas.",
  },
  {
    icon: ScanSearch,
    title: "Expertise",
    text: "Éditions, raretés, variantes, état de conservation : c'est notre quotidien. Une question sur une série, un set à compléter ou la valeur d'une carte ? Nous prenons le temps de vous répondre, comme entre collectionneurs.",
  },
  {
    icon: Gem,
    title: "Qualité",
    text: "L'état annoncé est l'état reçu. Les cartes voyagent sous sleeve et toploader, les produits scellés bien calés dans un carton rigide, et chaque colis part avec un numéro de suivi.",
  },
] as const;

/** SPEC.md "About": the seller's story, the values, the social links and a call to the catalogue. */
export default function About({ matches }: Route.ComponentProps) {
  const { shop } = matches[0].loaderData;
  return (
    <article>
      <header className="relative overflow-hidden border-b border-border">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,theme(colors.amber.400/.16),transparent_55%),radial-gradient(ellipse_at_bottom_left,theme(colors.sky.400/.12),transparent_50%)]"
        />
        <div className="relative mx-auto max-w-6xl px-4 py-14 sm:px-6 md:py-20">
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-700 dark:text-primary">À propos</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-black leading-tight tracking-tight sm:text-5xl">Des cartes choisies une à une, par un collectionneur</h1>
          <p className="mt-5 max-w-2xl text-lg text-muted-foreground">
            {shop.name}, c'est une petite boutique française tenue par un passionné de cartes à collectionner. Pas d'entrepôt anonyme&nbsp;: chaque carte, chaque display
            et chaque manga passe entre nos mains avant de rejoindre votre collection.
          </p>
        </div>
      </header>

      <section aria-labelledby="story-title" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="story-title" className="text-2xl font-extrabold tracking-tight">
          Notre histoire
        </h2>
        <div className="mt-4 max-w-3xl space-y-4 leading-relaxed text-muted-foreground">
          <p>
            Tout a commencé avec un classeur de cartes Pokémon, des échanges dans la cour de récré et le frisson du premier booster ouvert. Des années plus tard, la
            passion est intacte… et le classeur est devenu plusieurs étagères.
          </p>
          <p>
            À force de chiner, d'échanger et de conseiller les amis, une évidence s'est imposée&nbsp;: ouvrir la boutique que nous aurions aimé trouver. Un endroit où
            l'on sait ce que l'on achète, où l'état d'une carte est décrit honnêtement, et où le colis arrive exactement comme on l'espérait.
          </p>
          <p>
            Aujourd'hui, {shop.name} réunit des cartes Pokémon récentes et vintage, des produits scellés, du Magic et du One Piece, des accessoires de protection, des
            mangas et des jeux vidéo. Et nous{" "}
            <Link to="/rachat" className="font-medium text-accent underline underline-offset-2 hover:no-underline">
              rachetons aussi vos collections
            </Link>
            &nbsp;: une carte qui dort dans un tiroir mérite de retrouver un classeur.
          </p>
        </div>
      </section>

      <section aria-labelledby="values-title" className="mx-auto max-w-6xl px-4 py-4 sm:px-6">
        <h2 id="values-title" className="text-2xl font-extrabold tracking-tight">
          Ce qui nous guide
        </h2>
        <ul className="mt-6 grid gap-4 md:grid-cols-3">
          {VALUES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border border-border bg-card p-6">
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-primary/15 text-amber-700 dark:text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="mt-4 text-lg font-bold">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="social-title" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="social-title" className="text-2xl font-extrabold tracking-tight">
          Suivez l'aventure
        </h2>
        <p className="mt-3 max-w-2xl text-muted-foreground">
          Arrivages, ouvertures de boosters en direct, coups de cœur de la semaine&nbsp;: retrouvez-nous sur les réseaux et venez parler cartes avec la communauté.
        </p>
        {shop.socials.length > 0 ? <SocialLinks socials={shop.socials} label="Nos réseaux sociaux" className="mt-5" /> : null}
        {shop.email ? (
          <p className="mt-5 flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
            Vous préférez l'e-mail&nbsp;?
            <a href={`mailto:${shop.email}`} className="inline-flex min-h-11 items-center gap-1.5 font-medium text-accent hover:underline">
              <Mail className="size-4" aria-hidden="true" />
              {shop.email}
            </a>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="rounded-3xl border border-primary/40 bg-primary/10 px-6 py-10 text-center sm:px-10">
          <h2 id="cta-title" className="text-2xl font-extrabold tracking-tight sm:text-3xl">
            Prêt à trouver la pièce qui manque à votre collection&nbsp;?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
            Boosters, displays, cartes rares ou accessoires&nbsp;: le catalogue s'enrichit à chaque arrivage.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/catalog" className={buttonVariants({ size: "lg" })}>
              Découvrir le catalogue <ArrowRight aria-hidden="true" />
            </Link>
            <Link to="/contact" className={buttonVariants({ size: "lg", variant: "outline" })}>
              Nous contacter
            </Link>
          </div>
        </div>
      </section>
    </article>
  );
}
