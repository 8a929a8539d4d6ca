import { EmailLink, Id } from "./identity";

/** The model withdrawal form (Code de la consommation, annexe à l'article R221-1), with the seller's details filled in. */
export function WithdrawalFormModel() {
  return (
    <figure className="mt-4 max-w-3xl rounded-2xl border border-dashed border-foreground/40 bg-card p-5 print:break-inside-avoid print:border-black">
      <figcaption className="text-center text-lg font-bold">Formulaire de rétractation</figcaption>
      <p className="text-center text-sm">(Veuillez compléter et renvoyer le présent formulaire uniquement si vous souhaitez vous rétracter du contrat.)</p>
      <ul className="list-none! pl-0! [&>li]:mt-3">
        <li>
          — À l'attention de <Id field="companyName" />, <Id field="address" />, adresse électronique&nbsp;: <EmailLink />&nbsp;:
        </li>
        <li>
          — Je/nous (*) vous notifie/notifions (*) par la présente ma/notre (*) rétractation du contrat portant sur la vente du bien (*)/pour la prestation de
          services (*) ci-dessous&nbsp;:
        </li>
        <li>— Commandé le (*)/reçu le (*)&nbsp;:</li>
        <li>— Nom du (des) consommateur(s)&nbsp;:</li>
        <li>— Adresse du (des) consommateur(s)&nbsp;:</li>
        <li>— Signature du (des) consommateur(s) (uniquement en cas de notification du présent formulaire sur papier)&nbsp;:</li>
        <li>— Date&nbsp;:</li>
      </ul>
      <p className="text-sm">(*) Rayez la mention inutile.</p>
    </figure>
  );
}
