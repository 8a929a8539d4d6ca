import { Camera } from "lucide-react";
import { useRef } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { INBOX_KINDS, INBOX_KIND_LABELS, INBOX_STATUSES, INBOX_STATUS_LABELS } from "~/domain/inbox-values";
import { inboxListHref, parseInboxQuery, requestCountText } from "~/domain/inbox-admin";
import { KIND_STATUSES, STATUS_TONES } from "~/domain/inbox-workflow";
import { ClearFiltersLink } from "~/components/admin/clear-filters-link";
import { focusGroup } from "~/lib/restore-focus";
import { cn } from "~/lib/utils";
import { useShownValue } from "~/lib/use-shown-value";
import { listInbox } from "~/services/inbox.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/inbox";
import { formatParisShortDateTime } from "~/domain/paris-time";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = parseInboxQuery(new URL(request.url).searchParams);
  const list = await listInbox(context.db, query);
  return { query: { ...query, page: list.page }, ...list };
}

export const meta: Route.MetaFunction = () => [{ title: "Messages reçus" }];

/** "Messages reçus": contact and buy-back requests, newest first; filters and page in the URL. */
export default function AdminInbox({ loaderData }: Route.ComponentProps) {
  const { query, rows, total, page, pageCount } = loaderData;
  const navigation = useNavigation();
  return (
    <section aria-busy={navigation.state === "loading"}>
      <h1 className="text-3xl font-extrabold tracking-tight">Messages reçus</h1>
      <p className="mt-1 text-sm text-muted-foreground">Les demandes de contact et de rachat, les plus récentes en premier.</p>

      <Filters query={query} />

      <p className="tabular mt-4 text-sm text-muted-foreground" aria-live="polite">
        {requestCountText(total)}
        {pageCount > 1 ? ` · Page ${page} sur ${pageCount}` : ""}
      </p>

      {rows.length === 0 ? (
        <p className="mt-3 rounded-2xl border border-dashed border-border p-10 text-center font-semibold text-muted-foreground">Aucune demande pour le moment.</p>
      ) : (
        <div className="relative mt-3 overflow-x-auto rounded-2xl border border-border bg-card">
          {/* relative: the cells' screen-reader texts (absolute) stay inside this scrolling box. */}
          <table className="w-full min-w-[44rem] text-left text-sm">
            <caption className="sr-only">Demandes reçues, {requestCountText(total)}</caption>
            <thead className="border-b border-border text-muted-foreground">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Date
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Nom
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Email
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Type
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Statut
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {rows.map((row) => {
                const unread = row.status === "nouveau";
                return (
                  <tr key={row.id} className={cn("hover:bg-muted/40", unread && "bg-primary/5")}>
                    <td className="tabular whitespace-nowrap px-4 py-3 text-muted-foreground">
                      <span className="inline-flex items-center gap-2">
                        <span className={cn("size-2 shrink-0 rounded-full", unread ? "bg-primary" : "bg-transparent")} aria-hidden="true" />
                        {formatParisShortDateTime(row.createdAt)}
                      </span>
                    </td>
                    <td className="px-4 py-3">
                      {/* No prefetch: opening a new contact message marks it read. */}
                      <Link to={`/admin/inbox/${row.id}`} className={cn("inline-flex min-h-11 items-center text-accent hover:underline", unread ? "font-bold" : "font-medium")}>
                        {row.firstName} {row.lastName}
                        {unread ? <span className="sr-only"> (nouveau)</span> : null}
                      </Link>
                    </td>
                    <td className="max-w-64 truncate px-4 py-3" title={row.email}>
                      {row.email}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3">
                      <span className="inline-flex items-center gap-1.5">
                        {INBOX_KIND_LABELS[row.kind]}
                        {row.photoCount > 0 ? (
                          <span className="inline-flex items-center gap-0.5 text-muted-foreground" title={`${row.photoCount} photo(s)`}>
                            <Camera className="size-3.5" aria-hidden="true" />
                            <span className="tabular text-xs">{row.photoCount}</span>
                            <span className="sr-only"> photo{row.photoCount > 1 ? "s" : ""}</span>
                          </span>
                        ) : null}
                      </span>
                    </td>
                    <td className="px-4 py-3">
                      <Badge tone={STATUS_TONES[row.status]}>{INBOX_STATUS_LABELS[row.status]}</Badge>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <Pagination className="mt-6" page={page} pageCount={pageCount} showPageText={false} href={(n) => inboxListHref({ ...query, page: n })} />
    </section>
  );
}

function Filters({ query }: { query: Route.ComponentProps["loaderData"]["query"] }) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const select = "h-11 rounded-lg border border-border bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring";
  // A kind narrows the statuses to its own (parseInboxQuery drops the others).
  const statuses = query.kind ? KIND_STATUSES[query.kind] : INBOX_STATUSES;
  const apply = () => form.current && submit(form.current, { preventScrollReset: true, replace: true });
  useShownValue("admin-inbox-kind", query.kind ?? "");
  useShownValue("admin-inbox-status", query.status ?? "");
  return (
    <Form ref={form} method="get" action="/admin/inbox" role="search" aria-label="Filtrer les demandes" {...focusGroup()} className="mt-6 flex flex-wrap items-end gap-3">
      <label className="flex flex-col gap-1 text-sm font-medium">
        Type
        <select id="admin-inbox-kind" name="kind" defaultValue={query.kind ?? ""} onChange={apply} className={select}>
          <option value="">Tous les types</option>
          {INBOX_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {INBOX_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Statut
        <select id="admin-inbox-status" name="status" defaultValue={query.status ?? ""} onChange={apply} className={select}>
          <option value="">Tous les statuts</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {INBOX_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" variant="secondary">
        Filtrer
      </Button>
      {query.kind || query.status ? (
        <ClearFiltersLink to="/admin/inbox" />
      ) : null}
    </Form>
  );
}
