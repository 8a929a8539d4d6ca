/** Header and footer links of SPEC.md "Header, footer, search", defined once. */
export const TCG_SUBMENU = [
  { to: "/tcg?category=sealed", label: "Scellés", description: "Boosters, bundles, displays" },
  { to: "/tcg?category=cards", label: "Cartes", description: "Cartes Pokémon à l'unité, avec filtres" },
  { to: "/tcg?category=other-cards", label: "Autres cartes", description: "Magic, One Piece, etc." },
] as const;

export const MAIN_NAV = [
  { to: "/", label: "Accueil" },
  { to: "/tcg", label: "TCG", submenu: TCG_SUBMENU },
  { to: "/accessories", label: "Accessoires" },
  { to: "/entertainment", label: "Gaming" },
  { to: "/contact", label: "Contact" },
  { to: "/rachat", label: "Rachat" },
  { to: "/about", label: "Info" },
] as const;

export const FOOTER_NAV = [
  { to: "/tcg", label: "Cartes & TCG" },
  { to: "/accessories", label: "Accessoires" },
  { to: "/entertainment", label: "Gaming & Mangas" },
  { to: "/rachat", label: "Rachat de collection" },
  { to: "/about", label: "À propos" },
  { to: "/contact", label: "Contact" },
  { to: "/legal", label: "Mentions légales & CGV" },
  { to: "/admin/login", label: "Administration" },
] as const;
