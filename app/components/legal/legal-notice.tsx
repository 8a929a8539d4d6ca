import type { ReactNode } from "react";
import { formHasCapital, isIndividualEntrepreneur, legalFormLabel } from "~/domain/shop-identity";
import { EmailLink, Id, PhoneLink, Registration, SellerName, useLegalFacts } from "./identity";
import { LegalSection, SubHeading } from "./outline";

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="mt-4 grid max-w-3xl gap-x-6 gap-y-2 rounded-2xl border border-border bg-card p-5 sm:grid-cols-[minmax(12rem,auto)_1fr] sm:items-baseline">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-sm font-semibold text-muted-foreground">{term}</dt>
          <dd className="mb-2 break-words sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Who publishes the site and who hosts it (LCEN articles 1-1 and 19). */
export function LegalNotice() {
  const { shopName, siteUrl, identity } = useLegalFacts();
  const individual = isIndividualEntrepreneur(identity);
  return (
    <LegalSection id="mentions-legales">
      <p>
        Le site {shopName} (<span className="break-all">{siteUrl}</span>) est édité et exploité par {individual ? "l'entrepreneur individuel" : "la société"} dont l'identité suit. Ces informations sont publiées
        en application des articles 1-1 (ancien article 6, III) et 19 de la loi n°&nbsp;2004-575 du 21&nbsp;juin 2004 pour la confiance dans l'économie numérique.
      </p>

      <SubHeading id="editeur">Éditeur du site</SubHeading>
      <Facts
        rows={[
          [individual ? "Nom" : "Dénomination sociale", <SellerName key="n" />],
          ["Forme juridique", <Id key="f" field="legalForm" render={legalFormLabel} />],
          // An entrepreneur individuel has no capital: the row would only say "missing".
          ...(formHasCapital(identity.legalForm) ? [["Capital social", <Id key="c" field="shareCapital" />] as [string, ReactNode]] : []),
          [individual ? "Adresse de l'établissement" : "Siège social", <Id key="a" field="address" />],
          ["Immatriculation", <Registration key="r" />],
          ["SIREN", <Id key="s" field="siren" />],
          // Optional for an entrepreneur individuel (often none under the franchise): left out when not given.
          ...(individual && !identity.vatNumber ? [] : [["N° de TVA intracommunautaire", <Id key="t" field="vatNumber" />] as [string, ReactNode]]),
          ["E-mail", <EmailLink key="e" />],
          ["Téléphone", <PhoneLink key="p" field="phone" />],
          ["Directeur de la publication", <Id key="d" field="publicationDirector" />],
        ]}
      />

      <SubHeading id="hebergeur">Hébergeur</SubHeading>
      <Facts
        rows={[
          ["Nom ou dénomination", <Id key="n" field="hostName" />],
          ["Adresse", <Id key="a" field="hostAddress" />],
          ["Téléphone", <PhoneLink key="p" field="hostPhone" />],
        ]}
      />

      <SubHeading id="propriete-intellectuelle">Propriété intellectuelle</SubHeading>
      <p>
        Les textes, la mise en page et les photographies de produits du site sont protégés par le droit d'auteur&nbsp;; toute reproduction sans autorisation
        est interdite. Pokémon, Magic: The Gathering, One Piece et les autres noms de jeux, de séries ou d'éditeurs cités sont des marques de leurs titulaires
        respectifs&nbsp;: {shopName} n'est ni affilié à ces titulaires ni approuvé par eux, et cite ces marques pour désigner les produits authentiques qu'il revend.
      </p>
    </LegalSection>
  );
}
