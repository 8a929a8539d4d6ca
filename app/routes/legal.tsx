import { Printer } from "lucide-react";
import { useSyncExternalStore } from "react";
import { AccessibilityStatement } from "~/components/legal/accessibility-statement";
import { LegalFactsProvider } from "~/components/legal/identity";
import { LegalNotice } from "~/components/legal/legal-notice";
import { LegalToc } from "~/components/legal/outline";
import { PrivacyPolicy } from "~/components/legal/privacy-policy";
import { TermsOfSale } from "~/components/legal/terms-of-sale";
import { Button } from "~/components/ui/button";
import { legalPageDate } from "~/domain/shop-identity";
import { formatParisDate } from "~/domain/paris-time";
import { privacyNotice } from "~/domain/privacy-notice";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { getShopIdentity } from "~/services/shop-identity.server";
import { getBusinessSalesSettings } from "~/services/business-sales-settings.server";
import { storeCreditValidityMonths } from "~/services/store-credit-grants.server";
import type { Route } from "./+types/legal";

export async function loader({ context }: Route.LoaderArgs) {
  const [{ identity, updatedAt }, { sellToBusinesses }, creditValidity] = await Promise.all([
    getShopIdentity(context.db, context.shop.legal),
    getBusinessSalesSettings(context.db),
    storeCreditValidityMonths(context.db),
  ]);
  return {
    identity,
    sellToBusinesses,
    storeCreditValidityMonths: creditValidity,
    revisedAt: legalPageDate(updatedAt).toISOString(),
    shopName: context.shop.name,
    siteUrl: context.publicUrl,
    paymentProvider: context.payments.name,
    privacy: privacyNotice(),
  };
}

// The same for everyone: the page cache may share it (purged when the identity is saved).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, {
    title: `Mentions légales, CGV et confidentialité | ${root.shop.name}`,
    description: `Mentions légales, conditions générales de vente (prix, livraison, rétractation de 14 jours, garanties légales), politique de confidentialité et accessibilité de ${root.shop.name}.`,
    path: "/legal",
  });
};

const noSubscription = () => () => {};

/** Printing or saving as PDF keeps the terms on a durable medium; the button needs JavaScript, so it waits for it. */
function PrintButton() {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!hydrated) return null;
  return (
    <Button type="button" variant="outline" onClick={() => window.print()} className="print:hidden">
      <Printer aria-hidden="true" /> Imprimer ou enregistrer en PDF
    </Button>
  );
}

export default function Legal({ loaderData }: Route.ComponentProps) {
  const { identity, revisedAt, shopName, siteUrl, paymentProvider, sellToBusinesses, storeCreditValidityMonths, privacy } = loaderData;
  const date = formatParisDate(revisedAt);
  return (
    <LegalFactsProvider facts={{ identity, shopName, siteUrl, paymentProvider, sellToBusinesses, storeCreditValidityMonths }}>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:py-14">
        <header className="max-w-[70ch]">
          <p className="text-sm font-semibold uppercase tracking-widest text-accent">Informations légales</p>
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Mentions légales, CGV et confidentialité</h1>
          <p className="mt-3 text-muted-foreground">
            Qui vend, à quelles conditions, ce que deviennent vos données et où en est l'accessibilité du site. Dernière mise à jour&nbsp;:{" "}
            <time dateTime={revisedAt} className="whitespace-nowrap">
              {date}
            </time>.
          </p>
          <div className="mt-5">
            <PrintButton />
          </div>
        </header>
        <div className="mt-10 grid gap-10 lg:grid-cols-[17rem_minmax(0,1fr)] lg:gap-14 print:block">
          <div className="print:hidden lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:self-start lg:overflow-y-auto">
            <LegalToc />
          </div>
          <div className="flex min-w-0 flex-col gap-12">
            <LegalNotice />
            <TermsOfSale />
            <PrivacyPolicy notice={privacy} />
            <AccessibilityStatement date={date} />
          </div>
        </div>
      </div>
    </LegalFactsProvider>
  );
}
