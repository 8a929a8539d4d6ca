import { TicketPercent } from "lucide-react";
import { formatParisMoment } from "~/domain/site-content-display";
import type { PublicBanners } from "~/services/site-content.server";

type ActivePromotion = NonNullable<PublicBanners["promotion"]>;

/** The seller's promotion, as a band across the page. Its texts are the seller's, shown as text. */
export function PromotionBanner({ promotion }: { promotion: ActivePromotion }) {
  return (
    <section aria-label="Promotion en cours" className="border-b border-primary/40 bg-primary text-primary-foreground">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-3 gap-y-0.5 px-4 py-2 text-center text-sm sm:px-6 sm:py-2.5">
        <TicketPercent className="hidden size-5 shrink-0 sm:block" aria-hidden="true" />
        <p className="font-semibold">{promotion.message}</p>
        {promotion.code ? (
          <p>
            avec le code{" "}
            <strong className="rounded-md bg-background px-2 py-0.5 font-mono tracking-wider text-foreground">{promotion.code}</strong>
          </p>
        ) : null}
        {promotion.expiresAt ? <p className="text-xs sm:text-sm">jusqu'au {formatParisMoment(new Date(promotion.expiresAt))}</p> : null}
      </div>
    </section>
  );
}
