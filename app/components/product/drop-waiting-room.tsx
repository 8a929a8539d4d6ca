import { Hourglass, PartyPopper, Users } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { StockAlertForm } from "./stock-alert-form-lazy";
import { formatParisTime } from "~/domain/paris-time";
import { QUEUE_POLL_MS, type QueueFigures, type QueueView } from "~/domain/waiting-room";

/** Between two looks at a room the buyer is not in (its figures, its opening). */
const IDLE_POLL_MS = 10_000;

/**
 * A drop's waiting room on its product page (issue 39): join the line (free, nothing held), see
 * one's place and the live figures "disponibles · en cours de paiement · vendus", and when the
 * turn comes, the add-to-cart controls (`children`) with the time left to order. The page asks
 * every 2 s while in line; sold out shows within that.
 */
export function DropWaitingRoom({ productId, children }: { productId: number; children: ReactNode }) {
  const [view, setView] = useState<QueueView | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const endpoint = `/api/drops/${productId}/file`;

  const look = useCallback(async () => {
    try {
      const response = await fetch(endpoint, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.ok) setView((await response.json()) as QueueView);
    } catch {
      // Offline for a moment: the next look tells.
    }
  }, [endpoint]);

  useEffect(() => {
    if (view?.state === "sold_out") return;
    const delay = view === null ? 0 : view.state === "waiting" || view.state === "admitted" ? QUEUE_POLL_MS : IDLE_POLL_MS;
    const timer = window.setTimeout(() => void look(), delay);
    return () => window.clearTimeout(timer);
  }, [view, look]);

  async function join() {
    setBusy(true);
    setFailure(null);
    try {
      const response = await fetch(endpoint, { method: "POST", headers: { Accept: "application/json" } });
      const body = (await response.json().catch(() => null)) as (QueueView & { error?: string }) | null;
      if (response.ok && body) setView(body);
      else setFailure(body?.error ?? "Impossible de rejoindre la file d'attente pour le moment. Réessayez dans un instant.");
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
        {failure ? <p className="text-sm font-medium text-destructive">{failure}</p> : null}
      </div>
      {view?.state === "open" ? (
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
