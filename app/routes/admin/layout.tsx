import { ArrowLeft, BookOpenCheck, Building2, CalendarClock, Landmark, LayoutDashboard, FileSpreadsheet, History, Inbox, Mail, MailCheck, Megaphone, MessageSquareText, Package, Rocket, ShieldCheck, ShoppingBag, ShieldUser, TicketPercent, Truck, Users } from "lucide-react";
import { useEffect, useRef } from "react";
import { NavLink, Outlet, useLocation } from "react-router";
import { LogoutButton } from "~/components/account/logout-button";
import { cn } from "~/lib/utils";
import { type AdminBadges, loadAdminBadges } from "~/services/admin-badges.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const badges = await loadAdminBadges(context.db);
  return { viewer: { name: viewer.name, email: viewer.email }, badges };
}

export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex" }];

type SidebarLink = {
  to: string;
  label: string;
  icon: typeof Package;
  end: boolean;
  /** What waits behind the entry, as a number and as words for screen readers. */
  waiting?: (badges: AdminBadges) => { n: number; text: string };
};

/** SPEC.md's entries plus the back office. */
const LINKS: SidebarLink[] = [
  { to: "/admin", label: "Tableau de bord", icon: LayoutDashboard, end: true },
  { to: "/admin/products", label: "Produits", icon: Package, end: false },
  { to: "/admin/orders", label: "Commandes", icon: ShoppingBag, end: false, waiting: ({ ordersToShip: n }) => ({ n, text: `${n} à expédier` }) },
  { to: "/admin/drops", label: "Sorties", icon: Rocket, end: true },
  { to: "/admin/precommandes", label: "Précommandes", icon: CalendarClock, end: false },
  { to: "/admin/shipping", label: "Livraison", icon: Truck, end: true },
  {
    to: "/admin/inbox",
    label: "Messages reçus",
    icon: Inbox,
    end: false,
    waiting: ({ newMessages: n }) => ({ n, text: `${n} nouveau${n > 1 ? "x" : ""}` }),
  },
  { to: "/admin/users", label: "Utilisateurs", icon: Users, end: false },
  { to: "/admin/privacy", label: "Données personnelles", icon: ShieldUser, end: true },
  { to: "/admin/promotions", label: "Promotions", icon: Megaphone, end: true },
  { to: "/admin/codes", label: "Codes promo", icon: TicketPercent, end: true },
  { to: "/admin/messages", label: "Messages du site", icon: MessageSquareText, end: true },
  { to: "/admin/emails", label: "E-mails", icon: Mail, end: false },
  { to: "/admin/test-email", label: "Test e-mail", icon: MailCheck, end: true },
  { to: "/admin/journal", label: "Journal", icon: History, end: false },
  { to: "/admin/csv", label: "Import / export", icon: FileSpreadsheet, end: true },
  { to: "/admin/exports", label: "Exports comptables", icon: Landmark, end: true },
  { to: "/admin/registre", label: "Registre des achats", icon: BookOpenCheck, end: true },
  { to: "/admin/product-safety", label: "Sécurité des produits", icon: ShieldCheck, end: true },
  { to: "/admin/settings", label: "Identité de la boutique", icon: Building2, end: true },
];

/**
 * On phones the entries are one row that scrolls sideways (a wrapped list of 19 took the whole
 * first screen on every page): the current one is brought into view, the page itself not moved.
 */
function useCurrentEntryInView() {
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const strip = nav.current;
    const current = strip?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!strip || !current || strip.scrollWidth <= strip.clientWidth) return;
    strip.scrollLeft = current.offsetLeft - strip.offsetLeft - (strip.clientWidth - current.offsetWidth) / 2;
  }, [pathname]);
  return nav;
}

/** The admin area: a sidebar (a row that scrolls sideways on phones) and the current screen. */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const nav = useCurrentEntryInView();
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 lg:flex-row">
      <aside className="lg:w-56 lg:shrink-0">
        <p className="text-xs font-semibold uppercase tracking-widest text-muted-foreground">Administration</p>
        <p className="mt-1 truncate text-sm" title={loaderData.viewer.email}>
          {loaderData.viewer.name}
        </p>
        <nav ref={nav} aria-label="Administration" className="-mx-4 mt-4 flex gap-1 overflow-x-auto px-4 pb-2 sm:-mx-6 sm:px-6 lg:mx-0 lg:flex-col lg:overflow-visible lg:px-0 lg:pb-0">
          {LINKS.map(({ to, label, icon: Icon, end, waiting }) => {
            const count = waiting?.(loaderData.badges);
            return (
              <NavLink
                key={to}
                to={to}
                end={end}
                className={({ isActive }) =>
                  cn(
                    "inline-flex min-h-11 shrink-0 items-center gap-2 whitespace-nowrap rounded-lg px-3 text-sm font-medium transition-colors",
                    isActive ? "bg-primary text-primary-foreground" : "hover:bg-muted",
                  )
                }
              >
                <Icon className="size-4" aria-hidden="true" /> {label}
                {count && count.n > 0 ? (
                  <>
                    <span aria-hidden="true" className="tabular ml-auto rounded-full bg-warning px-2 text-xs font-bold leading-5 text-background">
                      {count.n}
                    </span>
                    <span className="sr-only">({count.text})</span>
                  </>
                ) : null}
              </NavLink>
            );
          })}
          <NavLink to="/" className="inline-flex min-h-11 shrink-0 items-center gap-2 whitespace-nowrap rounded-lg px-3 text-sm font-medium hover:bg-muted">
            <ArrowLeft className="size-4" aria-hidden="true" /> Retour au site
          </NavLink>
        </nav>
        <LogoutButton redirectTo="/admin/login" variant="ghost" className="mt-2 w-full justify-start" />
      </aside>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
