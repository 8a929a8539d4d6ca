import { Lock, Wallet } from "lucide-react";
import { useMemo } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { BillingAddressFields } from "~/components/checkout/billing-address-fields";
import { DeliveryAddressFields } from "~/components/checkout/delivery-address-fields";
import { CgvAcceptance } from "~/components/legal/cgv-acceptance";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { fieldErrors } from "~/domain/auth-forms";
import { creditDeliverySchema, creditOrderButtonLabel } from "~/domain/delivery-address-form";
import { formatEuros } from "~/domain/money";
import { formatParisTime } from "~/domain/paris-time";
import { SIGNATURE_DELIVERY_LABEL } from "~/domain/signature-delivery";
import { STORE_CREDIT_PAID_LABEL } from "~/domain/store-credit";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useFormValidation } from "~/lib/use-form-validation";
import { cancelCheckout } from "~/services/checkout.server";
import { creditDeliveryOf, payCreditDelivery } from "~/services/credit-delivery.server";
import { webhookDepsFrom } from "~/services/payment-webhooks.server";
import { getCustomerOrder } from "~/services/orders.server";
import { listCustomerAddresses, saveCheckoutAddresses } from "~/services/customer-addresses.server";
import { checkoutProposals } from "~/domain/customer-addresses";
import { isSameOriginPost, requireViewer } from "~/services/session.server";
import type { Route } from "./+types/credit-delivery";

/**
 * A home delivery paid entirely by store credit (docs/decisions/060): no payment page asks its
 * address, so this page does, before the order is confirmed. Its own route: the cart loads
 * nothing of it. Only the order's owner sees it; once paid it leads to the order's page.
 */
const orderPage = (number: string) => `/account/orders/${encodeURIComponent(number)}`;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const order = await creditDeliveryOf(context.db, viewer.id, params.number, new Date());
  if (!order) throw data(null, { status: 404 });
  if (order.state === "paid") throw redirect(orderPage(order.orderNumber));
  const view = await getCustomerOrder(context.db, viewer.id, params.number);
  // The customer's address book (decision 064): the default filled in, the others to choose.
  const proposals = checkoutProposals(await listCustomerAddresses(context.db, viewer.id), order.delivery, order.businessCountry);
  return { proposals, order, lines: view?.lines ?? [], shippingCents: view?.shipping?.cents ?? 0, insuranceCents: view?.insuranceCents ?? 0, discountCents: view?.discountCents ?? 0 };
}

const ENDED = {
  title: "Commande terminée",
  description: "Le délai pour indiquer l'adresse est dépassé ou la commande a été annulée : les articles ont été remis en vente et votre avoir vous a été rendu.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) throw data("Requête refusée : elle doit venir du site de la boutique.", { status: 403 });
  const viewer = await requireViewer(request, context);
  const order = await creditDeliveryOf(context.db, viewer.id, params.number, new Date());
  if (!order) throw data(null, { status: 404 });
  const form = Object.fromEntries(await readForm(request));
  if (form.intent === "cancel") {
    // The credit goes back and the units are on sale again at once (endUnpaidOrder).
    await cancelCheckout(context.db, context.payments, order.orderId);
    throw redirect("/cart?canceled=true");
  }
  // Given already (a second tab, a double click): the order's page says it is paid.
  if (order.state === "paid") throw redirect(orderPage(order.orderNumber));
  if (order.state === "ended") return data({ ended: ENDED }, { status: 409 });
  const parsed = creditDeliverySchema(order).safeParse(form);
  if (!parsed.success) return data({ fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  const sessionId = await payCreditDelivery(context.db, order, parsed.data, webhookDepsFrom(context));
  if (!sessionId) return data({ ended: ENDED }, { status: 409 });
  await saveCheckoutAddresses(context.db, viewer.id, { form, typed: parsed.data, delivery: order.delivery, business: order.businessCountry !== null });
  // The confirmation and the seller's notice leave now, not at the mail worker's next round.
  context.kickMail();
  throw redirect(`/merci?success=true&session_id=${encodeURIComponent(sessionId)}`);
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches, params }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Adresse de livraison | ${root.shop.name}`, description: "L'adresse de livraison de votre commande payée par avoir.", path: `/account/orders/${encodeURIComponent(params.number)}/livraison`, noindex: true });
};

export default function CreditDeliveryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { proposals, order, lines, shippingCents, insuranceCents, discountCents } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const schema = useMemo(() => creditDeliverySchema(order), [order]);
  const form = useFormValidation(schema, actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined);
  const ended = order.state !== "open" ? ENDED : actionData && "ended" in actionData ? actionData.ended : null;

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight">Adresse de livraison</h1>
          <p className="mt-1 text-sm text-muted-foreground">Commande {order.orderNumber}</p>

          {ended ? (
            <Alert tone="error" title={ended.title} className="mt-6">
              {ended.description}{" "}
              <Link to="/cart" className="font-semibold text-accent underline">
                Retour au panier
              </Link>
            </Alert>
          ) : (
            <>
              <Alert tone="info" title="Paiement par votre avoir" className="mt-6">
                Votre avoir couvre toute la commande : aucun paiement par carte. Indiquez où livrer le colis pour la confirmer
                {order.reservedUntil ? ` (articles réservés jusqu'à ${formatParisTime(order.reservedUntil)} ; sans adresse d'ici là, la commande s'annule et votre avoir vous est rendu)` : ""}.
              </Alert>
              <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="mt-6 flex flex-col gap-8" aria-label="Adresse de livraison">
                <DeliveryAddressFields delivery={order.delivery} errors={form.errors} proposals={proposals} />
                <BillingAddressFields relay={false} country={order.delivery.country} businessCountry={order.businessCountry} errors={form.errors} proposals={proposals.billing} />
                <CgvAcceptance />
                {/* L221-14: the button says that ordering means paying; long, so it may wrap on phones. */}
                <Button type="submit" name="intent" value="confirm" size="lg" disabled={busy} className="h-auto min-h-12 py-3 text-center whitespace-normal">
                  <Lock aria-hidden="true" /> {busy ? "Confirmation en cours..." : creditOrderButtonLabel(order.totalCents)}
                </Button>
              </Form>
              <Form method="post" className="mt-3">
                <Button type="submit" name="intent" value="cancel" variant="ghost" className="w-full" disabled={busy}>
                  Annuler et revenir au panier
                </Button>
              </Form>
            </>
          )}
        </div>

        <aside aria-labelledby="summary-title" className="order-first h-fit rounded-2xl border border-border bg-card p-5 lg:order-none lg:sticky lg:top-24">
          <h2 id="summary-title" className="text-lg font-bold">
            Récapitulatif
          </h2>
          <ul className="mt-4 flex flex-col gap-3 text-sm">
            {lines.map((line, index) => (
              <li key={index} className="flex justify-between gap-3">
                <span>
                  {line.name} <span className="text-muted-foreground">× {line.quantity}</span>
                </span>
                <span className="tabular shrink-0">{formatEuros(line.lineTotalCents)}</span>
              </li>
            ))}
            {insuranceCents > 0 ? <SummaryRow label={SIGNATURE_DELIVERY_LABEL} cents={insuranceCents} /> : null}
            {discountCents > 0 ? <SummaryRow label="Réduction" cents={-discountCents} /> : null}
            <SummaryRow label={`Livraison (${order.delivery.name})`} cents={shippingCents} />
          </ul>
          <div className="mt-4 flex items-baseline justify-between border-t border-border pt-4">
            <span className="font-semibold">Total</span>
            <span className="tabular text-xl font-extrabold">{formatEuros(order.totalCents)}</span>
          </div>
          <p className="mt-2 flex items-center justify-between gap-3 text-sm">
            <span className="flex items-center gap-2">
              <Wallet className="size-4" aria-hidden="true" /> {STORE_CREDIT_PAID_LABEL}
            </span>
            <span className="tabular font-semibold">{formatEuros(order.totalCents)}</span>
          </p>
        </aside>
      </div>
    </div>
  );
}

function SummaryRow({ label, cents }: { label: string; cents: number }) {
  return (
    <li className="flex justify-between gap-3">
      <span>{label}</span>
      <span className="tabular shrink-0">{cents < 0 ? `−${formatEuros(-cents)}` : formatEuros(cents)}</span>
    </li>
  );
}
