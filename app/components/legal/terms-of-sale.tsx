import { formatEuros } from "~/domain/money";
import { SIGNATURE_MAX_SUBTOTAL_CENTS } from "~/domain/signature-delivery";
import { isIndividualEntrepreneur, legalFormLabel } from "~/domain/shop-identity";
import { GuaranteeNotice } from "./guarantee-notice";
import { HarmonisedGuaranteeNotice } from "./harmonised-guarantee-notice";
import {
  EmailLink,
  Id,
  PhoneLink,
  PostalAddress,
  Registration,
  SellerName,
  useLegalFacts,
} from "./identity";
import { CgvArticle, LegalSection, SubHeading } from "./outline";
import { WithdrawalFormModel } from "./withdrawal-form-model";
import { Link } from "react-router";

/**
 * Conditions générales de vente to consumers, as the Code de la consommation requires them
 * (L111-1, L221-5, L221-14, L216-1 ff., L221-18 ff., L217-3 ff., D211-1, D211-2, L616-1). The
 * SPEC.md clause "not liable for loss, theft or damage after dispatch" is written within
 * L216-4: the risk passes to the consumer when they take physical possession of the goods.
 */
export function TermsOfSale() {
  const { shopName, siteUrl, paymentProvider, identity, sellToBusinesses, storeCreditValidityMonths } = useLegalFacts();
  const individual = isIndividualEntrepreneur(identity);
  const provider =
    paymentProvider === "stripe" ? "Stripe" : "notre prestataire de paiement";
  return (
    <LegalSection id="cgv">
      <CgvArticle id="cgv-objet">
        <p>
          Les présentes conditions générales de vente (les «&nbsp;CGV&nbsp;»)
          régissent les ventes conclues sur le site {shopName} ({siteUrl}) entre
          {individual ? (
            <>
              <SellerName />, entrepreneur individuel dont l'établissement est
              situé <Id field="address" />, SIREN <Id field="siren" />,{" "}
              <Registration />
            </>
          ) : (
            <>
              la société <Id field="companyName" />,{" "}
              <Id field="legalForm" render={legalFormLabel} /> au capital de{" "}
              <Id field="shareCapital" />, dont le siège social est situé{" "}
              <Id field="address" />, immatriculée au RCS de{" "}
              <Id field="rcsCity" /> sous le numéro <Id field="rcsNumber" />
            </>
          )}{" "}
          (ci-après «&nbsp;le Vendeur&nbsp;»), et toute personne physique qui agit à des fins
          n'entrant pas dans le cadre de son activité commerciale, industrielle,
          artisanale, libérale ou agricole (ci-après «&nbsp;le Client&nbsp;» ou
          «&nbsp;le consommateur&nbsp;»)
          {sellToBusinesses ? (
            <>
              , ainsi que tout professionnel qui commande pour les besoins de son
              activité, sous les{" "}
              <a href="#cgv-professionnels">dispositions propres aux acheteurs professionnels</a>
            </>
          ) : null}
          .
        </p>
        <p>
          Le Client les accepte en passant commande. Les CGV applicables sont
          celles en vigueur à la date de la commande&nbsp;; elles sont rédigées
          en français et peuvent être consultées, imprimées ou enregistrées à
          tout moment depuis cette page. Les informations précontractuelles
          prévues par l'article L.&nbsp;221-5 du code de la consommation
          figurent dans les présentes CGV et sur les pages des produits.
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-produits">
        <p>
          Le Vendeur propose des cartes à collectionner (Pokémon, Magic: The
          Gathering, One Piece et autres jeux de cartes), à l'unité ou en
          produits scellés (boosters, displays, coffrets), des accessoires
          (protège-cartes, classeurs, boîtes), des mangas et des jeux vidéo. Les
          caractéristiques essentielles de chaque produit (nature, série, état,
          rareté, prix, disponibilité) figurent sur sa fiche, que le Client est
          invité à lire avant de commander.
        </p>
        <ul>
          <li>
            <strong>Cartes à l'unité.</strong> L'état annoncé (mint, near-mint,
            excellent, good, played) fait partie des caractéristiques de la
            carte. Une carte déjà possédée par un collectionneur est un bien
            d'occasion.
          </li>
          <li>
            <strong>Produits scellés.</strong> Ils sont vendus neufs, sous leur
            emballage d'origine. Le contenu d'un booster est aléatoire&nbsp;:
            l'achat ne garantit l'obtention d'aucune carte en particulier, et
            l'absence d'une carte espérée n'est pas un défaut de conformité.
          </li>
          <li>
            <strong>Jeux vidéo.</strong> La plateforme (console) et la version
            du jeu sont indiquées sur sa fiche&nbsp;; elles déterminent avec
            quel matériel il fonctionne.
          </li>
        </ul>
        <p>
          Les offres valent tant qu'elles sont visibles sur le site et dans la
          limite des stocks disponibles.
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-prix">
        <p>
          Les prix sont indiqués en euros, toutes taxes comprises (TTC). Le prix
          total de la commande, les frais de livraison du mode choisi et, si le
          Client la choisit, la remise contre signature (service de livraison
          facultatif, lorsque le Vendeur le propose, pour les commandes jusqu'à{" "}
          {formatEuros(SIGNATURE_MAX_SUBTOTAL_CENTS)}) sont
          indiqués au Client avant la validation de sa commande, dans le panier
          puis sur la page de paiement. Le prix facturé est celui affiché au
          moment de la commande.
        </p>
        <p>
          Un code de réduction s'applique dans les conditions indiquées lors de
          sa saisie (validité, montant minimal de commande, nombre
          d'utilisations)&nbsp;; le montant de la réduction est déduit avant le
          paiement et figure dans le récapitulatif.
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-commande">
        <p>La commande se passe en ligne, selon les étapes suivantes&nbsp;:</p>
        <ol>
          <li>le Client ajoute les produits choisis à son panier&nbsp;;</li>
          <li>
            dans le panier, il vérifie les produits et leurs quantités, choisit
            le pays et le mode de livraison (à domicile, en point relais ou par
            lettre suivie, avec leur prix et leur délai) et, pour un point
            relais, indique le point choisi, choisit ou non la remise contre
            signature lorsqu'elle est proposée,
            saisit le cas échéant un code de réduction, puis clique sur
            «&nbsp;Procéder au paiement&nbsp;»&nbsp;;
          </li>
          <li>
            sur la page de paiement sécurisée, il indique son adresse e-mail, le
            nom du destinataire et, hors point relais, son adresse de livraison,
            vérifie le récapitulatif et le prix total, et peut corriger ses
            choix ou revenir au panier&nbsp;;
          </li>
          <li>
            il valide sa commande en cliquant sur le bouton final de paiement,
            dont le libellé indique sans ambiguïté que la commande implique une
            obligation de paiement (article L.&nbsp;221-14 du code de la
            consommation)&nbsp;;
          </li>
          <li>
            le contrat est conclu dès l'acceptation du paiement&nbsp;; le
            Vendeur confirme alors la commande par e-mail, avec son numéro, son
            contenu, son prix et le lien de sa facture, que le Client retrouve
            aussi sur la page de sa commande.
          </li>
        </ol>
        <p>
          Pendant le paiement, les produits commandés sont réservés au Client
          pour une durée limitée. Un produit devenu indisponible avant le
          paiement n'est pas facturé. Le Vendeur peut refuser une commande pour
          un motif légitime, notamment un litige relatif au paiement d'une
          commande antérieure.
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-paiement">
        <p>
          Le prix est payable en totalité à la commande, en ligne, par carte
          bancaire ou au moyen d'un portefeuille mobile (tel qu'Apple&nbsp;Pay
          ou Google&nbsp;Pay, selon l'appareil et les moyens proposés sur la
          page de paiement). Le paiement est traité par {provider}, sur sa page
          sécurisée&nbsp;: le Vendeur n'a jamais connaissance des numéros de
          carte. La commande n'est validée qu'après l'acceptation du paiement.
        </p>
        <p id="cgv-avoirs">
          <strong>Avoirs.</strong> Un avoir est une somme que le Vendeur doit au
          Client (rachat de ses cartes payé en avoir, remboursement en avoir,
          geste commercial)&nbsp;; ce n'est pas une remise. Il est attaché à
          l'adresse e-mail du Client&nbsp;: connecté à son compte, adresse
          confirmée, le Client l'utilise à la commande, en tout ou partie, et
          paie le reste par carte. Son solde et ses mouvements figurent dans
          son compte. Une commande non payée, annulée ou expirée rend l'avoir
          utilisé. Un avoir n'est pas remboursable en espèces.{" "}
          {storeCreditValidityMonths
            ? `Chaque avoir est valable ${storeCreditValidityMonths} mois à compter de la date où il est crédité ; passé ce délai, la partie non utilisée est perdue (les avoirs les plus anciens sont utilisés en premier).`
            : "Les avoirs n'ont pas de date de fin de validité."}
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-livraison">
        <p>
          Les produits sont livrés à l'adresse ou au point relais indiqué par le
          Client, en France et dans les pays de l'Union européenne proposés dans
          le panier, selon le mode de livraison choisi, dont le prix et le délai
          indicatif sont affichés avant la commande. Sauf délai différent
          indiqué avant la commande, le Vendeur livre les produits au plus tard
          trente jours après la conclusion du contrat (article L.&nbsp;216-1 du
          code de la consommation).
        </p>
        <p>
          Dès l'expédition, le Vendeur envoie au Client un e-mail indiquant le
          transporteur et le numéro de suivi du colis, avec le lien permettant
          de suivre son acheminement.
        </p>
        <p>
          À défaut de livraison dans le délai prévu, le Client peut enjoindre au
          Vendeur, par écrit (lettre ou e-mail), de livrer dans un délai
          supplémentaire raisonnable, puis, si la livraison n'intervient pas
          dans ce délai, résoudre le contrat (articles L.&nbsp;216-6 et
          suivants). Le Vendeur lui rembourse alors la totalité des sommes
          versées au plus tard dans les quatorze jours suivant la résolution.
        </p>
        <p id="cgv-precommandes">
          <strong>Précommandes.</strong> Un produit en précommande est vendu
          avant sa sortie, dans la limite de la quantité et du nombre
          d'exemplaires par client indiqués sur sa fiche. Son prix est payé en
          totalité à la commande. Sa date de sortie et sa date de livraison
          estimée sont affichées sur sa fiche, puis rappelées dans le panier,
          sur la page de paiement, dans l'e-mail de confirmation et sur la
          facture&nbsp;: la date de livraison affichée lors de la commande est
          la date de livraison convenue au sens de l'article L.&nbsp;216-1 du
          code de la consommation. Une commande qui réunit des produits en
          précommande et des produits disponibles est expédiée comme le panier
          l'indique avant la commande&nbsp;: en une seule fois à la sortie, ou
          en deux envois, la livraison n'étant alors facturée qu'une fois.
        </p>
        <p>
          Si la date de sortie ou de livraison est reportée, le Vendeur en
          informe le Client par e-mail, avec un lien lui permettant d'annuler sa
          précommande et d'être remboursé aussitôt. Jusqu'à la sortie, le
          Client peut aussi l'annuler à tout moment depuis la page de la
          commande dans son compte&nbsp;; les sommes versées pour les produits
          annulés lui sont remboursées, avec une facture d'avoir. Ces
          facultés s'ajoutent aux droits que le Client tient des articles
          L.&nbsp;216-6 et L.&nbsp;216-7 du code de la consommation lorsque la
          livraison n'a pas lieu à la date convenue, ainsi qu'à son droit de
          rétractation (article&nbsp;8).
        </p>
        <p>
          Lorsque le distributeur livre au Vendeur moins d'exemplaires que ceux
          précommandés, les exemplaires reçus sont attribués selon une même
          règle pour tous les clients du produit, choisie par le Vendeur parmi
          les deux suivantes&nbsp;: dans l'ordre des commandes, ou par un tirage
          au sort donnant la même chance à chaque client, dont le tirage est
          conservé pour pouvoir être rejoué et vérifié. Les exemplaires qui ne
          peuvent être servis sont annulés et leur prix est remboursé au Client
          au plus tard dans les quatorze jours, avec une facture d'avoir&nbsp;;
          chaque Client est informé par e-mail de ce qui lui est attribué.
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-risques">
        <p>
          Conformément à l'article L.&nbsp;216-4 du code de la consommation,
          tout risque de perte ou d'endommagement des produits est transféré au
          Client au moment où celui-ci, ou un tiers désigné par lui et autre que
          le transporteur proposé par le Vendeur, prend physiquement possession
          de ces produits. Jusqu'à ce moment, la perte, le vol ou
          l'endommagement du colis pendant son acheminement sont à la charge du
          Vendeur, qui, selon le choix du Client, lui renvoie les produits ou le
          rembourse.
        </p>
        <p>
          À partir de ce moment, le Vendeur n'est plus responsable de la perte,
          du vol ou de l'endommagement des produits, sans préjudice des
          garanties légales de conformité et des vices cachés (article 9).
          Lorsque le Client confie la livraison à un transporteur qu'il choisit
          lui-même et que le Vendeur ne lui a pas proposé, le risque lui est
          transféré dès la remise des produits à ce transporteur (article
          L.&nbsp;216-5).
        </p>
        <p>
          La remise contre signature est un service de livraison&nbsp;: le colis
          n'est remis que contre la signature du destinataire. Ce n'est ni une
          assurance ni une garantie, et elle ne restreint ni ne conditionne les
          droits ci-dessus&nbsp;: que le Client l'ait choisie ou non, le Vendeur
          supporte les risques du transport jusqu'à la prise de possession
          physique des produits. Il est conseillé au Client de vérifier l'état du colis à sa
          réception et de signaler sans tarder au Vendeur toute anomalie&nbsp;;
          l'absence de réserves ne le prive d'aucun de ses droits.
        </p>
      </CgvArticle>

      <CgvArticle id="retractation">
        <h4>Délai</h4>
        <p>
          Le Client dispose d'un délai de quatorze jours pour se rétracter du
          contrat, sans avoir à motiver sa décision ni à supporter d'autres
          coûts que ceux mentionnés ci-dessous (articles L.&nbsp;221-18 et
          suivants du code de la consommation). Ce délai court à compter du jour
          où le Client, ou un tiers autre que le transporteur désigné par lui,
          prend physiquement possession du produit&nbsp;; pour une commande de
          plusieurs produits livrés séparément, à compter de la réception du
          dernier. Le délai qui expire un samedi, un dimanche ou un jour férié
          ou chômé est prolongé jusqu'au premier jour ouvrable suivant.
        </p>

        <h4>Comment se rétracter</h4>
        <p>
          Le Client exerce son droit de rétractation avant l'expiration du
          délai, au choix&nbsp;:
        </p>
        <ul>
          <li>
            en ligne, avec la fonction de rétractation&nbsp;: le bouton
            «&nbsp;Se rétracter du contrat ici&nbsp;», sur chaque commande de
            son compte client, ou sur la page{" "}
            <Link to="/retractation">Se rétracter du contrat</Link> pour une
            commande passée sans compte (numéro de commande, adresse e-mail,
            puis nom du consommateur). Après confirmation, un accusé de
            réception indiquant la date et l'heure de la rétractation lui est
            envoyé aussitôt par e-mail&nbsp;;
          </li>
          <li>
            ou en adressant au Vendeur le modèle de formulaire ci-dessous, ou
            toute autre déclaration dénuée d'ambiguïté exprimant sa volonté de
            se rétracter, par e-mail à <EmailLink /> ou par courrier à{" "}
            <PostalAddress />.
          </li>
        </ul>
        <p>
          La rétractation peut porter sur toute la commande ou sur une partie
          seulement des produits&nbsp;: la fonction de rétractation permet de
          choisir les articles et leur quantité. La preuve de l'exercice du
          droit de rétractation dans le délai incombe au Client.
        </p>

        <h4>Retour des produits</h4>
        <p>
          Le Client renvoie les produits au Vendeur, à l'adresse{" "}
          <Id field="address" />, sans retard excessif et au plus tard quatorze
          jours après avoir communiqué sa décision. Les frais directs de renvoi
          sont à sa charge. Les produits sont retournés complets et, autant que
          possible, dans leur emballage d'origine, protégés pour le transport.
        </p>
        <p>
          La responsabilité du Client n'est engagée qu'à l'égard de la
          dépréciation des produits résultant de manipulations autres que celles
          nécessaires pour établir leur nature, leurs caractéristiques et leur
          bon fonctionnement (article L.&nbsp;221-23). Examiner une carte dans
          sa protection ou un produit scellé sans l'ouvrir n'engage pas sa
          responsabilité&nbsp;; en revanche, ouvrir un booster, un display ou un
          coffret, ou abîmer une carte, va au-delà de ces manipulations et le
          montant remboursé peut alors être diminué de la dépréciation qui en
          résulte.
        </p>

        <h4>Remboursement</h4>
        <p>
          Le Vendeur rembourse la totalité des sommes versées, y compris les
          frais de livraison initiaux (à l'exception du supplément résultant du
          choix d'un mode de livraison plus coûteux que le mode standard
          proposé), sans retard excessif et au plus tard quatorze jours après
          avoir été informé de la décision de rétractation (article
          L.&nbsp;221-24). Il peut différer le remboursement jusqu'à la
          récupération des produits ou jusqu'à ce que le Client ait fourni une
          preuve de leur expédition, la date retenue étant celle du premier de
          ces faits. Le remboursement est effectué avec le moyen de paiement
          utilisé pour la commande, sans frais pour le Client. Si la
          rétractation ne porte que sur une partie des produits, le Vendeur
          rembourse le prix de ces produits, les frais de livraison initiaux
          n'étant remboursés que pour une rétractation de toute la commande. La
          dépréciation mentionnée ci-dessus peut être déduite du montant
          remboursé&nbsp;; son montant et son motif sont indiqués au Client.
        </p>

        <h4>Exceptions</h4>
        <p>
          Conformément à l'article L.&nbsp;221-28, 9° du code de la
          consommation, le droit de rétractation ne peut être exercé pour les
          jeux vidéo et autres logiciels ou enregistrements audio ou vidéo
          livrés scellés, lorsqu'ils ont été descellés par le Client après la
          livraison.
        </p>
        <p>
          Les cartes à collectionner, boosters, displays, coffrets, accessoires
          et mangas ne relèvent d'aucune exception&nbsp;: l'exception des biens
          descellés pour des raisons d'hygiène ou de protection de la santé ne
          les concerne pas. Ils peuvent être retournés dans le délai de
          rétractation, même ouverts, sous réserve de la dépréciation mentionnée
          ci-dessus.
        </p>

        <h4 id="formulaire-retractation" className="scroll-mt-36">
          Modèle de formulaire de rétractation
        </h4>
        <p>(Annexe à l'article R.&nbsp;221-1 du code de la consommation.)</p>
        <WithdrawalFormModel />
      </CgvArticle>

      <CgvArticle id="garanties">
        <p>
          Le Vendeur répond de la garantie légale de conformité (articles
          L.&nbsp;217-3 et suivants du code de la consommation) et de la
          garantie des vices cachés (articles 1641 à 1649 du code civil) pour
          tous les produits vendus, neufs ou d'occasion. Le professionnel qui
          répond de ces garanties est {individual ? "" : "la société "}<SellerName />, que
          le Client peut joindre par courrier à <Id field="address" />, par
          téléphone au <PhoneLink field="phone" /> et par e-mail à <EmailLink />
          .
        </p>
        <p>
          Conformément à l'article D.&nbsp;211-2 du code de la consommation, le
          Client est informé de ce qui suit&nbsp;:
        </p>
        <GuaranteeNotice />
        <HarmonisedGuaranteeNotice className="mt-4 max-w-3xl" />
        <p>
          Pour les biens vendus d'occasion, notamment les cartes à l'unité déjà
          possédées par un collectionneur, les défauts de conformité qui
          apparaissent dans un délai de douze mois à compter de la délivrance
          sont présumés exister au moment de celle-ci (article
          L.&nbsp;217-7)&nbsp;; au-delà et jusqu'à deux ans, la garantie
          s'applique toujours, mais il appartient au Client d'établir que le
          défaut existait lors de la délivrance.
        </p>
        <p>Le code civil dispose notamment&nbsp;:</p>
        <blockquote className="mt-3 border-l-4 border-border pl-4 italic">
          <p>
            Article 1641&nbsp;: «&nbsp;Le vendeur est tenu de la garantie à
            raison des défauts cachés de la chose vendue qui la rendent impropre
            à l'usage auquel on la destine, ou qui diminuent tellement cet usage
            que l'acheteur ne l'aurait pas acquise, ou n'en aurait donné qu'un
            moindre prix, s'il les avait connus.&nbsp;»
          </p>
          <p>
            Article 1648, alinéa 1<sup>er</sup>&nbsp;: «&nbsp;L'action résultant
            des vices rédhibitoires doit être intentée par l'acquéreur dans un
            délai de deux ans à compter de la découverte du vice.&nbsp;»
          </p>
        </blockquote>
        <p>
          Pour mettre en œuvre l'une de ces garanties, le Client contacte le
          Vendeur en indiquant son numéro de commande et le défaut constaté (une
          photographie aide à le traiter rapidement). Les frais de retour d'un
          produit non conforme sont à la charge du Vendeur.
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-reclamations">
        <p>
          Pour toute question ou réclamation, le Client peut écrire à{" "}
          <EmailLink />, appeler le <PhoneLink field="phone" /> ou écrire à{" "}
          <PostalAddress />. Le Vendeur y répond dans les meilleurs délais.
        </p>
      </CgvArticle>

      <CgvArticle id="mediation">
        <p>
          Conformément aux articles L.&nbsp;611-1 et suivants du code de la
          consommation, le Client peut recourir gratuitement au médiateur de la
          consommation dont relève le Vendeur, en vue de la résolution amiable
          d'un litige qui l'oppose à celui-ci&nbsp;:
        </p>
        <ul>
          <li>
            médiateur&nbsp;: <Id field="mediatorName" />
            &nbsp;;
          </li>
          <li>
            site internet&nbsp;:{" "}
            <Id
              field="mediatorUrl"
              render={(url) => (
                <a
                  href={url}
                  rel="noopener noreferrer external"
                  className="break-all"
                >
                  {url}
                </a>
              )}
            />
            .
          </li>
        </ul>
        <p>
          Le médiateur ne peut être saisi qu'après une tentative préalable de
          résolution du litige directement auprès du Vendeur, par une
          réclamation écrite, et au plus tard un an après cette réclamation
          (article L.&nbsp;612-2).
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-droit-applicable">
        <p>
          Les présentes CGV sont soumises au droit français. Ce choix ne prive
          pas le Client qui réside dans un autre État membre de l'Union
          européenne de la protection que lui assurent les dispositions
          impératives de la loi de son pays de résidence (article 6 du règlement
          (CE) n°&nbsp;593/2008 «&nbsp;Rome I&nbsp;»).
        </p>
        <p>
          En cas de litige, le Client peut saisir, à son choix, outre l'une des
          juridictions territorialement compétentes en vertu du code de
          procédure civile, la juridiction du lieu où il demeurait au moment de
          la conclusion du contrat ou de la survenance du fait dommageable
          (article R.&nbsp;631-3 du code de la consommation).
        </p>
      </CgvArticle>

      <CgvArticle id="cgv-archivage">
        <p>
          Pour toute commande d'un montant égal ou supérieur à 120&nbsp;euros,
          le Vendeur conserve l'écrit constatant le contrat pendant dix ans à
          compter de la livraison et en garantit l'accès au Client, qui peut le
          demander à tout moment (articles L.&nbsp;213-1 et D.&nbsp;213-1 du
          code de la consommation). Les données personnelles traitées à
          l'occasion des commandes le sont dans les conditions décrites dans la{" "}
          <a href="#confidentialite">politique de confidentialité</a>.
        </p>
      </CgvArticle>

      {sellToBusinesses ? <ProfessionalBuyers /> : null}
    </LegalSection>
  );
}

/**
 * What changes for a professional buyer (issue 53, "Achat professionnel"): Code de commerce
 * L441-1, L441-9 and L441-10, D441-5; no right of withdrawal (L221-3 extends it to small
 * professionals only for contracts concluded off premises, not for this site's distance
 * sales); the Code civil's warranty against hidden defects, not the consumer's L217 guarantee.
 */
function ProfessionalBuyers() {
  return (
    <>
      <SubHeading id="cgv-professionnels">Dispositions propres aux acheteurs professionnels</SubHeading>
      <p>
        Le Client qui commande pour les besoins de son activité professionnelle coche «&nbsp;Achat
        professionnel&nbsp;» dans le panier et indique la raison sociale, le numéro SIREN et, le cas
        échéant, le numéro de TVA intracommunautaire de l'entreprise, qui figurent sur sa facture. Les
        articles précédents s'appliquent à ses commandes, sous les dérogations suivantes, qui
        prévalent.
      </p>
      <ul>
        <li>
          <strong>Conditions de paiement</strong>&nbsp;: le prix est payable comptant, à la commande,
          par carte bancaire&nbsp;; aucun escompte n'est accordé pour paiement anticipé.
        </li>
        <li>
          <strong>Pénalités de retard</strong>&nbsp;: toute somme non payée à la date de règlement
          figurant sur la facture porte intérêt, dès le jour suivant et sans qu'un rappel soit
          nécessaire, au taux de trois fois le taux d'intérêt légal (article L.&nbsp;441-10 du code
          de commerce).
        </li>
        <li>
          <strong>Indemnité forfaitaire pour frais de recouvrement</strong>&nbsp;: tout professionnel
          en retard de paiement doit de plein droit au Vendeur une indemnité de 40&nbsp;euros (articles
          L.&nbsp;441-10 et D.&nbsp;441-5 du code de commerce), sans préjudice d'une indemnisation
          complémentaire sur justification.
        </li>
        <li>
          <strong>Rétractation</strong>&nbsp;: le droit de rétractation du code de la consommation ne
          bénéficie pas à l'acheteur professionnel. Son extension aux professionnels employant cinq
          salariés au plus (article L.&nbsp;221-3 du code de la consommation) ne vise que les contrats
          conclus hors établissement, et non les ventes à distance conclues sur le site.
        </li>
        <li>
          <strong>Garantie</strong>&nbsp;: la garantie légale de conformité du code de la
          consommation (articles L.&nbsp;217-3 et suivants) est réservée aux consommateurs.
          L'acheteur professionnel bénéficie de la garantie des vices cachés (articles 1641 à 1649 du
          code civil) et de l'obligation de délivrance conforme (articles 1604 et suivants du même
          code)&nbsp;; il vérifie les produits à leur réception et signale tout défaut apparent au
          Vendeur dans les meilleurs délais.
        </li>
      </ul>
    </>
  );
}
