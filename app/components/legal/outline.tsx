import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/** The page's plan: its sections and the CGV's articles, for the headings and the table of contents alike. */
export const LEGAL_OUTLINE = [
  { id: "mentions-legales", title: "Mentions légales", articles: [] },
  {
    id: "cgv",
    title: "Conditions générales de vente",
    articles: [
      { id: "cgv-objet", title: "Objet et champ d'application" },
      { id: "cgv-produits", title: "Produits" },
      { id: "cgv-prix", title: "Prix" },
      { id: "cgv-commande", title: "Commande" },
      { id: "cgv-paiement", title: "Paiement" },
      { id: "cgv-livraison", title: "Livraison et suivi" },
      { id: "cgv-risques", title: "Transfert des risques" },
      { id: "retractation", title: "Droit de rétractation" },
      { id: "garanties", title: "Garanties légales" },
      { id: "cgv-reclamations", title: "Service client et réclamations" },
      { id: "mediation", title: "Médiation de la consommation" },
      { id: "cgv-droit-applicable", title: "Droit applicable et juridiction" },
      { id: "cgv-archivage", title: "Archivage du contrat" },
    ],
  },
  { id: "confidentialite", title: "Politique de confidentialité", articles: [] },
  { id: "accessibilite", title: "Déclaration d'accessibilité", articles: [] },
] as const;

type SectionId = (typeof LEGAL_OUTLINE)[number]["id"];
type ArticleId = (typeof LEGAL_OUTLINE)[1]["articles"][number]["id"];

/** Headings sit below the sticky header (two rows on phones) when reached by an anchor. */
const ANCHORED = "scroll-mt-36";

/** Text of the legal page: a readable measure for text (tables may be wider), spacing between blocks, lists and links styled. */
export const PROSE =
  "text-[1.0625rem] leading-7 [&_blockquote]:max-w-[70ch] [&_ol]:max-w-[70ch] [&_p]:max-w-[70ch] [&_ul]:max-w-[70ch] [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-1.5 [&_a]:font-medium [&_a]:text-accent [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:decoration-2 [&_h4]:mt-6 [&_h4]:font-bold [&_strong]:font-semibold";

export function LegalSection({ id, children }: { id: SectionId; children: ReactNode }) {
  const index = LEGAL_OUTLINE.findIndex((section) => section.id === id);
  return (
    <section aria-labelledby={id} className="border-t border-border pt-10 first:border-0 first:pt-0 print:break-before-page print:first:break-before-auto">
      <h2 id={id} className={cn(ANCHORED, "text-2xl font-extrabold tracking-tight sm:text-3xl")}>
        {index + 1}. {LEGAL_OUTLINE[index]!.title}
      </h2>
      <div className={PROSE}>{children}</div>
    </section>
  );
}

/** A sub-heading of a section, without a number. */
export function SubHeading({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <h3 id={id} className={cn(ANCHORED, "mt-8 text-lg font-bold")}>
      {children}
    </h3>
  );
}

/** An article of the CGV, numbered from the plan. */
export function CgvArticle({ id, children }: { id: ArticleId; children: ReactNode }) {
  const articles = LEGAL_OUTLINE[1].articles;
  const index = articles.findIndex((article) => article.id === id);
  return (
    <>
      <SubHeading id={id}>
        Article {index + 1} – {articles[index]!.title}
      </SubHeading>
      {children}
    </>
  );
}

const tocLink = "inline-flex min-h-11 items-center rounded-md px-2 text-sm hover:bg-muted hover:text-foreground";

/** The table of contents: the four sections, and on wide screens the CGV's articles. */
export function LegalToc({ className }: { className?: string }) {
  return (
    <nav aria-labelledby="sommaire" className={cn("rounded-2xl border border-border bg-card p-4 print:hidden", className)}>
      <h2 id="sommaire" className="px-2 text-sm font-semibold uppercase tracking-widest text-muted-foreground">
        Sommaire
      </h2>
      <ol className="mt-2">
        {LEGAL_OUTLINE.map((section, index) => (
          <li key={section.id}>
            <a href={`#${section.id}`} className={cn(tocLink, "font-semibold")}>
              {index + 1}. {section.title}
            </a>
            {section.articles.length > 0 ? (
              <ol className="mb-1 ml-3 hidden border-l border-border pl-2 lg:block">
                {section.articles.map((article, n) => (
                  <li key={article.id}>
                    <a href={`#${article.id}`} className={cn(tocLink, "text-muted-foreground")}>
                      {n + 1}. {article.title}
                    </a>
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ol>
    </nav>
  );
}
