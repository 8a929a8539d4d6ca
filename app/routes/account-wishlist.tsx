import { ArrowLeft, Heart } from "lucide-react";
import { data, Link, useFetcher } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { SwitchField } from "~/components/ui/switch-field";
import { type FieldErrors, fieldErrors } from "~/domain/field-errors";
import { centsToFrenchDecimal, formatEuros } from "~/domain/money";
import { WISHLIST_PRODUCT_UNKNOWN, WISHLIST_STATE_LABELS, type WishlistItemState, wishlistAlertsSchema, wishlistToggleSchema } from "~/domain/wishlist";
import { WISHLIST_ALERT_CONSENT_TEXT } from "~/domain/wishlist-consent";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useFormValidation } from "~/lib/use-form-validation";
import { emailChoicesOf } from "~/services/email-choices.server";
import { isSameOriginPost, requireViewer } from "~/services/session.server";
import { listWishlist, removeFromWishlist, saveWishlistAlerts, type WishlistLine } from "~/services/wishlist.server";
import type { Route } from "./+types/account-wishlist";

/**
 * /account/liste, « Ma liste d'envies » (issue 56, point 3): each product as it is now (price,
 * stock, on sale or coming), its alerts, and a way to take it off. Read at each request, never
 * cached for others. It does not import the public pages' heart: that would put it in the
 * shell chunk of every page (docs/decisions/066-wish-list.md).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const [items, choices] = await Promise.all([
    listWishlist(context.db, viewer.id, { now: new Date(), imageBaseUrl: context.storage.publicBaseUrl }),
    emailChoicesOf(context.db, viewer.email),
  ]);
  return { items, alertsOn: choices["stock-alerts"] };
}

type Answer = { productId: number; saved: true; errors?: undefined } | { productId: number | null; saved?: undefined; errors: FieldErrors };

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) throw data("Requête refusée : elle doit venir du site de la boutique.", { status: 403 });
  const viewer = await requireViewer(request, context);
  const values = Object.fromEntries(await readForm(request));
  if (values.intent === "remove") {
    const parsed = wishlistToggleSchema.safeParse(values);
    if (!parsed.success) return data<Answer>({ productId: null, errors: fieldErrors(parsed.error) }, { status: 400 });
    await removeFromWishlist(context.db, viewer.id, parsed.data.productId);
    return null;
  }
  const parsed = wishlistAlertsSchema.safeParse(values);
  if (!parsed.success) return data<Answer>({ productId: Number(values.productId) || null, errors: fieldErrors(parsed.error) }, { status: 400 });
  if (!(await saveWishlistAlerts(context.db, viewer.id, parsed.data))) return data<Answer>({ productId: parsed.data.productId, errors: { form: WISHLIST_PRODUCT_UNKNOWN } }, { status: 404 });
  return { productId: parsed.data.productId, saved: true } satisfies Answer;
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Ma liste d'envies | ${root.shop.name}`, description: "Les produits que vous attendez.", path: "/account/liste", noindex: true });
};

const STATE_TONE: Record<WishlistItemState, "success" | "destructive" | "info" | "neutral"> = { available: "success", "sold-out": "destructive", coming: "info", gone: "neutral" };

export default function AccountWishlist({ loaderData }: Route.ComponentProps) {
  const { items, alertsOn } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <Link to="/account" className="inline-flex min-h-11 items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden="true" /> Mon compte
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight">Ma liste d'envies</h1>
      <p className="mt-1 text-muted-foreground">Les produits que vous guettez, avec leur prix et leur stock à cet instant.</p>
      <p className="mt-4 text-sm text-muted-foreground">Les alertes sont désactivées à l'ajout d'un produit. {WISHLIST_ALERT_CONSENT_TEXT}</p>
      {alertsOn ? (
        <p className="mt-2 text-sm text-muted-foreground">
          Les alertes de cette liste partent par e-mail selon vos{" "}
          <Link to="/account/notifications" className="font-medium text-accent underline-offset-4 hover:underline">
            notifications par e-mail
          </Link>
          .
        </p>
      ) : (
        <Alert tone="info" title="Vos alertes par e-mail sont désactivées" className="mt-4">
          Aucune alerte de cette liste ne vous sera envoyée.{" "}
          <Link to="/account/notifications" className="font-medium text-accent underline underline-offset-4">
            Réactiver les alertes
          </Link>
        </Alert>
      )}

      {items.length === 0 ? (
        <section className="mt-8 flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border p-10 text-center">
          <Heart className="size-8 text-muted-foreground" aria-hidden="true" />
          <h2 className="text-lg font-bold">Votre liste est vide</h2>
          <p className="max-w-prose text-sm text-muted-foreground">Touchez le cœur d'un produit pour le garder ici ; vous pourrez ensuite choisir d'être prévenu de son retour en stock, de l'ouverture de sa vente ou d'une baisse de prix.</p>
          <Link to="/catalog" className={buttonVariants({ className: "mt-2" })}>
            Voir le catalogue
          </Link>
        </section>
      ) : (
        <ul className="mt-8 flex flex-col gap-4">
          {items.map((item) => (
            <li key={item.productId}>
              <WishlistItem item={item} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function WishlistItem({ item }: { item: WishlistLine }) {
  const alerts = useFetcher<Answer>();
  const remove = useFetcher();
  const form = useFormValidation(wishlistAlertsSchema, alerts.data?.errors);
  const titleId = `wishlist-item-${item.productId}`;
  const busy = alerts.state !== "idle";
  return (
    <article aria-labelledby={titleId} className="grid gap-4 rounded-2xl border border-border bg-card p-4 sm:grid-cols-[6rem_1fr] sm:p-6">
      <img src={item.image ?? "/placeholder-product.svg"} alt="" width={96} height={96} loading="lazy" className="size-24 rounded-xl bg-surface-art object-contain" />
      <div className="flex min-w-0 flex-col gap-3">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div className="min-w-0">
            <h2 id={titleId} className="text-lg font-bold [overflow-wrap:anywhere]">
              <Link to={item.path} className="hover:text-accent hover:underline">
                {item.name}
              </Link>
            </h2>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              <span className="tabular text-xl font-bold">{formatEuros(item.priceCents)}</span>
              <Badge tone={STATE_TONE[item.state]}>{WISHLIST_STATE_LABELS[item.state]}</Badge>
              {item.state === "available" ? <span className="text-sm text-muted-foreground">{item.stock} en stock</span> : null}
            </p>
          </div>
          <remove.Form method="post">
            <input type="hidden" name="productId" value={item.productId} />
            <Button type="submit" name="intent" value="remove" variant="outline" size="sm" disabled={remove.state !== "idle"}>
              Retirer<span className="sr-only"> {item.name} de ma liste</span>
            </Button>
          </remove.Form>
        </div>
        <alerts.Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange}>
          <fieldset className="flex flex-col gap-1">
            <legend className="text-sm font-semibold">
              M'alerter par e-mail<span className="sr-only"> pour {item.name}</span>
            </legend>
            <input type="hidden" name="productId" value={item.productId} />
            <div className="flex flex-wrap gap-x-6">
              <SwitchField name="alertRestock" label="Retour en stock" defaultChecked={item.alertRestock} />
              <SwitchField name="alertDrop" label="Ouverture d'un drop" defaultChecked={item.alertDrop} />
            </div>
            <div className="flex flex-wrap items-end gap-3">
              <div className="w-48">
                <FormField
                  label="Prix à atteindre (€)"
                  name="priceBelow"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="Aucun"
                  defaultValue={item.priceBelowCents === null ? "" : centsToFrenchDecimal(item.priceBelowCents)}
                  error={form.errors.priceBelow}
                />
              </div>
              <Button type="submit" variant="secondary" disabled={busy} className="mb-0.5">
                Enregistrer les alertes
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">Un e-mail quand le prix descend à ce montant ou moins ; laissez vide pour ne pas suivre le prix.</p>
            {form.errors.form ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                {form.errors.form}
              </p>
            ) : null}
            {alerts.data?.saved && !busy ? (
              <p role="status" className="text-sm font-medium">
                Alertes enregistrées.
              </p>
            ) : null}
          </fieldset>
        </alerts.Form>
      </div>
    </article>
  );
}
