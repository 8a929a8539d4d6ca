import { ArrowLeft, ShoppingBag, Trash2 } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from "react";
import { data, Link, useLoaderData, useLocation, useNavigate, useRouteLoaderData } from "react-router";
import { refreshCartAndAnnounce } from "~/components/cart/cart-notices";
import { CartLines } from "~/components/cart/cart-lines";
import { BuyerEmailField } from "~/components/cart/buyer-email-field";
import { DeliveryChoice } from "~/components/cart/delivery-choice";
import { OrderSummaryCard } from "~/components/cart/order-summary-card";
import { useDeliveryQuotes } from "~/components/cart/use-delivery";
import { useCheckout } from "~/components/cart/use-checkout";
import { useDiscountPreview } from "~/components/cart/use-discount-preview";
import { Button, buttonVariants } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { toast } from "~/components/ui/toaster";
import { cartCount } from "~/domain/cart";
import { type DiscountPreview, discountPreviewSchema } from "~/domain/discounts";
import { chooseSignatureDelivery, clearCart, useCart } from "~/lib/cart-store";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { focusIsLost } from "~/lib/restore-focus";
import { pageMeta, seoRoot } from "~/lib/seo";
import { previewDiscount } from "~/services/discounts.server";
import { getViewer } from "~/services/session.server";
import { activeShippingMethods } from "~/services/shipping.server";
import { isSignatureDeliveryEnabled } from "~/services/signature-delivery-setting.server";
import { mixedCartShippingNotice } from "~/services/preorder-shipping-setting.server";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/cart";
import { readJson } from "~/lib/request-input.server";
import { getBusinessSalesSettings } from "~/services/business-sales-settings.server";
import { savedBusinessForCart } from "~/services/business-buyers.server";
import { harmonisedNoticeHtml } from "~/services/legal-page.server";
import { storeCreditOfViewer } from "~/services/store-credit-orders.server";
import { listCustomerAddresses, relayPointsOf } from "~/services/customer-addresses.server";

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

/**
 * The seller's delivery methods (the cart prices them with the server's rule, domain/shipping.ts)
 * and whether "Remise contre signature" is offered (/admin/shipping).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const [shippingMethods, signatureEnabled, { sellToBusinesses, intraEuExemption }, viewer, mixedCartShipping] = await Promise.all([
    activeShippingMethods(context.db),
    isSignatureDeliveryEnabled(context.db),
    getBusinessSalesSettings(context.db),
    getViewer(request, context),
    mixedCartShippingNotice(context.db),
  ]);
  // "Achat professionnel" (issue 53): offered while the seller sells to professionals, from the account's company or the last one.
  const savedBusiness = sellToBusinesses && viewer ? await savedBusinessForCart(context.db, viewer.id) : null;
  // « Mon avoir » (issue 54): shown to a signed-in customer with a balance and a verified e-mail.
  const storeCredit = viewer ? await storeCreditOfViewer(context.db, viewer.id) : null;
  // The address book's relay points (issue 56): the default fills the relay point's fields.
  const savedRelayPoints = viewer ? relayPointsOf(await listCustomerAddresses(context.db, viewer.id, "relay")) : [];
  return { savedRelayPoints, shippingMethods, signatureEnabled, sellToBusinesses, intraEuExemption, savedBusiness, storeCredit, mixedCartShipping, guaranteeNoticeHtml: harmonisedNoticeHtml() };
}

/**
 * The code field's "Appliquer" (and every change of the cart while a code is applied): what the
 * code takes off this cart, computed here from today's prices, or why it does not apply.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const body = await readJson(request);
  const parsed = discountPreviewSchema.safeParse(body);
  if (!parsed.success) {
    const typed = (body as { code?: unknown } | null)?.code;
    const error = parsed.error.issues.find((issue) => issue.path[0] === "code")?.message ?? "Votre panier est illisible. Actualisez la page et réessayez.";
    return data<DiscountPreview>({ ok: false, code: typeof typed === "string" ? typed.trim() : "", error }, { status: 400 });
  }
  const viewer = await getViewer(request, context);
  const answer = await previewDiscount(context.db, parsed.data, {
    now: new Date(),
    customer: viewer ? { userId: viewer.id, email: viewer.email } : null,
    clientIp: context.clientIp,
  });
  return data<DiscountPreview>(answer.body, { status: answer.status });
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Panier | ${root.shop.name}`, description: "Votre panier.", path: "/cart", noindex: true });
};

// "Achat professionnel" in its own chunk: a consumer's cart does not load it first (its JS budget).
const BusinessPurchaseChoice = lazy(() => import("~/components/cart/business-purchase-choice"));
// Only a signed-in customer with credit sees it: its code stays out of the cart's first load.
const StoreCreditField = lazy(() => import("~/components/cart/store-credit-field").then((module) => ({ default: module.StoreCreditField })));

const hydrated = { subscribe: () => () => {}, client: () => true, server: () => false };

export default function CartPage() {
  const cart = useCart();
  // The cart lives in this browser: the server renders a placeholder, the browser fills it.
  const ready = useSyncExternalStore(hydrated.subscribe, hydrated.client, hydrated.server);
  const provider = useRouteLoaderData<typeof rootLoader>("root")?.paymentProvider ?? "test";
  const checkout = useCheckout(provider);
  const discount = useDiscountPreview(cart);
  const { savedRelayPoints, shippingMethods, signatureEnabled, sellToBusinesses, intraEuExemption, savedBusiness, storeCredit, mixedCartShipping, guaranteeNoticeHtml } = useLoaderData<typeof loader>();
  const delivery = useDeliveryQuotes(cart, shippingMethods, discount.line?.figures?.discountCents ?? 0);
  const location = useLocation();
  const navigate = useNavigate();
  const title = useRef<HTMLHeadingElement>(null);
  const refreshed = useRef(false);
  const announcedCancel = useRef<string | null>(null);

  // SPEC.md: ?canceled=… says the payment was cancelled, then leaves the address (replaced,
  // no reload). The units reserved for it are back on sale: the refresh below sees them.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has("canceled") || announcedCancel.current === location.key) return;
    announcedCancel.current = location.key;
    // Puts the units back on sale now (Stripe's session would otherwise hold them until it expires).
    const orderId = params.get("order");
    if (orderId) {
      void fetch("/api/checkout/cancel", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ orderId }) })
        .catch(() => {})
        .then(() => refreshCartAndAnnounce());
    }
    toast.info("Paiement annulé", { description: "Votre paiement a été annulé. Vous pouvez réessayer à tout moment." });
    void navigate({ pathname: "/cart", hash: location.hash }, { replace: true, preventScrollReset: true });
  }, [location.search, location.key, location.hash, navigate]);

  // The seller turned the option off since this browser chose it: the server would refuse it.
  const staleSignature = ready && !signatureEnabled && cart.insuranceSelected;
  useEffect(() => {
    if (staleSignature) chooseSignatureDelivery(false);
  }, [staleSignature]);

  // Prices, stock and visibility as they are now; a toast says what changed.
  useEffect(() => {
    if (refreshed.current) return;
    refreshed.current = true;
    void refreshCartAndAnnounce();
  }, []);

  function back() {
    // React Router numbers this tab's entries: 0 is where the visitor entered the shop.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate("/catalog");
  }

  function empty() {
    clearCart();
    requestAnimationFrame(() => title.current?.focus());
  }

  // The cart emptied under the customer (a checkout found its last product gone): the button
  // they pressed is gone with it, so focus goes to the title instead of the page's body.
  const hadItems = useRef(false);
  const itemCount = cart.items.length;
  useEffect(() => {
    if (!ready) return;
    if (itemCount === 0 && hadItems.current && focusIsLost()) title.current?.focus();
    hadItems.current = itemCount > 0;
  }, [ready, itemCount]);

  const count = cartCount(cart);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Button type="button" variant="ghost" onClick={back} className="-ml-3">
        <ArrowLeft aria-hidden="true" /> Retour
      </Button>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-3">
        <h1 ref={title} tabIndex={-1} className="text-3xl font-extrabold tracking-tight outline-none">
          Votre panier
        </h1>
        {ready && count > 0 ? (
          <p className="text-sm text-muted-foreground">
            {count} article{count > 1 ? "s" : ""}
          </p>
        ) : null}
      </div>

      {!ready ? (
        <div role="status" className="mt-6 grid gap-6 lg:grid-cols-[1fr_22rem]" aria-busy="true" aria-label="Chargement du panier">
          <Skeleton className="h-[8.5rem] rounded-2xl" />
          <Skeleton className="h-80 rounded-2xl" />
        </div>
      ) : cart.items.length === 0 ? (
        <div className="mt-6 flex flex-col items-center gap-4 rounded-2xl border border-dashed border-border px-6 py-16 text-center">
          <ShoppingBag className="size-12 text-muted-foreground" aria-hidden="true" />
          <p className="text-xl font-semibold">Votre panier est vide</p>
          <p className="max-w-sm text-sm text-muted-foreground">Parcourez notre collection et ajoutez vos cartes et produits préférés.</p>
          <Link to="/catalog" className={buttonVariants({ size: "lg" })}>
            Découvrir le catalogue
          </Link>
        </div>
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_22rem]">
          <div className="flex flex-col gap-3">
            <CartLines items={cart.items} disabled={checkout.busy} afterLastRemoved={() => title.current?.focus()} />
            {cart.items.some((line) => line.product.preorder) && cart.items.some((line) => !line.product.preorder) ? (
              <p className="rounded-2xl border border-border bg-card p-4 text-sm" data-testid="mixed-cart-shipping">
                {mixedCartShipping}
              </p>
            ) : null}
            <div className="flex justify-end">
              <Button type="button" variant="outline" onClick={empty} disabled={checkout.busy}>
                <Trash2 aria-hidden="true" /> Vider le panier
              </Button>
            </div>
            <DeliveryChoice delivery={delivery} disabled={checkout.busy} savedRelayPoints={savedRelayPoints} />
            {sellToBusinesses ? (
              <Suspense fallback={null}>
                <BusinessPurchaseChoice saved={savedBusiness} deliveryCountry={delivery.stored.country} intraEuExemption={intraEuExemption} disabled={checkout.busy} />
              </Suspense>
            ) : null}
            <BuyerEmailField disabled={checkout.busy} />
            {storeCredit ? (
              <Suspense fallback={null}>
                <StoreCreditField balanceCents={storeCredit.balanceCents} disabled={checkout.busy} />
              </Suspense>
            ) : null}
            {/* Rendered by the server (decision 058); its one link leaves the shop, so no in-app navigation to keep. */}
            <div dangerouslySetInnerHTML={{ __html: guaranteeNoticeHtml }} />
          </div>
          <OrderSummaryCard cart={cart} checkout={checkout} provider={provider} discount={discount} delivery={delivery} signatureEnabled={signatureEnabled} />
        </div>
      )}
    </div>
  );
}
