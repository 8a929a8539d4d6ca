import { ArrowDown, ArrowUp, ArrowUpDown, CalendarClock, Plus, Search } from "lucide-react";
import { DeleteIconButton, EditIconLink } from "~/components/admin/row-actions";
import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher, useNavigation, useSubmit } from "react-router";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { toast } from "~/components/ui/toaster";
import {
  ADMIN_STATUS_LABELS,
  type AdminProductQuery,
  type AdminSortField,
  ADMIN_PRODUCTS_PATH,
  LOW_STOCK,
  adminProductListHref,
  clearFilters,
  foundCountText,
  hasFilters,
  pagerItems,
  parseAdminProductQuery,
  scheduledNotice,
  sortBy,
} from "~/domain/admin-product-list";
import type { CatalogChange } from "~/domain/catalog-change";
import { MAIN_CATEGORIES, PRODUCT_STATUSES } from "~/domain/catalog-values";
import { PLACEHOLDER_IMAGE, imageUrl } from "~/domain/images";
import { formatEuros } from "~/domain/money";
import { ClearFiltersLink } from "~/components/admin/clear-filters-link";
import { focusGroup } from "~/lib/restore-focus";
import { useCatalogChanges, useLiveStatus } from "~/lib/live-events";
import { cn } from "~/lib/utils";
import { useShownValue } from "~/lib/use-shown-value";
import { listAdminProducts } from "~/services/admin-product-list.server";
import { deleteProduct, setFeatured } from "~/services/product-admin.server";
import { deleteProductImage } from "~/services/product-images.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/products";
import { readForm } from "~/lib/request-input.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = parseAdminProductQuery(new URL(request.url).searchParams);
  const list = await listAdminProducts(context.db, query);
  return { query: { ...query, page: list.page }, ...list, imageBase: context.storage.publicBaseUrl };
}

/** The list's own actions: featured toggle and delete (the form has its own route). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const form = await readForm(request);
  const id = Number(form.get("id"));
  const intent = form.get("intent");
  if (!Number.isSafeInteger(id) || id <= 0 || (intent !== "featured" && intent !== "delete")) {
    return data<ActionResult>({ ok: false, toast: { title: "Erreur", description: "Requête invalide." } }, { status: 400 });
  }
  return intent === "featured"
    ? featuredAction(context, id, form.get("featured") === "true", admin.id)
    : deleteAction(context, id, admin.id);
}

async function featuredAction(context: Route.ActionArgs["context"], id: number, featured: boolean, adminId: string) {
  try {
    const result = await setFeatured(context.db, id, featured, adminId);
    if (result.outcome === "missing") return data<ActionResult>({ ok: false, toast: { title: "Erreur", description: "Ce produit n'existe plus." } }, { status: 404 });
    const on = result.product.featured;
    return data<ActionResult>({
      ok: true,
      toast: on
        ? { title: "Produit mis en avant", description: `${result.product.title} apparaît sur la page d'accueil.` }
        : { title: "Produit retiré des favoris", description: `${result.product.title} n'apparaît plus sur la page d'accueil.` },
    });
  } catch (error) {
    context.logger.error({ err: error, id }, "admin: featured toggle failed");
    return data<ActionResult>({ ok: false, toast: { title: "Erreur", description: "Une erreur est survenue lors de la modification du statut mis en avant." } }, { status: 500 });
  }
}

async function deleteAction(context: Route.ActionArgs["context"], id: number, adminId: string) {
  try {
    const result = await deleteProduct(context.db, id, adminId);
    if (result.outcome === "missing") return data<ActionResult>({ ok: false, toast: { title: "Erreur", description: "Impossible de supprimer le produit." } }, { status: 404 });
    if (result.outcome === "archived") {
      return data<ActionResult>({ ok: true, toast: { title: "Produit supprimé", description: "Le produit a été retiré du catalogue." } });
    }
    // The row is gone: its files follow (a failure only leaves files for the clean-up).
    await Promise.all(result.imageKeys.map((key) => deleteProductImage(context.storage, key))).catch((error: unknown) =>
      context.logger.warn({ err: error, id }, "admin: image files of a deleted product left for the clean-up"),
    );
    return data<ActionResult>({ ok: true, toast: { title: "Produit supprimé", description: `${result.title} a été supprimé.` } });
  } catch (error) {
    context.logger.error({ err: error, id }, "admin: delete failed");
    return data<ActionResult>({ ok: false, toast: { title: "Erreur", description: "Une erreur est survenue lors de la suppression du produit." } }, { status: 500 });
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Gestion des produits" }];

const SORTABLE: { field: AdminSortField; label: string }[] = [
  { field: "name", label: "Nom" },
  { field: "price", label: "Prix" },
  { field: "stock", label: "Stock" },
  { field: "status", label: "Statut" },
  { field: "category", label: "Catégorie" },
];

/** The admin product list (SPEC.md "Product list"): its state lives in the URL. */
export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { query, rows, total, page, pageCount, scheduled, imageBase } = loaderData;
  const navigation = useNavigation();
  const [toDelete, setToDelete] = useState<{ id: number; name: string } | null>(null);
  const deleter = useFetcher<ActionResult>();
  const names = useRef(new Map<number, string>());
  useEffect(() => {
    for (const row of rows) names.current.set(row.id, row.name);
  }, [rows]);
  useCatalogChanges((change) => announceChange(change, names.current));

  const sortHeader = (field: AdminSortField, label: string) => {
    const active = query.sort === field;
    const Icon = !active ? ArrowUpDown : query.order === "asc" ? ArrowUp : ArrowDown;
    return (
      <th key={field} scope="col" aria-sort={active ? (query.order === "asc" ? "ascending" : "descending") : undefined} className="px-3 py-3 font-medium">
        <Link
          to={adminProductListHref(sortBy(query, field))}
          preventScrollReset
          className="inline-flex min-h-11 items-center gap-1.5 rounded-md hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          {label}
          <Icon className={cn("size-3.5", active ? "text-foreground" : "opacity-50")} aria-hidden="true" />
          <span className="sr-only">{active ? (query.order === "asc" ? "(tri croissant)" : "(tri décroissant)") : "(trier)"}</span>
        </Link>
      </th>
    );
  };

  const notice = scheduledNotice(scheduled);
  return (
    <section aria-busy={navigation.state === "loading"}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-extrabold tracking-tight">Gestion des produits</h1>
          <RealtimeIndicator />
        </div>
        <Link to="/admin/products/add" className={buttonVariants()}>
          <Plus aria-hidden="true" /> Ajouter un produit
        </Link>
      </div>

      {notice ? (
        <p className="mt-4 flex items-center gap-2 rounded-xl border border-accent/30 bg-accent/10 px-4 py-3 text-sm">
          <CalendarClock className="size-4 shrink-0 text-accent" aria-hidden="true" /> {notice}
        </p>
      ) : null}

      <Filters query={query} />

      <p className="tabular mt-4 text-sm text-muted-foreground" aria-live="polite">
        {foundCountText(total)} · Page {pageCount === 0 ? 0 : page} sur {pageCount}
      </p>
      <p id="waiting-help" className="mt-1 text-xs text-muted-foreground">
        En attente : les clients qui ont le produit dans leur liste ou une alerte « Prévenez-moi » confirmée, chaque adresse comptée une fois.
      </p>

      {rows.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-dashed border-border p-10 text-center font-semibold text-muted-foreground">Aucun produit trouvé</p>
      ) : (
        <div className="mt-3 max-h-[70vh] overflow-auto rounded-2xl border border-border bg-card">
          <table className="w-full min-w-[62rem] text-left text-sm">
            <caption className="sr-only">Produits, {foundCountText(total)}</caption>
            <thead className="sticky top-0 z-10 border-b border-border bg-card text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-3 font-medium">
                  Image
                </th>
                {SORTABLE.slice(0, 4).map(({ field, label }) => sortHeader(field, label))}
                {sortHeader("category", "Catégorie")}
                <th scope="col" className="px-3 py-3 font-medium" aria-describedby="waiting-help">
                  En attente
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Mis en avant
                </th>
                <th scope="col" className="px-3 py-3 text-right font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {rows.map((row) => (
                <tr key={row.id} className="hover:bg-muted/40">
                  <td className="px-3 py-2">
                    <img
                      src={row.imagePath ? imageUrl(imageBase, row.imagePath, 320) : PLACEHOLDER_IMAGE}
                      alt=""
                      width={48}
                      height={48}
                      loading="lazy"
                      className="size-12 rounded-lg border border-border bg-muted object-cover"
                    />
                  </td>
                  <td className="max-w-72 px-3 py-2 font-medium">
                    <span className="line-clamp-2">{row.name}</span>
                  </td>
                  <td className="tabular px-3 py-2 whitespace-nowrap">{formatEuros(row.priceCents)}</td>
                  <td className={cn("tabular px-3 py-2", row.stock <= LOW_STOCK && "font-semibold text-destructive")}>{row.stock}</td>
                  <td className="px-3 py-2">
                    <Badge tone={row.status === "en_ligne" ? "success" : row.status === "a_venir" ? "info" : "neutral"}>{ADMIN_STATUS_LABELS[row.status]}</Badge>
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {row.category}
                    {row.subCategory ? <span className="text-muted-foreground"> · {row.subCategory}</span> : null}
                  </td>
                  <td className="tabular px-3 py-2 whitespace-nowrap">{row.waiting > 0 ? <Badge tone="info">{waitingText(row.waiting)}</Badge> : <span className="text-muted-foreground">0</span>}</td>
                  <td className="px-3 py-2">
                    <FeaturedToggle id={row.id} name={row.name} featured={row.featured} onSubmit={() => markOwnChange(row.id)} />
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex justify-end gap-1">
                      <EditIconLink to={`/admin/products/edit/${row.id}`} label={`Modifier ${row.name}`} />
                      <DeleteIconButton label={`Supprimer ${row.name}`} onClick={() => setToDelete({ id: row.id, name: row.name })} />
                    </div>
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
        href={(n) => adminProductListHref({ ...query, page: n })}
      />

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Confirmer la suppression"
        description="Êtes-vous sûr de vouloir supprimer ce produit ? Cette action est irréversible."
        confirmLabel="Supprimer"
        busy={deleter.state !== "idle"}
        onConfirm={() => {
          if (!toDelete) return;
          markOwnChange(toDelete.id);
          void deleter.submit({ intent: "delete", id: String(toDelete.id) }, { method: "post" });
          setToDelete(null);
        }}
      />
      <ActionToasts fetcher={deleter} />
    </section>
  );
}

export type ActionResult = { ok: true; toast: { title: string; description?: string } } | { ok: false; toast: { title: string; description: string } };

/** Shows the toast an action answered with, once per answer. */
function ActionToasts({ fetcher }: { fetcher: { data?: ActionResult } }) {
  useEffect(() => {
    if (!fetcher.data) return;
    const { ok, toast: message } = fetcher.data;
    if (ok) toast.success(message.title, { description: message.description });
    else toast.error(message.title, { description: message.description });
  }, [fetcher.data]);
  return null;
}

function FeaturedToggle({ id, name, featured, onSubmit }: { id: number; name: string; featured: boolean; onSubmit: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  // Optimistic: the switch moves at once; the reloaded list says what the server kept.
  const on = fetcher.formData ? fetcher.formData.get("featured") === "true" : featured;
  return (
    <fetcher.Form method="post" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="featured" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="featured" value={String(!on)} />
      <button
        type="submit"
        role="switch"
        aria-checked={on}
        aria-label={`Mettre en avant ${name}`}
        className="group inline-flex min-h-11 items-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <span className={cn("relative inline-flex h-6 w-11 items-center rounded-full border transition-colors", on ? "border-primary bg-primary" : "border-border bg-muted")}>
          <span className={cn("inline-block size-4 rounded-full bg-background shadow transition-transform", on ? "translate-x-6" : "translate-x-1")} />
        </span>
      </button>
      <ActionToasts fetcher={fetcher} />
    </fetcher.Form>
  );
}

function Filters({ query }: { query: AdminProductQuery }) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const select = "h-11 rounded-lg border border-border bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring";
  // Selects apply at once; the search box on Enter or the button. Sort order is kept.
  const apply = () => form.current && submit(form.current, { preventScrollReset: true, replace: true });
  useShownValue("admin-products-q", query.q);
  useShownValue("admin-products-category", query.category ?? "");
  useShownValue("admin-products-status", query.status ?? "");
  useShownValue("admin-products-featured", query.featured ?? "");
  return (
    <Form ref={form} method="get" action={ADMIN_PRODUCTS_PATH} role="search" aria-label="Filtrer les produits" {...focusGroup()} className="mt-6 flex flex-wrap items-end gap-3">
      {query.sort !== "name" || query.order !== "asc" ? (
        <>
          <input type="hidden" name="sort" value={query.sort} />
          <input type="hidden" name="order" value={query.order} />
        </>
      ) : null}
      <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
        Recherche
        <span className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input id="admin-products-q" type="search" name="q" defaultValue={query.q} placeholder="Rechercher un produit..." className="pl-9" />
        </span>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Catégorie
        <select id="admin-products-category" name="category" defaultValue={query.category ?? ""} onChange={apply} className={select}>
          <option value="">Toutes les catégories</option>
          {MAIN_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Statut
        <select id="admin-products-status" name="status" defaultValue={query.status ?? ""} onChange={apply} className={select}>
          <option value="">Tous les statuts</option>
          {PRODUCT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {ADMIN_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Mis en avant
        <select id="admin-products-featured" name="featured" defaultValue={query.featured ?? ""} onChange={apply} className={select}>
          <option value="">Tous</option>
          <option value="oui">Mis en avant</option>
          <option value="non">Non mis en avant</option>
        </select>
      </label>
      <Button type="submit" variant="secondary">
        Filtrer
      </Button>
      {hasFilters(query) ? (
        <ClearFiltersLink to={adminProductListHref(clearFilters(query))} />
      ) : null}
    </Form>
  );
}

function RealtimeIndicator() {
  const status = useLiveStatus();
  const on = status === "connected";
  return (
    <span
      className={cn("inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-semibold", on ? "border-success/40 text-success" : "border-border text-muted-foreground")}
      data-testid="realtime-indicator"
      data-status={status}
      title={on ? "Mises à jour en direct actives" : "Connexion en direct interrompue"}
    >
      <span className={cn("size-2 rounded-full", on ? "animate-pulse-thrice bg-success" : "bg-muted-foreground")} aria-hidden="true" />
      Realtime
      <span className="sr-only">{on ? " : actif" : " : inactif"}</span>
    </span>
  );
}

const OWN_CHANGE_MS = 5_000;
/** Products this tab changed itself in the last seconds: their own toasts already said it. */
const ownChanges = new Map<number, number>();
function markOwnChange(id: number) {
  ownChanges.set(id, Date.now());
}

/** Toasts for changes made elsewhere (another tab, a checkout, the drop scheduler). */
function announceChange(change: CatalogChange, names: Map<number, string>) {
  if (change.op !== "insert" && change.op !== "update" && change.op !== "delete") return;
  const mine = ownChanges.get(change.id);
  if (mine !== undefined && Date.now() - mine < OWN_CHANGE_MS) return;
  const name = names.get(change.id);
  if (change.op === "insert") {
    toast.info("Nouveau produit", { description: name ? `${name} a été ajouté au catalogue.` : "Un produit a été ajouté au catalogue." });
  } else if (change.op === "update") {
    toast.info("Produit mis à jour", { description: name ? `${name} a été modifié.` : undefined });
  } else {
    toast.info("Produit supprimé", { description: name ? `${name} a été supprimé.` : "Le produit a été retiré du catalogue." });
  }
}

function waitingText(n: number): string {
  return `${n} client${n > 1 ? "s" : ""}`;
}
