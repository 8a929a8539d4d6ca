import type { ReactNode } from "react";
import { EmailLink, Id, PostalAddress, useLegalFacts } from "./identity";
import { LegalSection, SubHeading } from "./outline";

type Processing = { purpose: string; data: string; basis: string; kept: string };

/** What the shop keeps, why and how long: each row matches a table of the database (see app/db/schema). */
const PROCESSING: Processing[] = [
  {
    purpose: "Compte client",
    data: "nom, adresse e-mail, mot de passe (conservé sous forme hachée, illisible), rôle, date d'inscription",
    basis: "exécution du contrat (article 6.1.b du RGPD)",
    kept: "jusqu'à la suppression du compte, à votre demande",
  },
  {
    purpose: "Commandes, livraison, facturation et rétractations",
    data: "nom, adresse e-mail, adresse de livraison ou point relais, téléphone, produits, montants, code de réduction, statut du paiement (jamais le numéro de carte), transporteur et numéro de suivi, demandes de rétractation",
    basis: "exécution du contrat, puis obligations légales comptables et fiscales (article 6.1.c)",
    kept: "dix ans à compter de la clôture de l'exercice (article L.\u00a0123-22 du code de commerce)",
  },
  {
    purpose: "Demandes de contact et de rachat",
    data: "nom, prénom, adresse e-mail, téléphone (rachat), message, photographies des cartes envoyées pour une estimation",
    basis: "mesures précontractuelles prises à votre demande et intérêt légitime à vous répondre (articles 6.1.b et 6.1.f)",
    kept: "trois ans à compter du dernier échange",
  },
  {
    purpose: "E-mails envoyés par la boutique",
    data: "destinataire, objet et contenu des e-mails (confirmations de commande, d'expédition, de compte, accusés de réception)",
    basis: "exécution du contrat et intérêt légitime à prouver l'information donnée",
    kept: "aussi longtemps que la commande, le compte ou la demande auxquels ils se rapportent",
  },
  {
    purpose: "Sécurité du site",
    data: "adresse IP, navigateur, pages demandées, erreurs techniques, compteurs de tentatives (connexion, inscription, formulaires, paiement)",
    basis: "intérêt légitime à protéger le site et ses clients contre les abus (article 6.1.f)",
    kept: "journaux techniques\u00a0: douze mois au plus\u00a0; compteurs de tentatives\u00a0: une heure au plus\u00a0; session de connexion\u00a0: trente jours au plus",
  },
];

const STORAGE: { name: ReactNode; where: string; purpose: string; kept: string }[] = [
  {
    name: <code>better-auth.session_token</code>,
    where: "cookie (HttpOnly), seulement si vous vous connectez",
    purpose: "vous garder connecté à votre compte ou à l'administration",
    kept: "trente jours au plus, supprimé à la déconnexion",
  },
  {
    name: <code>comptoir_viewer</code>,
    where: "cookie, seulement si vous vous connectez",
    purpose: "afficher le lien vers votre compte dès l'affichage de la page (votre nom et votre rôle ; ce cookie ne permet pas de se connecter)",
    kept: "comme la session, supprimé à la déconnexion",
  },
  { name: <code>cart</code>, where: "stockage local du navigateur", purpose: "garder le contenu de votre panier", kept: "jusqu'à ce que vous vidiez le panier" },
  { name: <code>theme</code>, where: "stockage local du navigateur", purpose: "retenir le thème clair ou sombre que vous avez choisi", kept: "jusqu'à ce que vous le changiez" },
  {
    name: <code>comptoir.dismissed-messages</code>,
    where: "stockage de session du navigateur",
    purpose: "ne plus afficher les messages d'information que vous avez fermés",
    kept: "jusqu'à la fermeture de l'onglet",
  },
];

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

/** The privacy policy (RGPD articles 12 to 14) and the storage used in the browser (loi Informatique et Libertés, article 82). */
export function PrivacyPolicy() {
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
        rows={PROCESSING.map((p) => [p.purpose, p.data, p.basis, p.kept])}
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
        rows={STORAGE.map((s) => [s.name, s.where, s.purpose, s.kept])}
      />
      <p>La page de paiement du prestataire de paiement peut déposer ses propres cookies, nécessaires à la sécurité du paiement et à la lutte contre la fraude.</p>
    </LegalSection>
  );
}
