import { CalendarClock } from "lucide-react";
import { Link } from "react-router";
import { AdminTable } from "~/components/admin/admin-table";
import { Badge } from "~/components/ui/badge";
import { formatCalendarDate } from "~/domain/calendar-date";
import { formatParisDateTime, parisWallTime } from "~/domain/paris-time";
import { listPreorderProducts } from "~/services/preorder-allocations.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/preorders";

/** /admin/precommandes: every pre-order product, its units ordered and paid, and whether its allocation is to do (issue 55). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { products: await listPreorderProducts(context.db), today: parisWallTime(new Date()).date };
}

export const meta: Route.MetaFunction = () => [{ title: "Précommandes" }];

export default function AdminPreorders({ loaderData }: Route.ComponentProps) {
  const { products, today } = loaderData;
  return (
    <section className="space-y-6">
      <div>
        <h1 className="flex items-center gap-2 text-3xl font-extrabold tracking-tight">
          <CalendarClock className="size-7" aria-hidden="true" /> Précommandes
        </h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
          Les produits vendus avant leur sortie. À la réception, saisissez les exemplaires livrés : s'ils ne couvrent pas toutes les précommandes payées,
          choisissez la règle de répartition, vérifiez le résultat, puis appliquez-le. Les précommandes non servies sont remboursées et prévenues par e-mail.
        </p>
      </div>
      {products.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">
          Aucun produit en précommande. Rendez-en un disponible depuis la section « Précommande » de sa fiche.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-border bg-card">
          <AdminTable
            padding="card"
            className="min-w-[40rem]"
            columns={[{ label: "Produit" }, { label: "Sortie" }, { label: "Précommandés", numeric: true }, { label: "Payés", numeric: true }, { label: "Répartition" }]}
            rows={products}
            rowKey={(row) => row.productId}
            renderRow={(row) => (
              <>
                <td className="p-3 font-medium [overflow-wrap:break-word]">
                  <Link to={`/admin/precommandes/${row.productId}`} className="underline-offset-4 hover:underline focus-visible:underline">
                    {row.title}
                  </Link>
                </td>
                <td className="p-3 whitespace-nowrap">{formatCalendarDate(row.releaseOn)}</td>
                <td className="p-3 text-right tabular-nums">
                  {row.orderedUnits} / {row.quantity}
                </td>
                <td className="p-3 text-right tabular-nums">
                  {row.paidUnits} ({row.paidOrders} commande{row.paidOrders > 1 ? "s" : ""})
                </td>
                <td className="p-3">
                  {row.allocatedAt ? (
                    <Badge tone="success">Appliquée le {formatParisDateTime(row.allocatedAt)}</Badge>
                  ) : row.releaseOn > today ? (
                    <Badge tone="neutral">Précommandes ouvertes</Badge>
                  ) : (
                    <Badge tone="warning">À répartir</Badge>
                  )}
                </td>
              </>
            )}
          />
        </div>
      )}
    </section>
  );
}
