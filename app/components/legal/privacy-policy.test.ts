import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SESSION_MAX_AGE_SECONDS } from "~/domain/browser-storage";
import { ADMISSION_COOKIE_PREFIX, TICKET_COOKIE_PREFIX } from "~/domain/drop-cookies";
import { COLLECTOR_COOKIE } from "~/domain/drop-identity";
import { duration, durationOfMs, privacyNotice } from "~/domain/privacy-notice";
import { RETENTION } from "~/domain/retention";
import { EMPTY_IDENTITY } from "~/domain/shop-identity";
import { ALERT_CONSENT_TEXT } from "~/domain/stock-alert-consent";
import { LegalFactsProvider } from "./identity";
import { PrivacyPolicy } from "./privacy-policy";

/** The notice as the page renders it, its text as read (tags out, entities back). */
function renderedNotice(): string {
  const facts = { identity: EMPTY_IDENTITY, shopName: "Comptoir", siteUrl: "https://boutique.test", paymentProvider: "test" };
  const html = renderToString(createElement(LegalFactsProvider, { facts, children: createElement(PrivacyPolicy, { notice: privacyNotice() }) }));
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** Each period of the retention job, as the notice must state it. */
const PERIODS: Record<keyof typeof RETENTION, string> = {
  outboxBodyDays: `${duration(RETENTION.outboxBodyDays, "jour")} après l'envoi`,
  closedBuybackPhotoMonths: `${duration(RETENTION.closedBuybackPhotoMonths, "mois")} après son dernier changement`,
  expiredRowsGraceDays: `effacés sous ${duration(RETENTION.expiredRowsGraceDays, "jour")}`,
  orderNetworkDays: `${duration(RETENTION.orderNetworkDays, "jour")} après la commande ou l'entrée dans la file`,
  inboxRequestYears: `${duration(RETENTION.inboxRequestYears, "an")} à compter du dernier échange, puis anonymisées`,
  inactiveAccountYears: `après ${duration(RETENTION.inactiveAccountYears, "an")} sans connexion`,
  inactiveAccountWarningDays: `un e-mail vous prévient ${duration(RETENTION.inactiveAccountWarningDays, "jour")} avant`,
  orderContactMonths: `${duration(RETENTION.orderContactMonths, "mois")} après l'expédition de la commande`,
  outboxTraceYears: `destinataire, type et date de l'envoi\u00a0: ${duration(RETENTION.outboxTraceYears, "an")}`,
  purchaseRegisterYears: `${duration(RETENTION.purchaseRegisterYears, "an")} à compter de chaque inscription au registre`,
  stockAlertClosedDays: `jusqu'à l'envoi de l'alerte ou votre désinscription, puis ${duration(RETENTION.stockAlertClosedDays, "jour")}`,
};

describe("privacy notice", () => {
  it("states every period of the retention job, from its constants", () => {
    const text = renderedNotice();
    for (const [key, period] of Object.entries(PERIODS)) expect(text, key).toContain(period);
  });

  it("follows the constants: another period is another text", () => {
    const before = privacyNotice().processing.map((row) => row.kept).join(" ");
    const original = RETENTION.inactiveAccountYears;
    (RETENTION as { inactiveAccountYears: number }).inactiveAccountYears = original + 2;
    try {
      const after = privacyNotice().processing.map((row) => row.kept).join(" ");
      expect(after).toContain(`après ${duration(original + 2, "an")} sans connexion`);
      expect(after).not.toBe(before);
    } finally {
      (RETENTION as { inactiveAccountYears: number }).inactiveAccountYears = original;
    }
  });

  it("lists the cookies and browser storage, the drops' and the alert consent included", () => {
    const text = renderedNotice();
    for (const name of [
      "better-auth.session_token",
      "better-auth.two_factor",
      "comptoir_viewer",
      "comptoir_receipt",
      `${TICKET_COOKIE_PREFIX}N`,
      `${ADMISSION_COOKIE_PREFIX}N`,
      COLLECTOR_COOKIE,
      "cart",
      "cart-delivery",
      "cart-discount-code",
      "theme",
      "comptoir.pending-checkout",
      "comptoir.dismissed-messages",
      "comptoir_viewer_checked",
      "react-router-scroll-positions",
    ]) {
      expect(text, name).toContain(`${name} `);
    }
    expect(text).toContain(`${durationOfMs(SESSION_MAX_AGE_SECONDS * 1000)} au plus, supprimé à la déconnexion`);
    expect(text).toContain(ALERT_CONSENT_TEXT);
    expect(text).toContain("lien de désinscription");
    // The old sentence the 90-day purge contradicted is gone.
    expect(text).not.toContain("aussi longtemps que la commande");
  });

  it("writes periods in French", () => {
    expect([duration(1, "an"), duration(3, "an"), duration(25, "mois"), duration(1, "heure"), duration(90, "jour")]).toEqual(["1\u00a0an", "3\u00a0ans", "25\u00a0mois", "1\u00a0heure", "90\u00a0jours"]);
    expect([durationOfMs(2 * 3_600_000), durationOfMs(90 * 86_400_000), durationOfMs(10 * 60_000)]).toEqual(["2\u00a0heures", "90\u00a0jours", "10\u00a0minutes"]);
  });
});
