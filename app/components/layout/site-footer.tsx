import { Mail } from "lucide-react";
import type { ShopIdentity } from "~/lib/shop";
import { FOOTER_NAV } from "./navigation";
import { ShopLogo } from "./shop-logo";
import { SocialLinks } from "./social-icon";
import { Link } from "react-router";

/**
 * The legal pages' sections, and the withdrawal function, which must be easy to find (Directive
 * (EU) 2023/2673). FOOTER_NAV already links /legal itself.
 */
const LEGAL_LINKS = [
  { to: "/legal#cgv", label: "CGV" },
  { to: "/legal#confidentialite", label: "Confidentialité et cookies" },
  { to: "/legal#accessibilite", label: "Accessibilité\u00a0: partiellement conforme" },
  { to: "/retractation", label: "Se rétracter du contrat" },
] as const;

/**
 * `year`: the copyright's, given by the page (the footer's markup is cached by its inputs).
 * `shop.email`: the saved identity's (/admin/settings, root loader), left out while the seller has not given one.
 */
export function SiteFooter({ shop, year }: { shop: ShopIdentity; year: number }) {
  return (
    <footer className="mt-16 border-t border-border bg-card/40">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.2fr_2fr]">
        <div className="space-y-4">
          <ShopLogo name={shop.name} place="footer" />
          <p className="max-w-sm text-sm text-muted-foreground">
            Cartes Pokémon, Magic et One Piece, produits scellés, accessoires, mangas et jeux vidéo, sélectionnés et expédiés avec soin depuis la France.
          </p>
          {shop.email ? (
            <a href={`mailto:${shop.email}`} className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-accent hover:underline">
              <Mail className="size-4" aria-hidden="true" />
              {shop.email}
            </a>
          ) : null}
          <SocialLinks socials={shop.socials} label="Réseaux sociaux" iconsOnly />
        </div>
        <FooterLinks
          label="Pied de page"
          items={FOOTER_NAV}
          listClassName="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3"
          linkClassName="text-sm text-muted-foreground hover:text-foreground"
        />
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-4 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
          <p className="py-1 text-xs text-muted-foreground">
            © {year} {shop.name}. Tous droits réservés. Paiement sécurisé par carte bancaire.
          </p>
          <FooterLinks
            label="Informations légales"
            items={LEGAL_LINKS}
            listClassName="flex flex-wrap gap-x-4"
            linkClassName="text-xs text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
          />
        </div>
      </div>
    </footer>
  );
}

/** A named list of footer links, each at least 44 px tall. */
function FooterLinks({ label, items, listClassName, linkClassName }: { label: string; items: readonly { to: string; label: string }[]; listClassName: string; linkClassName: string }) {
  return (
    <nav aria-label={label}>
      <ul className={listClassName}>
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className={`inline-flex min-h-11 items-center ${linkClassName}`}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
