import { Link } from "react-router";
import { countProductsByStatus } from "~/services/products-admin.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/index";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const counts = await countProductsByStatus(context.db);
  return { online: counts.en_ligne, offline: counts.hors_ligne, scheduled: counts.a_venir };
}

export const meta: Route.MetaFunction = () => [{ title: "Gestion des produits" }];

/** The admin home: the catalogue at a glance (the product table comes with catalogue management). */
export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const stats: [string, number][] = [
    ["En ligne", loaderData.online],
    ["Hors ligne", loaderData.offline],
    ["Lancements programmés", loaderData.scheduled],
  ];
  return (
    <section>
      <h1 className="text-3xl font-extrabold tracking-tight">Gestion des produits</h1>
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        {stats.map(([label, value]) => (
          <div key={label} className="rounded-2xl border border-border bg-card p-5">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="tabular mt-1 text-3xl font-extrabold">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-sm text-muted-foreground">
        Les e-mails envoyés par la boutique sont consultables dans{" "}
        <Link to="/admin/emails" className="font-semibold text-accent hover:underline">
          E-mails
        </Link>
        .
      </p>
    </section>
  );
}
