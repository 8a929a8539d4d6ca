import { EmailLink, PhoneLink, useLegalFacts } from "./identity";
import { LegalSection, SubHeading } from "./outline";

/** The accessibility statement, on the RGAA model: the target, what was checked, its limits, how to report a problem. */
export function AccessibilityStatement({ date }: { date: string }) {
  const { shopName, siteUrl } = useLegalFacts();
  return (
    <LegalSection id="accessibilite">
      <p>
        {shopName} s'engage à rendre son site accessible à toutes et à tous, quels que soient leur matériel, leur logiciel ou leurs capacités. Cette
        déclaration s'applique au site <span className="break-all">{siteUrl}</span>.
      </p>

      <SubHeading>État de conformité</SubHeading>
      <p>
        L'objectif retenu est le niveau AA des règles pour l'accessibilité des contenus web (WCAG) 2.2. Le site est <strong>partiellement conforme</strong> à ce
        niveau&nbsp;: il a été vérifié comme indiqué ci-dessous, mais aucun audit complet n'a encore été réalisé par un organisme indépendant.
      </p>

      <SubHeading>Ce qui a été vérifié</SubHeading>
      <ul>
        <li>
          tests automatisés (axe-core) sur les pages principales, en thème clair et en thème sombre, sur ordinateur (1&nbsp;280&nbsp;px) et sur téléphone
          (390&nbsp;px)&nbsp;: aucune anomalie grave ou critique n'est relevée&nbsp;;
        </li>
        <li>navigation au clavier du parcours d'achat et des formulaires, avec un focus toujours visible et un lien d'accès direct au contenu&nbsp;;</li>
        <li>contrastes des textes et des contrôles (au moins 4,5:1 pour le texte courant)&nbsp;;</li>
        <li>étiquettes des champs de formulaire, messages d'erreur rattachés à leur champ et annoncés aux technologies d'assistance&nbsp;;</li>
        <li>zones cliquables d'au moins 44 × 44&nbsp;px et respect de la préférence «&nbsp;réduire les animations&nbsp;» du système.</li>
      </ul>

      <SubHeading>Limites connues</SubHeading>
      <ul>
        <li>les photographies de produits ont pour alternative textuelle le nom du produit, sans description détaillée de l'illustration des cartes&nbsp;;</li>
        <li>la page de paiement est fournie par le prestataire de paiement&nbsp;: son accessibilité relève de celui-ci&nbsp;;</li>
        <li>les vérifications n'ont pas encore été complétées par des tests avec des lecteurs d'écran.</li>
      </ul>

      <SubHeading>Établissement de cette déclaration</SubHeading>
      <p>
        Cette déclaration a été établie le {date}. Technologies utilisées&nbsp;: HTML, CSS, JavaScript. Les pages sont produites par le serveur et se consultent
        sans JavaScript&nbsp;; le panier et le paiement en ont besoin.
      </p>

      <SubHeading>Signaler un problème</SubHeading>
      <p>
        Si vous n'arrivez pas à accéder à un contenu ou à un service, écrivez à <EmailLink /> ou appelez le <PhoneLink field="phone" />&nbsp;: nous vous
        indiquerons une autre façon d'y accéder ou vous transmettrons le contenu sous une autre forme.
      </p>

      <SubHeading>Voies de recours</SubHeading>
      <p>
        Si vous nous avez signalé un défaut d'accessibilité qui vous empêche d'accéder à un contenu ou à un service et que vous n'avez pas obtenu de réponse
        satisfaisante, vous pouvez saisir le Défenseur des droits&nbsp;:
      </p>
      <ul>
        <li>
          par le{" "}
          <a href="https://formulaire.defenseurdesdroits.fr/" rel="noopener noreferrer external">
            formulaire en ligne du Défenseur des droits
          </a>
          &nbsp;;
        </li>
        <li>
          auprès du{" "}
          <a href="https://www.defenseurdesdroits.fr/carte-des-delegues" rel="noopener noreferrer external">
            délégué du Défenseur des droits de votre région
          </a>
          &nbsp;;
        </li>
        <li>par courrier, gratuitement et sans affranchissement&nbsp;: Défenseur des droits, Libre réponse 71120, 75342 Paris CEDEX 07.</li>
      </ul>
    </LegalSection>
  );
}
