import { ChevronDown, MailCheck, Menu, UserRound } from "lucide-react";
import { Link, NavLink } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { useOnDemand } from "~/components/ui/on-demand";
import { cn } from "~/lib/utils";
import { SIGNED_IN_ONLY, SIGNED_OUT_ONLY, useViewer } from "~/lib/viewer";
import type { PaymentProviderName } from "~/components/cart/use-checkout";
import { CartButton } from "./cart-button";
import { MAIN_NAV } from "./navigation";
import { useEarlyPress } from "~/lib/early-press";
import { SearchBox } from "./search-box";
import { ShopLogo } from "./shop-logo";
import { ThemeToggle } from "./theme-toggle";

/** SPEC.md: the order e-mail test, linked in the header for admins only. */
export const EMAIL_TEST_LINK = { to: "/test-email", label: "Test e-mail" } as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "inline-flex h-11 items-center rounded-lg px-2 text-sm font-medium transition-colors hover:bg-muted hover:text-foreground",
    isActive ? "text-foreground" : "text-muted-foreground",
  );

/**
 * The same HTML for every visitor (public pages are cached for all): the signed-in parts are
 * switched by <html data-viewer> before the first paint, and the admin's link is added by the
 * browser only, so no cached page ever holds it.
 */
export function SiteHeader({ shopName, paymentProvider }: { shopName: string; paymentProvider: PaymentProviderName }) {
  const viewer = useViewer();
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
        <MobileMenu shopName={shopName} />
        {/* Tablets (768–1023 px) keep the whole menu: the wordmark gives way, the mark stays. */}
        <ShopLogo name={shopName} place="header" wordmarkClassName="md:max-lg:hidden" />
        <nav aria-label="Navigation principale" className="ml-2 hidden items-center md:flex xl:ml-4">
          {MAIN_NAV.map((item) =>
            "submenu" in item ? (
              <TcgMenu key={item.to} />
            ) : (
              <NavLink key={item.to} to={item.to} end={item.to === "/"} className={navLinkClass} prefetch="intent">
                {item.label}
              </NavLink>
            ),
          )}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <SearchBox className="hidden w-60 xl:block 2xl:w-72" />
          {viewer?.role === "admin" ? (
            <NavLink
              to={EMAIL_TEST_LINK.to}
              aria-label={EMAIL_TEST_LINK.label}
              title={EMAIL_TEST_LINK.label}
              // An icon (the header is short of room), named by its label and tooltip; the phone menu spells it out.
              className={({ isActive }) => cn(navLinkClass({ isActive }), "hidden w-11 justify-center px-0 md:inline-flex")}
            >
              <MailCheck className="size-5" aria-hidden="true" />
            </NavLink>
          ) : null}
          <ThemeToggle />
          <AccountLinks name={viewer?.name ?? null} />
          <CartButton paymentProvider={paymentProvider} />
        </div>
      </div>
      <div className="px-4 pb-3 xl:hidden">
        <SearchBox id="site-search-mobile" />
      </div>
    </header>
  );
}

const loadHeaderMenus = () => import("./header-menus");

const TCG_TRIGGER =
  "inline-flex h-11 items-center gap-1 rounded-lg px-2 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground data-[state=open]:bg-muted data-[state=open]:text-foreground";

/** The TCG submenu: a stand-in trigger until the menu's code arrives on first intent. */
function TcgMenu() {
  const { module: menus, trigger, arrival } = useOnDemand(loadHeaderMenus, "pointerdown");
  const label = (
    <>
      TCG <ChevronDown className="size-4" aria-hidden="true" />
    </>
  );
  if (menus) {
    return (
      <menus.TcgMenu arrival={arrival}>
        <button type="button" className={TCG_TRIGGER}>
          {label}
        </button>
      </menus.TcgMenu>
    );
  }
  return (
    <button type="button" className={TCG_TRIGGER} aria-haspopup="menu" aria-expanded={false} data-state="closed" {...trigger}>
      {label}
    </button>
  );
}

/** Both versions are in the HTML; <html data-viewer> shows one (app/lib/viewer.ts). */
function AccountLinks({ name }: { name: string | null }) {
  return (
    <>
      <Link
        to="/account"
        className={buttonVariants({ variant: "ghost", size: "icon", className: SIGNED_IN_ONLY })}
        aria-label={name ? `Mon compte (${name})` : "Mon compte"}
      >
        <UserRound className="!size-5" aria-hidden="true" />
      </Link>
      {/* Short of room below 1280 px: one sign-in icon (the sign-in page links to sign-up). */}
      <Link
        to="/login"
        className={buttonVariants({ variant: "ghost", size: "icon", className: cn("hidden md:inline-flex xl:hidden", SIGNED_OUT_ONLY) })}
        aria-label="Connexion"
      >
        <UserRound className="!size-5" aria-hidden="true" />
      </Link>
      <div className={cn("hidden items-center gap-1 xl:flex", SIGNED_OUT_ONLY)}>
        <Link to="/login" className={buttonVariants({ variant: "ghost", size: "sm", className: "h-11" })}>
          Connexion
        </Link>
        <Link to="/signup" className={buttonVariants({ variant: "primary", size: "sm", className: "h-11" })}>
          Inscription
        </Link>
      </div>
    </>
  );
}

/** The mobile slide-out menu: a stand-in trigger until the sheet's code arrives on first intent. */
function MobileMenu({ shopName }: { shopName: string }) {
  const { module: menus, trigger, arrival, press } = useOnDemand(loadHeaderMenus, "click");
  const earlyPress = useEarlyPress(press);
  const icon = <Menu className="!size-6" aria-hidden="true" />;
  if (menus) {
    return (
      <menus.MobileMenu arrival={arrival} shopName={shopName}>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Ouvrir le menu">
          {icon}
        </Button>
      </menus.MobileMenu>
    );
  }
  return (
    <Button variant="ghost" size="icon" className="md:hidden" aria-label="Ouvrir le menu" aria-haspopup="dialog" aria-expanded={false} {...trigger} {...earlyPress}>
      {icon}
    </Button>
  );
}
