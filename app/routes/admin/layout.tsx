import { ArrowLeft, FileSpreadsheet, History, Mail, Package } from "lucide-react";
import { NavLink, Outlet } from "react-router";
import { LogoutButton } from "~/components/account/logout-button";
import { cn } from "~/lib/utils";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  return { viewer: { name: viewer.name, email: viewer.email } };
}

export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex" }];

const LINKS = [
  { to: "/admin", label: "Produits", icon: Package, end: true },
  { to: "/admin/emails", label: "E-mails", icon: Mail, end: false },
  { to: "/admin/journal", label: "Journal", icon: History, end: false },
  { to: "/admin/csv", label: "Import / export", icon: FileSpreadsheet, end: true },
];

/** The admin area: a sidebar (a top bar on phones) and the current screen. */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 lg:flex-row">
      <aside className="lg:w-56 lg:shrink-0">
        <p className="text-xs font-semibold uppercase tracking-widest text-muted-foreground">Administration</p>
        <p className="mt-1 truncate text-sm" title={loaderData.viewer.email}>
          {loaderData.viewer.name}
        </p>
        <nav aria-label="Administration" className="mt-4 flex flex-wrap gap-1 lg:flex-col">
          {LINKS.map(({ to, label, icon: Icon, end }) => (
            <NavLink
              key={to}
              to={to}
              end={end}
              className={({ isActive }) =>
                cn(
                  "inline-flex min-h-11 items-center gap-2 rounded-lg px-3 text-sm font-medium transition-colors",
                  isActive ? "bg-primary text-primary-foreground" : "hover:bg-muted",
                )
              }
            >
              <Icon className="size-4" aria-hidden="true" /> {label}
            </NavLink>
          ))}
          <NavLink to="/" className="inline-flex min-h-11 items-center gap-2 rounded-lg px-3 text-sm font-medium hover:bg-muted">
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
