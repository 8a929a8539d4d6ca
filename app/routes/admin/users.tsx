import { Search } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation, useSubmit } from "react-router";
import { Alert } from "~/components/ui/alert";
import { UserBadges } from "~/components/admin/user-badges";
import { Button, buttonVariants } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { SearchInput } from "~/components/ui/search-input";
import { pagerItems } from "~/domain/admin-product-list";
import { USER_SEARCH_MAX_LENGTH, formatDay, parseUserListQuery, userCountText, usersListHref } from "~/domain/admin-users";
import { formatEuros } from "~/domain/money";
import { cn } from "~/lib/utils";
import { listUsers } from "~/services/admin-users.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/users";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = parseUserListQuery(new URL(request.url).searchParams);
  try {
    const list = await listUsers(context.db, query);
    return { failed: false as const, query: { ...query, page: list.page }, ...list };
  } catch (error) {
    context.logger.error({ err: error }, "admin: users list failed");
    return data({ failed: true as const, query }, { status: 500 });
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Utilisateurs" }];

/** Typing searches on its own after this pause (the button and Enter still work without JavaScript). */
const SEARCH_DEBOUNCE_MS = 300;

/** The users page (SPEC.md "Users page"): real figures of paid orders, search and page in the URL. */
export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/users";
  return (
    <section aria-busy={loading}>
      <h1 className="text-3xl font-extrabold tracking-tight">Gestion des utilisateurs</h1>
      <SearchForm q={loaderData.query.q} />
      {loaderData.failed ? (
        <LoadError />
      ) : (
        <>
          <p className="tabular mt-4 min-h-5 text-sm text-muted-foreground" aria-live="polite">
            {loading ? "Chargement des utilisateurs..." : `${userCountText(loaderData.total)}${loaderData.pageCount > 1 ? ` · Page ${loaderData.page} sur ${loaderData.pageCount}` : ""}`}
          </p>
          <div className={cn("transition-opacity", loading && "opacity-60")}>
            {loaderData.rows.length === 0 ? (
              <p className="mt-3 rounded-2xl border border-dashed border-border p-10 text-center font-semibold text-muted-foreground">Aucun utilisateur trouvé</p>
            ) : (
              <UsersTable rows={loaderData.rows} caption={userCountText(loaderData.total)} />
            )}
          </div>
          <Pagination
            className="mt-6"
            page={loaderData.page}
            pageCount={loaderData.pageCount}
            items={pagerItems(loaderData.page, loaderData.pageCount)}
            showPageText={false}
            href={(page) => usersListHref({ ...loaderData.query, page })}
          />
        </>
      )}
    </section>
  );
}

type Row = Extract<Route.ComponentProps["loaderData"], { failed: false }>["rows"][number];

/** The figure columns, shared by the table and the phone cards. */
const FIGURES: { label: string; value: (user: Row) => string | number; numeric: boolean }[] = [
  { label: "Commandes", value: (user) => user.orderCount, numeric: true },
  { label: "Dernière commande", value: (user) => formatDay(user.lastOrderAt), numeric: false },
  { label: "Total dépensé", value: (user) => formatEuros(user.spentCents), numeric: true },
];

function UserLink({ user }: { user: Row }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2">
      <Link
        to={`/admin/users/${user.id}`}
        className="inline-flex min-h-11 items-center rounded-md font-medium text-accent hover:underline focus-visible:outline-2 focus-visible:outline-ring"
      >
        {user.name}
      </Link>
      <UserBadges role={user.role} erased={user.erasedAt !== null} />
    </span>
  );
}

/** A table from 640 px; one card per user on phones, every figure in sight. */
function UsersTable({ rows, caption }: { rows: Row[]; caption: string }) {
  return (
    <>
      <ul className="mt-3 space-y-3 sm:hidden" aria-label={`Utilisateurs, ${caption}`}>
        {rows.map((user) => (
          <li key={user.id} className="rounded-2xl border border-border bg-card px-4 pt-1 pb-4">
            <UserLink user={user} />
            <p className="truncate text-sm text-muted-foreground">{user.email}</p>
            <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
              {FIGURES.map(({ label, value }) => (
                <div key={label} className="flex flex-col justify-between gap-0.5">
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="tabular font-semibold">{value(user)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="mt-3 hidden max-h-[70vh] overflow-auto rounded-2xl border border-border bg-card sm:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Utilisateurs, {caption}</caption>
          <thead className="sticky top-0 z-10 border-b border-border bg-card text-muted-foreground">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">Nom</th>
              <th scope="col" className="px-4 py-3 font-medium">Email</th>
              {FIGURES.map(({ label, numeric }) => (
                <th key={label} scope="col" className={cn("px-4 py-3 font-medium", numeric && "text-right")}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {rows.map((user) => (
              <tr key={user.id} className="hover:bg-muted/40">
                <td className="px-4 py-1">
                  <UserLink user={user} />
                </td>
                <td className="max-w-64 truncate px-4 py-2" title={user.email}>
                  {user.email}
                </td>
                {FIGURES.map(({ label, value, numeric }) => (
                  <td key={label} className={cn("tabular px-4 py-2 whitespace-nowrap", numeric && "text-right")}>
                    {value(user)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function SearchForm({ q }: { q: string }) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Back/forward: the box shows the search of the page, unless the admin is typing in it.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  return (
    <Form
      ref={form}
      method="get"
      action="/admin/users"
      role="search"
      aria-label="Rechercher des utilisateurs"
      className="mt-6 flex flex-wrap items-center gap-3"
      onSubmit={() => clearTimeout(timer.current)}
    >
      <div className="relative min-w-0 flex-1 basis-56">
        <SearchInput
          ref={input}
          id="users-search"
          label="Rechercher un utilisateur par nom ou e-mail"
          name="q"
          defaultValue={q}
          maxLength={USER_SEARCH_MAX_LENGTH}
          placeholder="Rechercher un utilisateur..."
          autoComplete="off"
          onChange={() => {
            clearTimeout(timer.current);
            timer.current = setTimeout(() => form.current && submit(form.current, { replace: true, preventScrollReset: true }), SEARCH_DEBOUNCE_MS);
          }}
        />
      </div>
      <Button type="submit" variant="secondary" className="max-sm:w-11 max-sm:px-0">
        <Search className="sm:hidden" aria-hidden="true" />
        <span className="max-sm:sr-only">Rechercher</span>
      </Button>
      {q ? (
        <Link to="/admin/users" className={buttonVariants({ variant: "ghost" })}>
          Effacer la recherche
        </Link>
      ) : null}
    </Form>
  );
}

function LoadError() {
  return (
    <Alert tone="error" title="Erreur" className="mt-6">
      Impossible de charger les utilisateurs.
    </Alert>
  );
}
