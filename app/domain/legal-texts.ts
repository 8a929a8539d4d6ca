import { joinGiven } from "./shop-identity";

/**
 * Legal texts reproduced word for word, shared by the pages (/legal) and the e-mails, so that the
 * two never differ.
 */

/** The box the CGV of a seller of goods must contain (Code de la consommation D211-2, model A of its annex, décret n° 2022-946). */
export const GUARANTEE_NOTICE: readonly string[] = [
  "Le consommateur dispose d'un délai de deux ans à compter de la délivrance du bien pour obtenir la mise en œuvre de la garantie légale de conformité en cas d'apparition d'un défaut de conformité. Durant ce délai, le consommateur n'est tenu d'établir que l'existence du défaut de conformité et non la date d'apparition de celui-ci.",
  "Lorsque le contrat de vente du bien prévoit la fourniture d'un contenu numérique ou d'un service numérique de manière continue pendant une durée supérieure à deux ans, la garantie légale est applicable à ce contenu numérique ou ce service numérique tout au long de la période de fourniture prévue. Durant ce délai, le consommateur n'est tenu d'établir que l'existence du défaut de conformité affectant le contenu numérique ou le service numérique et non la date d'apparition de celui-ci.",
  "La garantie légale de conformité emporte obligation pour le professionnel, le cas échéant, de fournir toutes les mises à jour nécessaires au maintien de la conformité du bien.",
  "La garantie légale de conformité donne au consommateur droit à la réparation ou au remplacement du bien dans un délai de trente jours suivant sa demande, sans frais et sans inconvénient majeur pour lui.",
  "Si le bien est réparé dans le cadre de la garantie légale de conformité, le consommateur bénéficie d'une extension de six mois de la garantie initiale.",
  "Si le consommateur demande la réparation du bien, mais que le vendeur impose le remplacement, la garantie légale de conformité est renouvelée pour une période de deux ans à compter de la date de remplacement du bien.",
  "Le consommateur peut obtenir une réduction du prix d'achat en conservant le bien ou mettre fin au contrat en se faisant rembourser intégralement contre restitution du bien, si :",
  "1° Le professionnel refuse de réparer ou de remplacer le bien ;",
  "2° La réparation ou le remplacement du bien intervient après un délai de trente jours ;",
  "3° La réparation ou le remplacement du bien occasionne un inconvénient majeur pour le consommateur, notamment lorsque le consommateur supporte définitivement les frais de reprise ou d'enlèvement du bien non conforme, ou s'il supporte les frais d'installation du bien réparé ou de remplacement ;",
  "4° La non-conformité du bien persiste en dépit de la tentative de mise en conformité du vendeur restée infructueuse.",
  "Le consommateur a également droit à une réduction du prix du bien ou à la résolution du contrat lorsque le défaut de conformité est si grave qu'il justifie que la réduction du prix ou la résolution du contrat soit immédiate. Le consommateur n'est alors pas tenu de demander la réparation ou le remplacement du bien au préalable.",
  "Le consommateur n'a pas droit à la résolution de la vente si le défaut de conformité est mineur.",
  "Toute période d'immobilisation du bien en vue de sa réparation ou de son remplacement suspend la garantie qui restait à courir jusqu'à la délivrance du bien remis en état.",
  "Les droits mentionnés ci-dessus résultent de l'application des articles L. 217-1 à L. 217-32 du code de la consommation.",
  "Le vendeur qui fait obstacle de mauvaise foi à la mise en œuvre de la garantie légale de conformité encourt une amende civile d'un montant maximal de 300 000 euros, qui peut être porté jusqu'à 10 % du chiffre d'affaires moyen annuel (article L. 241-5 du code de la consommation).",
  "Le consommateur bénéficie également de la garantie légale des vices cachés en application des articles 1641 à 1649 du code civil, pendant une durée de deux ans à compter de la découverte du défaut. Cette garantie donne droit à une réduction de prix si le bien est conservé ou à un remboursement intégral contre restitution du bien.",
];

/** The model withdrawal form (annex to article R221-1 of the Code de la consommation). */
export const WITHDRAWAL_FORM_MODEL = {
  title: "Formulaire de rétractation",
  instruction: "(Veuillez compléter et renvoyer le présent formulaire uniquement si vous souhaitez vous rétracter du contrat.)",
  /** The seller's name, address and e-mail as given: a part not given is left out, never ", ,". */
  addressee: (seller: { name: string; address: string; email: string }) =>
    `À l'attention de ${joinGiven([seller.name, seller.address, seller.email ? `adresse électronique\u00a0: ${seller.email}` : ""])}\u00a0:`,
  lines: [
    "Je/nous (*) vous notifie/notifions (*) par la présente ma/notre (*) rétractation du contrat portant sur la vente du bien (*)/pour la prestation de services (*) ci-dessous\u00a0:",
    "Commandé le (*)/reçu le (*)\u00a0:",
    "Nom du (des) consommateur(s)\u00a0:",
    "Adresse du (des) consommateur(s)\u00a0:",
    "Signature du (des) consommateur(s) (uniquement en cas de notification du présent formulaire sur papier)\u00a0:",
    "Date\u00a0:",
  ],
  footnote: "(*) Rayez la mention inutile.",
} as const;
