import { CheckCircle2, CircleAlert, Clock, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Link, redirect } from "react-router";
import { OrderStatusBadge, OrderSummary } from "~/components/orders/order-summary";
import { type OrderOutcome, orderOutcome } from "~/domain/order-outcome";
import { formatParisDateTime } from "~/domain/paris-time";
import { buttonVariants } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { clearCart } from "~/lib/cart-store";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useIdleRevalidate } from "~/lib/use-idle-revalidate";
import { receiptAllows } from "~/lib/receipt-cookie.server";
import { findOrderOfPaymentSession, getOrderView } from "~/services/orders.server";
import { getViewer } from "~/services/session.server";
import type { Route } from "./+types/merci";

/**
 * /merci?success=true&session_id=…: the order, read from the server by its payment session,
 * shown whole only to the browser that started its checkout (for 2 hours) or to its signed-in
 * owner; anyone else holding the address gets a thank-you without personal data.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const sessionId = params.get("session_id");
  if (!params.get("success") || !sessionId) throw redirect("/");
  const [found, viewer] = await Promise.all([findOrderOfPaymentSession(context.db, sessionId), getViewer(request, context)]);
  const signedIn = viewer !== null;
  if (!found) return data({ order: null, hidden: false, signedIn }, { status: 404 });
  const shown =
    (viewer !== null && found.userId === viewer.id) ||
    receiptAllows(request.headers.get("cookie"), found.id, { secret: context.dropSecret, now: Date.now() });
  if (!shown) return { order: null, hidden: true, signedIn };
  return { order: await getOrderView(context.db, found.id), hidden: false, signedIn };
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Merci pour votre commande | ${root.shop.name}`, description: "Confirmation de votre commande.", path: "/merci", noindex: true });
};

/** SPEC.md section 9: the confirmation delay; then the order is asked for again until it is paid. */
const PROCESSING_MS = 1_500;
const POLL_MS = 2_000;
const POLL_FOR_MS = 120_000;

export default function Merci({ loaderData }: Route.ComponentProps) {
  const { order, hidden, signedIn } = loaderData;
  const [processing, setProcessing] = useState(true);
  const [gaveUp, setGaveUp] = useState(false);
  const reload = useIdleRevalidate();
  const started = useRef<number | null>(null);
  const pending = order?.status === "pending_payment";
  const wasPending = useRef(pending);

  // SPEC.md: a processing state for 1.5 s, then the cart is cleared, confetti, a toast, and the
  // address becomes /merci (replaceState, not a navigation: the order stays on screen).
  useEffect(() => {
    if (!order) return;
    const timer = window.setTimeout(() => {
      setProcessing(false);
      clearCart();
      // What happened, never "confirmée" for an order that is not (issue 50); confetti for a sale only.
      const outcome = orderOutcome(order);
      if (outcome.tone === "success" || outcome.tone === "pending") {
        void celebrate();
        toast.success(outcome.title, { description: outcome.description });
      } else {
        // The title alone: the page explains it in full, and a long toast covered the order on a phone.
        toast.error(outcome.title);
      }
      window.history.replaceState(window.history.state, "", "/merci");
    }, PROCESSING_MS);
    return () => window.clearTimeout(timer);
    // Once per order.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [order?.number]);

  // Until the payment's webhook lands, ask again every 2 s (for 2 minutes at most). The router
  // still knows the address with session_id, so the revalidation reads the same order.
  useEffect(() => {
    if (!pending) return;
    started.current ??= Date.now();
    if (Date.now() - started.current > POLL_FOR_MS) {
      setGaveUp(true);
      return;
    }
    const timer = window.setTimeout(reload, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, reload, order]);

  // The webhook landed while the customer watched: paid, or refused (a drop's limit, too late).
  useEffect(() => {
    if (wasPending.current && order && !pending) {
      const outcome = orderOutcome(order);
      if (outcome.tone === "success") toast.success("Paiement confirmé", { description: outcome.description });
      else toast.error(outcome.title);
    }
    wasPending.current = pending;
    // On a change of status only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [order?.status, pending]);

  if (hidden) return <PrivateThanks signedIn={signedIn} />;

  if (!order) {
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-3xl font-extrabold">Commande introuvable</h1>
        <p className="mt-3 text-muted-foreground">Nous ne trouvons pas de commande pour cette session de paiement.</p>
        <Link to="/" className={buttonVariants({ className: "mt-6" })}>
          Retour à l'accueil
        </Link>
      </div>
    );
  }

  if (processing) {
    return (
      <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center" role="status">
        <Loader2 className="size-10 animate-spin text-primary motion-reduce:animate-none" aria-hidden="true" />
        <p className="text-lg font-semibold">Traitement de votre commande...</p>
      </div>
    );
  }

  const outcome = orderOutcome(order);
  const sold = outcome.tone === "success" || outcome.tone === "pending";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <div className="flex flex-col items-center gap-3 text-center">
        <OutcomeIcon tone={outcome.tone} />
        <h1 className="text-3xl font-extrabold tracking-tight">{sold ? <>Merci pour votre commande&nbsp;!</> : outcome.title}</h1>
        <p className="text-muted-foreground">
          Commande <span className="tabular font-semibold text-foreground">{order.number}</span> du {formatParisDateTime(order.createdAt)}
        </p>
        <div className="flex items-center gap-2" role="status">
          <OrderStatusBadge status={order.status} />
          {pending ? <span className="text-sm text-muted-foreground">Paiement en cours de confirmation…</span> : null}
        </div>
        {pending && gaveUp ? (
          <p className="max-w-md text-sm text-muted-foreground">
            La confirmation prend plus de temps que prévu. Vous recevrez un e-mail dès que votre paiement sera validé
            {signedIn ? "\u00a0; vous pouvez aussi suivre votre commande depuis votre compte." : "."}
          </p>
        ) : null}
        {sold ? null : <p className="max-w-lg text-sm">{outcome.description}</p>}
        {order.customerEmail && !pending ? (
          <p className="text-sm text-muted-foreground">
            {outcome.tone === "success" ? "Un e-mail de confirmation a été envoyé à " : "Un e-mail vous a été envoyé à "}
            <span className="font-semibold text-foreground">{order.customerEmail}</span>.
          </p>
        ) : null}
      </div>
      <div className="mt-8">
        <OrderSummary order={order} />
      </div>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {signedIn ? (
          <Link to="/account" className={buttonVariants({ variant: "secondary" })}>
            Voir mes commandes
          </Link>
        ) : null}
        <Link to="/catalog" className={buttonVariants()}>
          Continuer mes achats
        </Link>
      </div>
    </div>
  );
}

function OutcomeIcon({ tone }: { tone: OrderOutcome["tone"] }) {
  if (tone === "success") return <CheckCircle2 className="size-12 text-success" aria-hidden="true" />;
  if (tone === "pending") return <Clock className="size-12 text-warning" aria-hidden="true" />;
  return <CircleAlert className="size-12 text-destructive" aria-hidden="true" />;
}

/** The thank-you for a browser that did not start this checkout (or after 2 hours): no personal data. */
function PrivateThanks({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-3 px-4 py-20 text-center">
      <CheckCircle2 className="size-12 text-success" aria-hidden="true" />
      <h1 className="text-3xl font-extrabold tracking-tight">Merci pour votre commande&nbsp;!</h1>
      <p className="text-muted-foreground">
        Pour protéger vos données, le détail de la commande ne s'affiche ici que dans le navigateur qui l'a passée, pendant 2 heures.
        Retrouvez-le dans l'e-mail de confirmation{signedIn ? " ou dans votre compte" : ", ou dans votre compte si vous avez commandé en étant connecté"}.
      </p>
      <div className="mt-4 flex flex-wrap justify-center gap-3">
        <Link to="/account" className={buttonVariants({ variant: "secondary" })}>
          {signedIn ? "Voir mes commandes" : "Accéder à mon compte"}
        </Link>
        <Link to="/catalog" className={buttonVariants()}>
          Continuer mes achats
        </Link>
      </div>
    </div>
  );
}

/** Confetti, unless the visitor asked for less motion. */
async function celebrate() {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const { default: confetti } = await import("canvas-confetti");
  // Our own canvas and no worker: the CSP allows no blob: scripts.
  const canvas = document.createElement("canvas");
  canvas.setAttribute("aria-hidden", "true");
  canvas.style.cssText = "position:fixed;inset:0;width:100%;height:100%;pointer-events:none;z-index:60";
  document.body.appendChild(canvas);
  const fire = confetti.create(canvas, { resize: true, useWorker: false });
  await fire({ particleCount: 120, spread: 75, origin: { y: 0.6 }, disableForReducedMotion: true });
  fire.reset();
  canvas.remove();
}
