import { useLocation, useRouteLoaderData } from "react-router";
import { CountdownBanner } from "~/components/promotions/countdown-banner";
import { PromotionBanner } from "~/components/promotions/promotion-banner";
import { countdownShownIn, promotionShownIn, siteAreaOf } from "~/domain/site-content-display";
import type { loader } from "~/root";

/**
 * The promotion and the countdown from the root loader's `banners` (the server decides whether
 * they are active), on the pages their position and location name.
 */
export function SiteBanners() {
  const data = useRouteLoaderData<typeof loader>("root");
  const area = siteAreaOf(useLocation().pathname);
  const promotion = data?.banners.promotion;
  const countdown = data?.banners.countdown;
  const showPromotion = promotion != null && promotionShownIn(promotion.position, area);
  const showCountdown = countdown != null && countdownShownIn(countdown.location, area);
  if (!showPromotion && !showCountdown) return null;
  return (
    <div data-testid="site-banners">
      {showPromotion ? <PromotionBanner promotion={promotion} /> : null}
      {showCountdown ? <CountdownBanner countdown={countdown} /> : null}
    </div>
  );
}
