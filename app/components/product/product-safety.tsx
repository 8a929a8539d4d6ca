import { ChevronDown } from "lucide-react";
import type { ReactNode } from "react";
import type { ProductSafety } from "~/domain/safety-profile";

/** What neither the product nor its brand says: only a product online before the rule can lack it. */
const NOT_GIVEN = <span className="text-muted-foreground">Non renseigné</span>;

const link = "font-medium text-accent underline-offset-4 hover:underline";

function Email({ address }: { address: string | null }) {
  return address ? (
    <a href={`mailto:${address}`} className={link}>
      {address}
    </a>
  ) : (
    NOT_GIVEN
  );
}

/**
 * "Sécurité du produit" (GPSR, Reg. 2023/988 art. 19): the manufacturer and its postal and
 * electronic address, its EU responsible person when it is established outside the EU, the
 * product's identifier (its EAN, else the manufacturer's reference), the warnings and the label's
 * picture, in a disclosure closed by default. Closed, it is still in the page (read by search
 * engines and by the browser's find), and it opens without JavaScript.
 */
export function ProductSafetyDetails({ safety, labelImage }: { safety: ProductSafety; labelImage: { src: string; srcSet: string } | null }) {
  const rows: [string, ReactNode][] = [
    ["Fabricant", safety.manufacturerName ?? NOT_GIVEN],
    ["Adresse postale", safety.postalAddress ?? NOT_GIVEN],
    ["E-mail", <Email key="email" address={safety.email} />],
  ];
  if (safety.manufacturerOutsideEu) {
    rows.push(
      ["Personne responsable dans l'UE", safety.euRepName ?? NOT_GIVEN],
      ["Son adresse postale", safety.euRepAddress ?? NOT_GIVEN],
      ["Son e-mail", <Email key="rep-email" address={safety.euRepEmail} />],
    );
  }
  rows.push(
    ["Identifiant", safety.ean ? `EAN : ${safety.ean}` : safety.manufacturerReference ? `Référence du fabricant : ${safety.manufacturerReference}` : NOT_GIVEN],
    ["Avertissements", safety.warnings ?? NOT_GIVEN],
  );
  return (
    <details className="group mt-2 border-y border-border" data-testid="product-safety">
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 py-3 text-lg font-bold [&::-webkit-details-marker]:hidden">
        Sécurité du produit
        <ChevronDown className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <table className="mb-3 w-full text-sm">
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label} className="border-b border-border last:border-0">
              <th scope="row" className="w-1/3 py-2.5 pr-4 text-left align-top font-medium text-muted-foreground">
                {label}
              </th>
              <td className="py-2.5 whitespace-pre-line [overflow-wrap:anywhere]">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {labelImage ? (
        <figure className="mb-3">
          <img src={labelImage.src} srcSet={labelImage.srcSet} sizes="16rem" alt="Étiquette du produit" loading="lazy" className="w-64 max-w-full rounded-lg border border-border" />
          <figcaption className="mt-1 text-sm text-muted-foreground">Étiquette du produit</figcaption>
        </figure>
      ) : null}
    </details>
  );
}
