import type { ReactNode } from "react";
import type { PrivacyNotice } from "~/domain/privacy-notice";
import { EmailLink, Id, PostalAddress, useLegalFacts } from "./identity";
import { LegalSection, SubHeading } from "./outline";

function Table({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <div className="mt-4 overflow-x-auto rounded-2xl border border-border" role="region" aria-label={caption} tabIndex={0}>
      <table className="w-full min-w-[40rem] text-left text-sm leading-6">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60">
          <tr>
            {head.map((title) => (
              <th key={title} scope="col" className="px-4 py-2 font-semibold">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, row) => (
            <tr key={row} className="border-t border-border align-top">
              {cells.map((cell, column) =>
                column === 0 ? (
                  <th key={column} scope="row" className="px-4 py-3 font-semibold">
                    {cell}
                  </th>
                ) : (
                  <td key={column} className="px-4 py-3">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The privacy policy (RGPD articles 12 to 14) and the storage used in the browser (loi
 * Informatique et Libertés, article 82); its tables come from the code's own periods and names
 * (domain/privacy-notice.ts).
 */
export function PrivacyPolicy({ notice }: { notice: PrivacyNotice }) {
  const { paymentProvider, shopName } = useLegalFacts();
  return (
    <LegalSection id="confidentialite">
      <p>
        Cette politique explique quelles données personnelles {shopName} traite, pourquoi, combien de temps, et comment exercer vos droits, conformément au
        règlement (UE) 2016/679 (RGPD) et à la loi n°&nbsp;78-17 du 6&nbsp;janvier 1978 «&nbsp;Informatique et Libertés&nbsp;».
      </p>

      <SubHeading>Responsable du traitement</SubHeading>
      <p>
        <PostalAddress />, joignable par e-mail à <EmailLink />.
      </p>

      <SubHeading>Données traitées, finalités, bases légales et durées</SubHeading>
      <p>Seules les données nécessaires sont collectées. Elles ne sont ni vendues, ni louées, ni utilisées à des fins publicitaires.</p>
      <Table
        caption="Traitements de données personnelles"
        head={["Finalité", "Données", "Base légale", "Durée de conservation"]}
        rows={notice.processing.map((p) => [p.purpose, p.data, p.basis, p.kept])}
      />
      <p>Au terme de ces durées, les données sont supprimées ou anonymisées.</p>

      <SubHeading>Destinataires</SubHeading>
      <p>Les données sont destinées au Vendeur. Ne reçoivent que ce qui leur est nécessaire&nbsp;:</p>
      <ul>
        <li>
          le prestataire de paiement
          {paymentProvider === "stripe" ? <> Stripe Payments Europe, Limited (Dublin, Irlande)</> : null}, qui traite le paiement et les données de carte sur sa
          propre page&nbsp;;
        </li>
        <li>le transporteur choisi pour la livraison (nom, adresse de livraison, téléphone, e-mail pour le suivi)&nbsp;;</li>
        <li>le prestataire d'envoi des e-mails de la boutique&nbsp;;</li>
        <li>
          l'hébergeur du site, <Id field="hostName" />&nbsp;;
        </li>
        <li>les autorités administratives ou judiciaires, sur demande fondée sur un texte.</li>
      </ul>
      <p>
        Lorsqu'un prestataire transfère des données hors de l'Union européenne, ce transfert est encadré par une décision d'adéquation de la Commission
        européenne ou par ses clauses contractuelles types.
      </p>

      <SubHeading>Vos droits</SubHeading>
      <p>
        Vous disposez d'un droit d'accès, de rectification, d'effacement, de limitation du traitement, de portabilité de vos données et d'opposition à leur
        traitement, ainsi que du droit de définir des directives relatives au sort de vos données après votre décès. Pour les exercer, écrivez à <EmailLink /> ou
        à <PostalAddress />, en précisant l'adresse e-mail utilisée sur le site. Une réponse vous est apportée dans un délai d'un mois&nbsp;; une pièce justifiant
        de votre identité ne peut vous être demandée qu'en cas de doute raisonnable.
      </p>
      <p>
        Sur demande, le Vendeur vous transmet l'ensemble des données de votre compte dans un fichier structuré (JSON), ou efface votre compte&nbsp;: vos données
        personnelles sont alors supprimées ou anonymisées, les commandes n'étant conservées, sous une forme anonymisée, que pour les obligations comptables.
      </p>
      <p>
        Si vous estimez, après nous avoir contactés, que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la Commission nationale de
        l'informatique et des libertés (CNIL), 3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07, ou en ligne sur{" "}
        <a href="https://www.cnil.fr/fr/plaintes" rel="noopener noreferrer external">
          www.cnil.fr
        </a>
        .
      </p>

      <SubHeading id="cookies">Cookies et stockage dans le navigateur</SubHeading>
      <p>
        Le site n'utilise que le stockage strictement nécessaire à son fonctionnement ou à une fonction que vous demandez&nbsp;: aucune mesure d'audience, aucune
        publicité, aucun bouton de réseau social ne vous suit. Ce stockage est exempté de consentement (article 82 de la loi «&nbsp;Informatique et Libertés&nbsp;»)&nbsp;:
        c'est pourquoi aucun bandeau ne vous le demande.
      </p>
      <Table
        caption="Stockage utilisé dans le navigateur"
        head={["Nom", "Type", "Utilité", "Durée"]}
        rows={notice.storage.map((s) => [<code key={s.name}>{s.name}</code>, s.where, s.purpose, s.kept])}
      />
      <p>La page de paiement du prestataire de paiement peut déposer ses propres cookies, nécessaires à la sécurité du paiement et à la lutte contre la fraude.</p>
    </LegalSection>
  );
}
