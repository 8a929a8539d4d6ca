import { WITHDRAWAL_FORM_MODEL } from "~/domain/legal-texts";
import { EmailLink, Id, SellerName } from "./identity";

/** The model withdrawal form (Code de la consommation, annexe à l'article R221-1), with the seller's details filled in. */
export function WithdrawalFormModel() {
  return (
    <figure className="mt-4 max-w-3xl rounded-2xl border border-dashed border-foreground/40 bg-card p-5 print:break-inside-avoid print:border-black">
      <figcaption className="text-center text-lg font-bold">{WITHDRAWAL_FORM_MODEL.title}</figcaption>
      <p className="text-center text-sm">{WITHDRAWAL_FORM_MODEL.instruction}</p>
      <ul className="list-none! pl-0! [&>li]:mt-3">
        <li>
          — À l'attention de <SellerName />, <Id field="address" />, adresse électronique&nbsp;: <EmailLink />&nbsp;:
        </li>
        {WITHDRAWAL_FORM_MODEL.lines.map((line) => (
          <li key={line}>— {line}</li>
        ))}
      </ul>
      <p className="text-sm">{WITHDRAWAL_FORM_MODEL.footnote}</p>
    </figure>
  );
}
