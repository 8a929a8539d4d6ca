import { Hourglass, PartyPopper, Users } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { StockAlertForm } from "./stock-alert-form-lazy";
import { formatParisTime } from "~/domain/paris-time";
import { FAILURES_SHOWN, nextLookDelay, QUEUE_POLL_MS, type QueueFigures, type QueueView } from "~/domain/waiting-room";
import { useCatalogChanges } from "~/lib/live-events";

// Asked for only by a fair start's join without a collector: a chunk of its own (with zod).
const DropCollectorForm = lazy(() => import("./drop-collector-form").then((module) => ({ default: module.DropCollectorForm })));

/**
 * A drop's waiting room on its product page (issue 39): join the line (free, nothing held), see
 * one's place and the live figures "disponibles · en cours de paiement · vendus", and when the
 * turn comes, the add-to-cart controls (`children`) with the time left to order. The page asks
 * every 2 s while in line, whatever became of the last request (issue 50: one lost answer froze
 * a page for good), backing off while the connection fails and saying so; the live channel's
 * news of this product makes it look at once.
 */
export function DropWaitingRoom({ productId, children }: { productId: number; children: ReactNode }) {
  const [view, setView] = useState<QueueView | null>(null);
  const [failures, setFailures] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  /** What a fair start's join asked for first: a mailbox confirmed by code, or an account. */
  const [needs, setNeeds] = useState<"email" | "account" | null>(null);
  const endpoint = `/api/drops/${productId}/file`;
  const lookSoon = useRef<(delay: number) => void>(() => {});

  useEffect(() => {
    let timer: number | undefined;
    let stopped = false;
    let last: QueueView | null = null;
    let failed = 0;
    async function look() {
      window.clearTimeout(timer);
      try {
        const response = await fetch(endpoint, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        last = (await response.json()) as QueueView;
        failed = 0;
        if (!stopped) setView(last);
      } catch {
        failed += 1;
      }
      if (stopped) return;
      setFailures(failed);
      schedule(nextLookDelay(last, failed, Math.random()));
    }
    function schedule(delay: number | null) {
      window.clearTimeout(timer);
      if (delay !== null && !stopped) timer = window.setTimeout(() => void look(), delay);
    }
    lookSoon.current = (delay) => {
      if (last?.state !== "sold_out") schedule(delay);
    };
    schedule(0);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [endpoint]);

  // A stock or status change of this product (a unit back, sold out, the opening), or news
  // possibly missed: look within a second rather than at the next round (spread over that
  // second: every page in line hears each sale).
  useCatalogChanges((change) => {
    if (change.op === "resync" || ("id" in change && change.id === productId)) lookSoon.current(Math.floor(Math.random() * 1_000));
  });

  async function join() {
    setBusy(true);
    setFailure(null);
    try {
      const response = await fetch(endpoint, { method: "POST", headers: { Accept: "application/json" } });
      const body = (await response.json().catch(() => null)) as (QueueView & { error?: string; needs?: "email" | "account" }) | null;
      if (response.status === 401 && body?.needs) {
        setNeeds(body.needs);
        if (body.needs === "account") setFailure(body.error ?? null);
      } else if (response.ok && body) {
        setNeeds(null);
        setView(body);
        // In line now: the next look at the line's pace, not the idle page's.
        lookSoon.current(nextLookDelay(body, 0, 0) ?? QUEUE_POLL_MS);
      } else setFailure(body?.error ?? "Impossible de rejoindre la file d'attente pour le moment. Réessayez dans un instant.");
    } catch {
      setFailure("Impossible de rejoindre la file d'attente pour le moment. Réessayez dans un instant.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="waiting-room-title" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4" data-testid="waiting-room">
      <h2 id="waiting-room-title" className="flex items-center gap-2 text-lg font-bold">
        <Users className="size-5" aria-hidden="true" /> File d'attente
      </h2>
      <div role="status" className="flex flex-col gap-2">
        {view === null ? <p className="text-sm text-muted-foreground">Chargement de la file d'attente…</p> : <RoomState view={view} />}
        {failures >= FAILURES_SHOWN ? <p className="text-sm font-medium text-destructive">Connexion perdue, nouvelle tentative…</p> : null}
        {failure ? <p className="text-sm font-medium text-destructive">{failure}</p> : null}
      </div>
      {view?.state === "open" && needs === "email" ? (
        <Suspense fallback={null}>
          <DropCollectorForm productId={productId} onConfirmed={() => void join()} />
        </Suspense>
      ) : view?.state === "open" && needs === "account" ? (
        <Link to="/login" className={buttonVariants({ size: "lg" })}>
          Se connecter
        </Link>
      ) : view?.state === "open" ? (
        <Button type="button" size="lg" onClick={() => void join()} disabled={busy}>
          {busy ? "Un instant…" : "Rejoindre la file d'attente"}
        </Button>
      ) : null}
      {view?.state === "admitted" ? (
        <>
          {children}
          <Link to="/cart" className={buttonVariants({ variant: "outline" })}>
            Aller au panier
          </Link>
        </>
      ) : null}
      {view ? <Figures figures={view.figures} /> : null}
      {view?.state === "sold_out" ? <StockAlertForm productId={productId} /> : null}
    </section>
  );
}

function RoomState({ view }: { view: QueueView }) {
  switch (view.state) {
    case "closed":
      return <p className="text-sm">La file d'attente ouvre à {formatParisTime(view.opensAt)}. Entrer est gratuit et ne réserve rien.</p>;
    case "open":
      return <p className="text-sm">Rejoignez la file : chacun passe à son tour, au rythme des unités libres. Entrer est gratuit et ne réserve rien.</p>;
    case "waiting":
      return (
        <p className="flex items-center gap-2 text-base font-semibold">
          <Hourglass className="size-5 shrink-0" aria-hidden="true" />
          Votre place : {view.position}. Restez sur cette page, elle s'actualise d'elle-même.
        </p>
      );
    case "admitted":
      return (
        <p className="flex items-center gap-2 text-base font-semibold text-success">
          <PartyPopper className="size-5 shrink-0" aria-hidden="true" />
          C'est votre tour ! Ajoutez-le au panier et passez commande avant {formatParisTime(view.expiresAt)}.
        </p>
      );
    case "sold_out":
      return <p className="text-base font-semibold text-destructive">Épuisé : toutes les unités de cette sortie ont été vendues.</p>;
  }
}

function Figures({ figures }: { figures: QueueFigures }) {
  return (
    <p className="text-sm text-muted-foreground" data-testid="queue-figures">
      <strong className="text-foreground">{figures.available}</strong> disponibles · <strong className="text-foreground">{figures.held}</strong> en cours de paiement ·{" "}
      <strong className="text-foreground">{figures.sold}</strong> vendus
    </p>
  );
}
