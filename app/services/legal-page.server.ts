import { createElement } from "react";
import { HarmonisedGuaranteeNotice } from "~/components/legal/harmonised-guarantee-notice";
import { type LegalFacts } from "~/components/legal/identity";
import { LegalSections } from "~/components/legal/legal-sections";
import type { PrivacyNotice } from "~/domain/privacy-notice";
import { renderStaticMarkup } from "./static-markup.server";

/**
 * /legal's outline and texts as HTML: they have nothing interactive, so they are rendered here
 * rather than shipped as JavaScript (the page's bundle was 4.8 KB over its 160 KB budget).
 */
export function renderLegalSections(facts: LegalFacts, privacy: PrivacyNotice, date: string): string {
  return renderStaticMarkup(createElement(LegalSections, { facts, privacy, date }));
}

let harmonisedNotice: string | undefined;

/** The harmonised notice on the legal guarantee, as the cart shows it (the same HTML for everyone). */
export function harmonisedNoticeHtml(): string {
  return (harmonisedNotice ??= renderStaticMarkup(createElement(HarmonisedGuaranteeNotice)));
}
