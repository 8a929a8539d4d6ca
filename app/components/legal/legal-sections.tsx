import type { PrivacyNotice } from "~/domain/privacy-notice";
import { AccessibilityStatement } from "./accessibility-statement";
import { type LegalFacts, LegalFactsProvider } from "./identity";
import { LegalNotice } from "./legal-notice";
import { LegalToc } from "./outline";
import { PrivacyPolicy } from "./privacy-policy";
import { TermsOfSale } from "./terms-of-sale";

/** /legal's outline and texts: static, rendered on the server (services/legal-page.server.ts). */
export function LegalSections({ facts, privacy, date }: { facts: LegalFacts; privacy: PrivacyNotice; date: string }) {
  return (
    <LegalFactsProvider facts={facts}>
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
    </LegalFactsProvider>
  );
}
