import { ChevronDown, Menu, UserRound } from "lucide-react";
import { Link, NavLink } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { useOnDemand } from "~/components/ui/on-demand";
import { cn } from "~/lib/utils";
import type { PaymentProviderName } from "~/components/cart/use-checkout";
import { CartButton } from "./cart-button";
import { MAIN_NAV } from "./navigation";
import { SearchBox } from "./search-box";
import { ShopLogo } from "./shop-logo";
import { ThemeToggle } from "./theme-toggle";

export type HeaderUser = { name: string } | null;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "inline-flex h-11 items-center rounded-lg px-3 text-sm font-medium transition-colors hover:bg-muted hover:text-foreground",
    isActive ? "text-foreground" : "text-muted-foreground",
  );

export function SiteHeader({ shopName, user, paymentProvider }: { shopName: string; user: HeaderUser; paymentProvider: PaymentProviderName }) {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
        <MobileMenu shopName={shopName} user={user} />
        <ShopLogo name={shopName} />
        <nav aria-label="Navigation principale" className="ml-4 hidden items-center md:flex">
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
          <SearchBox className="hidden w-56 lg:block xl:w-72" />
          <ThemeToggle />
          <AccountLinks user={user} />
          <CartButton paymentProvider={paymentProvider} />
        </div>
      </div>
      <div className="px-4 pb-3 lg:hidden">
        <SearchBox id="site-search-mobile" />
      </div>
    </header>
  );
}

const loadHeaderMenus = () => import("./header-menus");

const TCG_TRIGGER =
  "inline-flex h-11 items-center gap-1 rounded-lg px-3 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground data-[state=open]:bg-muted data-[state=open]:text-foreground";

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

function AccountLinks({ user }: { user: HeaderUser }) {
  if (user) {
    return (
      <Link to="/account" className={buttonVariants({ variant: "ghost", size: "icon" })} aria-label={`Mon compte (${user.name})`}>
        <UserRound className="!size-5" aria-hidden="true" />
      </Link>
    );
  }
  return (
    <div className="hidden items-center gap-1 md:flex">
      <Link to="/login" className={buttonVariants({ variant: "ghost", size: "sm", className: "h-11" })}>
        Connexion
      </Link>
      <Link to="/signup" className={buttonVariants({ variant: "primary", size: "sm", className: "h-11" })}>
        Inscription
      </Link>
    </div>
  );
}

/** The mobile slide-out menu: a stand-in trigger until the sheet's code arrives on first intent. */
function MobileMenu({ shopName, user }: { shopName: string; user: HeaderUser }) {
  const { module: menus, trigger, arrival } = useOnDemand(loadHeaderMenus, "click");
  const icon = <Menu className="!size-6" aria-hidden="true" />;
  if (menus) {
    return (
      <menus.MobileMenu arrival={arrival} shopName={shopName} user={user}>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Ouvrir le menu">
          {icon}
        </Button>
      </menus.MobileMenu>
    );
  }
  return (
    <Button variant="ghost" size="icon" className="md:hidden" aria-label="Ouvrir le menu" aria-haspopup="dialog" aria-expanded={false} {...trigger}>
      {icon}
    </Button>
  );
}
