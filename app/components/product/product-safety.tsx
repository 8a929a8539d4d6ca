import { ChevronDown } from "lucide-react";
import type { ReactNode } from "react";
import type { ProductSafety } from "~/domain/safety-profile";

/** What neither the product nor its brand says (the seller completes it at /admin/product-safety). */
const NOT_GIVEN = <span className="text-muted-foreground">Non renseigné</span>;

/**
 * "Sécurité du produit" (GPSR, Reg. 2023/988 art. 19): the manufacturer, its postal and electronic
 * address, the product's identifier (its EAN, else the shop's reference) and the warnings, in a
 * disclosure closed by default. Closed, it is still in the page (read by search engines and by
 * the browser's find), and it opens without JavaScript.
 */
export function ProductSafetyDetails({ productId, safety }: { productId: number; safety: ProductSafety }) {
  const rows: [string, ReactNode][] = [
    ["Fabricant", safety.manufacturerName ?? NOT_GIVEN],
    ["Adresse postale", safety.postalAddress ?? NOT_GIVEN],
    [
      "E-mail",
      safety.email ? (
        <a href={`mailto:${safety.email}`} className="font-medium text-accent underline-offset-4 hover:underline">
          {safety.email}
        </a>
      ) : (
        NOT_GIVEN
      ),
    ],
    ["Identifiant", safety.ean ? `EAN : ${safety.ean}` : `Référence : ${productId}`],
    ["Avertissements", safety.warnings ?? "Aucun avertissement particulier"],
  ];
  return (
    <details className="group mt-2 border-y border-border">
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
    </details>
  );
}
