import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/shipping";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "Livraison" }];

/** /admin/shipping: the seller's delivery methods and rates (in progress). */
export default function AdminShipping() {
  return (
    <section>
      <h1 className="text-3xl font-extrabold tracking-tight">Livraison</h1>
    </section>
  );
}
