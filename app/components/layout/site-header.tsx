import { ChevronDown, Menu, UserRound } from "lucide-react";
import { useState } from "react";
import { Link, NavLink } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { Sheet, SheetClose, SheetContent, SheetTrigger } from "~/components/ui/sheet";
import { cn } from "~/lib/utils";
import { CartButton } from "./cart-button";
import { MAIN_NAV, TCG_SUBMENU } from "./navigation";
import { SearchBox } from "./search-box";
import { ShopLogo } from "./shop-logo";
import { ThemeToggle } from "./theme-toggle";

export type HeaderUser = { name: string } | null;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "inline-flex h-11 items-center rounded-lg px-3 text-sm font-medium transition-colors hover:bg-muted hover:text-foreground",
    isActive ? "text-foreground" : "text-muted-foreground",
  );

export function SiteHeader({ shopName, user }: { shopName: string; user: HeaderUser }) {
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
          <CartButton />
        </div>
      </div>
      <div className="px-4 pb-3 lg:hidden">
        <SearchBox id="site-search-mobile" />
      </div>
    </header>
  );
}

function TcgMenu() {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger className="inline-flex h-11 items-center gap-1 rounded-lg px-3 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground data-[state=open]:bg-muted data-[state=open]:text-foreground">
        TCG <ChevronDown className="size-4" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <DropdownMenuItem asChild>
          <Link to="/tcg" className="font-semibold">
            Tout le TCG
          </Link>
        </DropdownMenuItem>
        {TCG_SUBMENU.map((entry) => (
          <DropdownMenuItem key={entry.to} asChild>
            <Link to={entry.to} className="flex-col items-start gap-0.5">
              <span className="font-medium">{entry.label}</span>
              <span className="text-xs text-muted-foreground">{entry.description}</span>
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
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

function MobileMenu({ shopName, user }: { shopName: string; user: HeaderUser }) {
  const [open, setOpen] = useState(false);
  const item = "flex min-h-11 items-center rounded-lg px-3 text-base font-medium hover:bg-muted";
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Ouvrir le menu">
          <Menu className="!size-6" aria-hidden="true" />
        </Button>
      </SheetTrigger>
      <SheetContent side="left" title={shopName}>
        <nav aria-label="Menu mobile" className="flex flex-col gap-1">
          {MAIN_NAV.map((entry) => (
            <div key={entry.to}>
              <SheetClose asChild>
                <Link to={entry.to} className={item}>
                  {entry.label}
                </Link>
              </SheetClose>
              {"submenu" in entry ? (
                <div className="ml-3 flex flex-col border-l border-border pl-2">
                  {entry.submenu.map((sub) => (
                    <SheetClose asChild key={sub.to}>
                      <Link to={sub.to} className={cn(item, "text-sm text-muted-foreground")}>
                        {sub.label}
                      </Link>
                    </SheetClose>
                  ))}
                </div>
              ) : null}
            </div>
          ))}
        </nav>
        <div className="mt-auto flex flex-col gap-2 border-t border-border pt-4">
          {user ? (
            <SheetClose asChild>
              <Link to="/account" className={buttonVariants({ variant: "secondary" })}>
                Mon compte
              </Link>
            </SheetClose>
          ) : (
            <>
              <SheetClose asChild>
                <Link to="/login" className={buttonVariants({ variant: "secondary" })}>
                  Connexion
                </Link>
              </SheetClose>
              <SheetClose asChild>
                <Link to="/signup" className={buttonVariants({ variant: "primary" })}>
                  Inscription
                </Link>
              </SheetClose>
            </>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
