import { Printer } from "lucide-react";
import { useSyncExternalStore } from "react";
import { Button } from "~/components/ui/button";
import { ServerMarkup } from "~/components/ui/server-markup";
import { legalPageDate } from "~/domain/shop-identity";
import { formatParisDate } from "~/domain/paris-time";
import { privacyNotice } from "~/domain/privacy-notice";
import { publicPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import { getShopIdentity } from "~/services/shop-identity.server";
import { getBusinessSalesSettings } from "~/services/business-sales-settings.server";
import { renderLegalSections } from "~/services/legal-page.server";
import { storeCreditValidityMonths } from "~/services/store-credit-grants.server";
import type { Route } from "./+types/legal";

export async function loader({ context }: Route.LoaderArgs) {
  const [{ identity, updatedAt }, { sellToBusinesses }, creditValidity] = await Promise.all([
    getShopIdentity(context.db, context.shop.legal),
    getBusinessSalesSettings(context.db),
    storeCreditValidityMonths(context.db),
  ]);
  const revisedAt = legalPageDate(updatedAt).toISOString();
  const facts = { identity, shopName: context.shop.name, siteUrl: context.publicUrl, paymentProvider: context.payments.name, sellToBusinesses, storeCreditValidityMonths: creditValidity };
  return { revisedAt, sectionsHtml: renderLegalSections(facts, privacyNotice(), formatParisDate(revisedAt)) };
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
  const { revisedAt, sectionsHtml } = loaderData;
  const date = formatParisDate(revisedAt);
  return (
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
      <ServerMarkup html={sectionsHtml} />
    </div>
  );
}
