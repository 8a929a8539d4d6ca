import { ChevronRight, History, X } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import {
  ADMIN_ACTION_LABELS,
  ADMIN_ACTION_TONES,
  type LogChangeLine,
  type LogChangeMode,
  actionCountText,
  formatLogDate,
  journalHref,
  logChangeLines,
  logChangeMode,
  parseJournalQuery,
  truncateText,
} from "~/domain/admin-log-view";
import { pagerItems } from "~/domain/admin-product-list";
import { getProductForEdit, listAdminLog } from "~/services/product-admin.server";
import { requireAdmin } from "~/services/session.server";
import { useShownValue } from "~/lib/use-shown-value";
import type { Route } from "./+types/journal";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = parseJournalQuery(new URL(request.url).searchParams);
  const log = await listAdminLog(context.db, query);
  // Only products still in the catalogue link to their edit form (at most 20 lookups by key).
  const ids = [...new Set(log.entries.map((entry) => entry.productId))];
  const present = await Promise.all(ids.map(async (id) => ((await getProductForEdit(context.db, id)) ? id : null)));
  const editable = new Set(present.filter((id) => id !== null));
  return {
    query: { ...query, page: log.page },
    total: log.total,
    page: log.page,
    pageCount: log.pageCount,
    // What the screen shows, formatted here: the snapshot stays on the server.
    entries: log.entries.map((entry) => ({
      id: entry.id,
      action: entry.action,
      productId: entry.productId,
      title: entry.title,
      editable: editable.has(entry.productId),
      at: entry.createdAt.toISOString(),
      when: formatLogDate(entry.createdAt),
      admin: entry.admin ? { name: entry.admin.name, email: entry.admin.email } : null,
      mode: logChangeMode(entry.action, entry.changes),
      lines: logChangeLines(entry.changes),
    })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Journal des actions" }];

type Entry = Route.ComponentProps["loaderData"]["entries"][number];

/** The admin action log: who added, changed or deleted which product, and what changed. */
export default function AdminJournal({ loaderData }: Route.ComponentProps) {
  const { query, total, page, pageCount, entries } = loaderData;
  const navigation = useNavigation();
  const filtered = query.productId !== null;
  useShownValue("admin-journal-product", query.productId === null ? "" : String(query.productId));
  return (
    <section aria-busy={navigation.state === "loading"} aria-labelledby="journal-title">
      <h1 id="journal-title" className="text-3xl font-extrabold tracking-tight">
        Journal des actions
      </h1>
      <p className="mt-1 text-sm text-muted-foreground">Chaque ajout, modification et suppression de produit, avec son auteur et les champs modifiés.</p>

      <Form method="get" action="/admin/journal" role="search" aria-label="Filtrer le journal" className="mt-6 flex flex-wrap items-end gap-3">
        <label className="flex w-44 flex-col gap-1 text-sm font-medium">
          Produit (n°)
          <Input
            id="admin-journal-product"
            type="number"
            name="product"
            min={1}
            step={1}
            inputMode="numeric"
            defaultValue={query.productId ?? ""}
            placeholder="ex. 42"
            className="tabular"
          />
        </label>
        <Button type="submit" variant="secondary">
          Filtrer
        </Button>
        {filtered ? (
          <Link to="/admin/journal" className={buttonVariants({ variant: "ghost" })}>
            <X aria-hidden="true" /> Effacer le filtre
          </Link>
        ) : null}
      </Form>

      <p className="tabular mt-4 text-sm text-muted-foreground" aria-live="polite">
        {filtered ? `Produit n° ${query.productId} · ` : ""}
        {actionCountText(total)}
        {total > 0 ? ` · Page ${page} sur ${pageCount}` : ""}
      </p>

      {entries.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-dashed border-border p-10 text-center font-semibold text-muted-foreground">Aucune action enregistrée.</p>
      ) : (
        <div className="mt-3 max-h-[75vh] overflow-auto rounded-2xl border border-border bg-card" tabIndex={0} role="region" aria-labelledby="journal-caption">
          <table className="w-full min-w-[52rem] text-left text-sm">
            <caption id="journal-caption" className="sr-only">
              Journal des actions{filtered ? ` sur le produit n° ${query.productId}` : ""}, page {page} sur {pageCount}
            </caption>
            <thead className="sticky top-0 z-10 border-b border-border bg-card text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-3 font-medium">
                  Date
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Administrateur
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Action
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Produit
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Modifications
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {entries.map((entry) => (
                <tr key={entry.id} className="align-top hover:bg-muted/40">
                  <td className="tabular px-3 py-3 whitespace-nowrap text-muted-foreground">
                    <time dateTime={entry.at}>{entry.when}</time>
                  </td>
                  <td className="max-w-48 px-3 py-3">
                    {entry.admin ? (
                      <>
                        <span className="block truncate font-medium">{entry.admin.name}</span>
                        <span className="block truncate text-xs text-muted-foreground">{entry.admin.email}</span>
                      </>
                    ) : (
                      <span className="text-muted-foreground italic">Compte supprimé</span>
                    )}
                  </td>
                  <td className="px-3 py-3">
                    <Badge tone={ADMIN_ACTION_TONES[entry.action]}>{ADMIN_ACTION_LABELS[entry.action]}</Badge>
                  </td>
                  <td className="max-w-64 px-3 py-3">
                    <ProductCell entry={entry} filtered={filtered} />
                  </td>
                  <td className="min-w-72 px-3 py-3">
                    <Changes lines={entry.lines} mode={entry.mode} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Pagination
        className="mt-6"
        page={page}
        pageCount={pageCount}
        items={pagerItems(page, pageCount)}
        showPageText={false}
        href={(n) => journalHref({ ...query, page: n })}
      />
    </section>
  );
}

function ProductCell({ entry, filtered }: { entry: Entry; filtered: boolean }) {
  return (
    <>
      {entry.editable ? (
        <Link to={`/admin/products/edit/${entry.productId}`} className="inline-block py-0.5 font-medium text-accent underline-offset-4 hover:underline">
          {entry.title}
        </Link>
      ) : (
        <span className="font-medium">{entry.title}</span>
      )}
      <span className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
        <span className="tabular">n° {entry.productId}</span>
        {!entry.editable ? <span>(n'est plus au catalogue)</span> : null}
        {!filtered ? (
          <Link
            to={journalHref({ productId: entry.productId, page: 1 })}
            className="inline-flex items-center gap-1 py-1 text-accent underline-offset-4 hover:underline"
            aria-label={`Historique du produit n° ${entry.productId}`}
          >
            <History className="size-3.5" aria-hidden="true" /> Historique
          </Link>
        ) : null}
      </span>
    </>
  );
}

const MODE_SUMMARY: Record<Exclude<LogChangeMode, "changed">, (n: number) => string> = {
  created: (n) => `${n} champ${n > 1 ? "s" : ""} renseigné${n > 1 ? "s" : ""}`,
  deleted: (n) => `${n} champ${n > 1 ? "s" : ""} au moment de la suppression`,
};

/** "Champ : avant → après" per field; a creation's or deletion's values folded under a summary. */
function Changes({ lines, mode }: { lines: LogChangeLine[]; mode: LogChangeMode }) {
  if (lines.length === 0) return <span className="text-muted-foreground">Aucun champ modifié</span>;
  const list = (
    <ul className="space-y-1">
      {lines.map((line) => (
        <li key={line.field} className="break-words">
          <span className="font-medium">{line.label}&nbsp;:</span> <ChangeValues line={line} mode={mode} />
        </li>
      ))}
    </ul>
  );
  if (mode === "changed") return list;
  return (
    <details className="group">
      <summary className="inline-flex min-h-8 cursor-pointer list-none items-center gap-1 rounded-md font-medium text-accent [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-4 transition-transform group-open:rotate-90" aria-hidden="true" />
        {MODE_SUMMARY[mode](lines.length)}
      </summary>
      <div className="mt-2 pl-5">{list}</div>
    </details>
  );
}

function ChangeValues({ line, mode }: { line: LogChangeLine; mode: LogChangeMode }) {
  const long = Math.max(line.before.length, line.after.length) > 120;
  const shown =
    mode === "created" ? (
      <span>{truncateText(line.after)}</span>
    ) : mode === "deleted" ? (
      <span>{truncateText(line.before)}</span>
    ) : (
      <>
        <span className="text-muted-foreground">{truncateText(line.before)}</span>
        {" → "}
        <span>{truncateText(line.after)}</span>
      </>
    );
  if (!long) return shown;
  return (
    <>
      {shown}
      <details className="mt-1">
        <summary className="cursor-pointer text-xs font-medium text-accent">Texte complet</summary>
        <div className="mt-1 space-y-2 text-xs whitespace-pre-line">
          {mode !== "created" ? (
            <p>
              <span className="font-semibold">{mode === "deleted" ? "Valeur" : "Avant"}&nbsp;:</span> {line.before}
            </p>
          ) : null}
          {mode !== "deleted" ? (
            <p>
              <span className="font-semibold">{mode === "created" ? "Valeur" : "Après"}&nbsp;:</span> {line.after}
            </p>
          ) : null}
        </div>
      </details>
    </>
  );
}
