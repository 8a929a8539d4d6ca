import type { ReactElement } from "react";
import { useState } from "react";
import { buttonVariants } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { type Arrival, useArrivalFocus, useArrivalMenuFocus } from "~/components/ui/on-demand";
import { Sheet, SheetClose, SheetContent, SheetTrigger } from "~/components/ui/sheet";
import { type ThemeChoice, parseThemeChoice } from "~/lib/theme";
import { cn } from "~/lib/utils";
import { MAIN_NAV, TCG_SUBMENU } from "./navigation";
import { useViewer } from "~/lib/viewer";
import { EMAIL_TEST_LINK } from "./site-header";
import { Link } from "react-router";

/**
 * The header's menus (Radix dropdown menus and the mobile sheet), loaded on the visitor's first
 * intent by site-header.tsx and theme-toggle.tsx (see useOnDemand). Each takes the trigger
 * element the page already shows, so the real trigger looks exactly like its stand-in.
 */
type Props = { arrival: Arrival; children: ReactElement };

export function TcgMenu({ arrival, children }: Props) {
  const triggerRef = useArrivalFocus<HTMLButtonElement>(arrival);
  const onContentFocus = useArrivalMenuFocus(arrival);
  return (
    <DropdownMenu modal={false} defaultOpen={arrival.defaultOpen}>
      <DropdownMenuTrigger asChild ref={triggerRef}>
        {children}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72" onFocus={onContentFocus}>
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

export type ThemeOption = { value: ThemeChoice; label: string; icon: ReactElement };

export function ThemeMenu({
  arrival,
  children,
  choice,
  options,
  onChange,
}: Props & { choice: ThemeChoice; options: ThemeOption[]; onChange: (choice: ThemeChoice) => void }) {
  const triggerRef = useArrivalFocus<HTMLButtonElement>(arrival);
  const onContentFocus = useArrivalMenuFocus(arrival);
  return (
    <DropdownMenu defaultOpen={arrival.defaultOpen}>
      <DropdownMenuTrigger asChild ref={triggerRef}>
        {children}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" onFocus={onContentFocus}>
        <DropdownMenuRadioGroup value={choice} onValueChange={(v) => onChange(parseThemeChoice(v))}>
          {options.map(({ value, label, icon }) => (
            <DropdownMenuRadioItem key={value} value={value}>
              {icon}
              {label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function MobileMenu({ arrival, children, shopName }: Props & { shopName: string }) {
  // Loaded on demand, in the browser only: the signed-in visitor is known by then.
  const user = useViewer();
  const [open, setOpen] = useState(arrival.defaultOpen);
  const triggerRef = useArrivalFocus<HTMLButtonElement>(arrival);
  const item = "flex min-h-11 items-center rounded-lg px-3 text-base font-medium hover:bg-muted";
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild ref={triggerRef}>
        {children}
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
          {user?.role === "admin" ? (
            <SheetClose asChild>
              <Link to={EMAIL_TEST_LINK.to} className={buttonVariants({ variant: "outline" })}>
                {EMAIL_TEST_LINK.label}
              </Link>
            </SheetClose>
          ) : null}
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
