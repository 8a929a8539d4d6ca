import { FileText, MapPin, ReceiptText, Scale, Truck } from "lucide-react";
import { cgvPath, cgvVersionLabel } from "~/domain/cgv-snapshot";
import { formatEuros } from "~/domain/money";
import { FRANCHISE_MENTION, INTRA_EU_EXEMPTION_MENTION } from "~/domain/invoice";
import { billingAddressLines, documentPath, type OrderView } from "~/domain/order-view";
import { formatParisDate } from "~/domain/paris-time";
import { formatVatRate } from "~/domain/vat-allocation";
import { productPath } from "~/domain/product-url";
import { countryName } from "~/domain/shipping-countries";
import { Link } from "react-router";
import { SIGNATURE_DELIVERY_LABEL } from "~/domain/signature-delivery";

// Its own module, so pages that show only a status (the withdrawal page) do not load the summary.
export { OrderStatusBadge } from "./order-status-badge";

/** An order's lines, amounts and delivery: /merci and the account's order page. */
export function OrderSummary({
  order,
  headingLevel = 2,
}: {
  order: OrderView;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const address = order.shippingAddress;
  // An exempt intra-EU supply (docs/decisions/054): its total is before VAT, and no rate is shown.
  const exempt = order.vatRegime === "intra_eu_exempt";
  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby="order-lines-title"
        className="rounded-2xl border border-border bg-card p-5"
      >
        <Heading id="order-lines-title" className="text-lg font-bold">
          Articles
        </Heading>
        <ul className="mt-3 flex flex-col divide-y divide-border text-sm">
          {order.lines.map((line, index) => (
            <li key={index} className="flex justify-between gap-4 py-3">
              <span>
                {line.productId ? (
                  <Link
                    to={productPath({ id: line.productId, name: line.name })}
                    className="font-medium hover:text-accent hover:underline"
                  >
                    {line.name}
                  </Link>
                ) : (
                  <span className="font-medium">{line.name}</span>
                )}
                <span className="tabular block text-muted-foreground">
                  {line.quantity} × {formatEuros(line.unitPriceCents)}
                </span>
                {line.preorderNote ? (
                  <span className="block text-muted-foreground">{line.preorderNote}</span>
                ) : null}
              </span>
              <span className="tabular shrink-0 font-semibold">
                {formatEuros(line.lineTotalCents)}
              </span>
            </li>
          ))}
        </ul>
        <div className="mt-2 flex flex-col gap-2 border-t border-border pt-3 text-sm">
          <Row label="Sous-total" value={formatEuros(order.subtotalCents)} />
          <Row
            label={SIGNATURE_DELIVERY_LABEL}
            value={
              order.insuranceCents > 0
                ? formatEuros(order.insuranceCents)
                : "Non choisie"
            }
            muted={order.insuranceCents === 0}
          />
          {order.discountCents > 0 ? (
            <Row
              label={`Réduction${order.discountCode ? ` (${order.discountCode})` : ""}`}
              value={`−${formatEuros(order.discountCents)}`}
            />
          ) : null}
          {order.shipping ? (
            <Row
              label={`Livraison (${order.shipping.methodName})`}
              value={
                order.shipping.cents === 0
                  ? "Offerte"
                  : formatEuros(order.shipping.cents)
              }
            />
          ) : null}
          <div className="flex items-baseline justify-between gap-3 pt-1">
            <span className="font-semibold">{exempt ? "Total HT" : "Total TTC"}</span>
            <span className="tabular text-xl font-extrabold">
              {formatEuros(order.totalCents)}
            </span>
          </div>
          {order.vatRegime === "franchise" || exempt ? (
            <p className="text-xs text-muted-foreground">{exempt ? INTRA_EU_EXEMPTION_MENTION : FRANCHISE_MENTION}</p>
          ) : null}
          {(exempt ? [] : order.vatBreakdown).map((row) => (
            <Row
              key={row.rateBp}
              label={`dont TVA ${formatVatRate(row.rateBp)}`}
              value={formatEuros(row.vatCents)}
              muted
            />
          ))}
          {/* After the VAT rows, which belong to the total. */}
          {order.refundedCents && order.refundedCents < order.totalCents ? (
            <Row label="Remboursé (en partie, voir les avoirs)" value={`−${formatEuros(order.refundedCents)}`} />
          ) : null}
        </div>
      </section>
      {order.documents.length > 0 ? (
        <section
          aria-labelledby="order-documents-title"
          className="rounded-2xl border border-border bg-card p-5 text-sm"
        >
          <Heading
            id="order-documents-title"
            className="flex items-center gap-2 text-lg font-bold"
          >
            <FileText className="size-5" aria-hidden="true" /> Factures
          </Heading>
          <ul className="mt-3 flex flex-col gap-2">
            {order.documents.map((doc) => (
              <li key={doc.number}>
                {/* A file, not a page of the app: a plain link the browser opens itself. */}
                <a
                  href={documentPath(order.id, doc.number)}
                  className="font-medium text-accent underline-offset-4 hover:underline"
                >
                  {doc.kind === "invoice" ? "Facture" : "Avoir"} {doc.number}{" "}
                  (PDF)
                </a>
                <span className="text-muted-foreground">
                  {" "}
                  – émise le {formatParisDate(doc.issuedAt)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {order.cgv ? (
        <section
          aria-labelledby="order-terms-title"
          className="rounded-2xl border border-border bg-card p-5 text-sm"
        >
          <Heading
            id="order-terms-title"
            className="flex items-center gap-2 text-lg font-bold"
          >
            <Scale className="size-5" aria-hidden="true" /> Conditions de vente
          </Heading>
          <p className="mt-3">
            Les conditions générales de vente en vigueur lors de la commande,
            telles qu'acceptées&nbsp;:{" "}
            {/* A file, not a page of the app: a plain link the browser opens itself. */}
            <a
              href={cgvPath(order.cgv.hash)}
              className="font-medium text-accent underline-offset-4 hover:underline"
            >
              CGV, version {cgvVersionLabel(order.cgv.hash)} du{" "}
              {formatParisDate(order.cgv.createdAt)} (PDF)
            </a>
          </p>
        </section>
      ) : null}
      {address ? (
        <section
          aria-labelledby="order-address-title"
          className="rounded-2xl border border-border bg-card p-5 text-sm"
        >
          <Heading
            id="order-address-title"
            className="flex items-center gap-2 text-lg font-bold"
          >
            {address.method === "relay" ? (
              <MapPin className="size-5" aria-hidden="true" />
            ) : (
              <Truck className="size-5" aria-hidden="true" />
            )}
            {address.method === "relay"
              ? "Livraison en point relais"
              : "Livraison à domicile"}
          </Heading>
          {order.shipping ? (
            <p className="mt-2 text-muted-foreground">
              {order.shipping.methodName}
              {order.shipping.deliveryTime
                ? ` – ${order.shipping.deliveryTime}`
                : ""}
            </p>
          ) : null}
          <address className="mt-3 not-italic leading-6">
            {address.method === "relay" && address.relayPointName ? (
              <>
                <span className="font-semibold">
                  {address.relayPointName}
                  {address.relayPointId ? ` (n° ${address.relayPointId})` : ""}
                </span>
                <br />
              </>
            ) : null}
            {/* A relay point's recipient is known once paid. */}
            {address.fullName ? (
              <>
                {address.fullName}
                <br />
              </>
            ) : null}
            {address.line1}
            {address.line2 ? (
              <>
                <br />
                {address.line2}
              </>
            ) : null}
            <br />
            {address.postalCode} {address.city}
            <br />
            {countryName(address.country)}
            {address.phone ? (
              <>
                <br />
                Tél. {address.phone}
              </>
            ) : null}
          </address>
        </section>
      ) : null}
      {order.billingAddress || order.businessBuyer ? (
        <section
          aria-labelledby="order-billing-title"
          className="rounded-2xl border border-border bg-card p-5 text-sm"
          data-testid="order-billing-address"
        >
          <Heading
            id="order-billing-title"
            className="flex items-center gap-2 text-lg font-bold"
          >
            <ReceiptText className="size-5" aria-hidden="true" />
            Adresse de facturation
          </Heading>
          {order.businessBuyer ? (
            <dl className="mt-3 leading-6" data-testid="order-business-buyer">
              <div>
                <dt className="sr-only">Raison sociale</dt>
                <dd className="font-semibold">{order.businessBuyer.companyName}</dd>
              </div>
              {order.businessBuyer.siren ? (
                <div>
                  <dt className="inline">SIREN&nbsp;: </dt>
                  <dd className="inline tabular">{order.businessBuyer.siren}</dd>
                </div>
              ) : null}
              {order.businessBuyer.vatNumber ? (
                <div>
                  <dt className="inline">N° de TVA intracommunautaire&nbsp;: </dt>
                  <dd className="inline tabular">{order.businessBuyer.vatNumber}</dd>
                </div>
              ) : null}
            </dl>
          ) : null}
          <address className="mt-3 not-italic leading-6">
            {(order.billingAddress ? billingAddressLines(order.billingAddress) : []).map((line, index) => (
              <span key={index} className="block">
                {line}
              </span>
            ))}
          </address>
        </section>
      ) : null}
    </div>
  );
}

function Row({
  label,
  value,
  muted,
}: {
  label: string;
  value: string;
  muted?: boolean;
}) {
  return (
    <div className="flex justify-between gap-3">
      <span>{label}</span>
      <span className={muted ? "text-muted-foreground" : "tabular"}>
        {value}
      </span>
    </div>
  );
}
