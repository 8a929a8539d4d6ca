import type { Invoice } from "@e-invoice-eu/core";
import { FRANCHISE_MENTION, INTRA_EU_EXEMPTION_MENTION, type InvoiceLine, type InvoiceSnapshot, MARGIN_SCHEME_MENTION } from "./invoice";
import { centsToDecimalString } from "./money";
import { parisWallTime } from "./paris-time";
import { SHIPPING_COUNTRIES, countryName } from "./shipping-countries";

/**
 * A B2B invoice or credit note as EN 16931 data (docs/decisions/051), in the internal format of
 * @e-invoice-eu/core (UBL's names, which the library writes out as the CII of Factur-X), made
 * from the same frozen snapshot as the PDF and nothing else.
 *
 * Every amount is the PDF's, to the cent: the lines and the charges before VAT as the PDF prints
 * them (their bases add up to each rate's base), the VAT by rate as stored, TTC, and a credit
 * note's amounts positive (EN 16931: type 381 says it is a credit; the snapshot negates them).
 * VAT categories: S at the line's rate (Z at 0 %); E with VATEX-EU-F for margin-scheme goods
 * (VAT on the margin, never shown); E with VATEX-FR-FRANCHISE for everything under the franchise;
 * K with VATEX-EU-IC for an exempt intra-EU supply's lines and charges at 0 % (art. 262 ter I,
 * docs/decisions/054) and a line with no rate otherwise.
 */

type UblInvoice = Invoice["ubl:Invoice"];
type Line = UblInvoice["cac:InvoiceLine"][number];
type DocumentAllowanceCharge = NonNullable<UblInvoice["cac:AllowanceCharge"]>[number];
type VatSubtotal = NonNullable<UblInvoice["cac:TaxTotal"][0]["cac:TaxSubtotal"]>[number];

/** A VAT category (BT-151, BT-95, BT-102, BT-118) with its rate and, for an exemption, why. */
type VatCategory = { code: "S" | "Z" | "E" | "K"; rateBp: number; exemption?: { code: string; text: string } };

const MARGIN_SCHEME: VatCategory = { code: "E", rateBp: 0, exemption: { code: "VATEX-EU-F", text: MARGIN_SCHEME_MENTION } };
const FRANCHISE: VatCategory = { code: "E", rateBp: 0, exemption: { code: "VATEX-FR-FRANCHISE", text: FRANCHISE_MENTION } };
const INTRA_EU: VatCategory = { code: "K", rateBp: 0, exemption: { code: "VATEX-EU-IC", text: INTRA_EU_EXEMPTION_MENTION } };
/** A rate's category: an exempt intra-EU supply's 0 % is K (docs/decisions/054), another 0 % Z, any other S. */
const rated = (snapshot: InvoiceSnapshot) => (rateBp: number): VatCategory =>
  snapshot.vatRegime === "intra_eu_exempt" && rateBp === 0 ? INTRA_EU : { code: rateBp === 0 ? "Z" : "S", rateBp };

const CURRENCY = "EUR" as const;
/** UN/ECE rec. 20 "one" (C62): the unit of a line's quantity. */
const UNIT = "C62" as const;
/** UNTDID 4461: 48, bank card. */
const CARD = "48" as const;
/** EAS / ICD 0002: the SIRENE register, the scheme of a SIREN (BT-30, BT-47). */
const SIRENE = "0002" as const;

/** A snapshot's document is B2B exactly when its buyer names a company (issue 53). */
export function isBusinessDocument(snapshot: InvoiceSnapshot): snapshot is InvoiceSnapshot & { buyer: { business: NonNullable<InvoiceSnapshot["buyer"]["business"]> } } {
  return snapshot.buyer.business !== undefined;
}

/** 20 % → "20", 5,5 % → "5.5". */
const percent = (rateBp: number) => String(rateBp / 100);
const categoryKey = (category: VatCategory) => `${category.code}:${category.rateBp}:${category.exemption?.code ?? ""}`;

function lineCategory(snapshot: InvoiceSnapshot, line: InvoiceLine): VatCategory {
  if (snapshot.vatRegime === "franchise") return FRANCHISE;
  if (line.vatScheme === "margin") return MARGIN_SCHEME;
  return line.vatRateBp === null ? INTRA_EU : rated(snapshot)(line.vatRateBp);
}

/** A line's unit price and net amount (BT-146, BT-131): before VAT where the PDF shows it, else as paid (no VAT shown). */
function lineAmounts(line: InvoiceLine, category: VatCategory): { priceCents: number; netCents: number } {
  return category.exemption
    ? { priceCents: line.unitPriceCents, netCents: line.totalCents }
    : { priceCents: line.unitPriceExclVatCents ?? line.unitPriceCents, netCents: line.totalExclVatCents ?? line.totalCents };
}

function taxCategory(category: VatCategory) {
  return { "cbc:ID": category.code, "cbc:Percent": percent(category.rateBp), "cac:TaxScheme": { "cbc:ID": "VAT" } } as const;
}

/**
 * A postal address typed as lines ("12 rue des Lilas\n75011 Paris\nFrance", or "12 rue des
 * Lilas, 75011 Paris"): the street lines, and a French postcode and city when the last line has
 * them, else that line as the city.
 */
function postalAddress(lines: readonly string[], country: string) {
  const kept = lines.flatMap((line) => line.split(/\r?\n|,\s*(?=\d{5}\s)/)).map((line) => line.trim()).filter((line) => line !== "");
  if (kept.length > 0 && kept.at(-1)!.toLowerCase() === countryName(country).toLowerCase()) kept.pop();
  const place = kept.pop();
  const postcode = place ? /^(\d{5})\s+(.+)$/.exec(place) : null;
  const [first, second, ...rest] = kept;
  return {
    ...(first ? { "cbc:StreetName": first } : {}),
    ...(second ? { "cbc:AdditionalStreetName": second } : {}),
    ...(place ? { "cbc:CityName": postcode ? postcode[2]! : place } : {}),
    ...(postcode ? { "cbc:PostalZone": postcode[1]! } : {}),
    ...(rest.length > 0 ? { "cac:AddressLine": { "cbc:Line": rest.join(", ") } } : {}),
    "cac:Country": { "cbc:IdentificationCode": country as "FR" },
  };
}

/**
 * The delivery address (BG-13, BG-15) as the PDF prints it: its first line the person or the relay
 * point, its last the country, whose code the address needs; none when it has no country.
 */
function deliverTo(delivery: InvoiceSnapshot["delivery"]): UblInvoice["cac:Delivery"] | null {
  const lines = delivery?.addressLines ?? [];
  const country = SHIPPING_COUNTRIES.find(([, name]) => name === lines.at(-1))?.[0];
  if (!country || lines.length < 3) return null;
  return {
    "cac:DeliveryLocation": { "cac:Address": postalAddress(lines.slice(1), country) },
    "cac:DeliveryParty": { "cac:PartyName": { "cbc:Name": lines[0]! } },
  };
}

/** "2026-11-29": the Paris day of an ISO date-time, as the PDF dates it. */
const day = (iso: string) => parisWallTime(new Date(iso)).date;

export function facturXInvoice(snapshot: InvoiceSnapshot): Invoice {
  const business = snapshot.buyer.business;
  if (!business) throw new Error(`${snapshot.number}: not a business buyer's document`);
  // A credit note's amounts are negated in the snapshot, positive in EN 16931 (type 381).
  const sign = snapshot.kind === "credit_note" ? -1 : 1;
  const amount = (cents: number) => centsToDecimalString(sign * cents);
  const franchise = snapshot.vatRegime === "franchise";
  const categoryOfRate = rated(snapshot);
  const subtotals = new Map<string, { category: VatCategory; baseCents: number; vatCents: number }>();
  const addToCategory = (category: VatCategory, baseCents: number) => {
    const key = categoryKey(category);
    const row = subtotals.get(key) ?? { category, baseCents: 0, vatCents: 0 };
    row.baseCents += baseCents;
    subtotals.set(key, row);
  };

  const lines: Line[] = snapshot.lines.map((line, i) => {
    const category = lineCategory(snapshot, line);
    const { priceCents, netCents } = lineAmounts(line, category);
    // The exempt categories' bases come from the lines; the taxed rates' from the stored breakdown.
    if (category.exemption) addToCategory(category, netCents);
    // The discount's share (and the cent a base's rounding may move): quantity × price − net amount.
    const gapCents = sign * (line.quantity * priceCents - netCents);
    const discounted = line.quantity * line.unitPriceCents !== line.totalCents;
    const reason = discounted && snapshot.discount ? `Remise${snapshot.discount.code ? ` « ${snapshot.discount.code} »` : ""}` : "Arrondi de la base hors TVA";
    return {
      "cbc:ID": String(i + 1),
      "cbc:InvoicedQuantity": String(line.quantity),
      "cbc:InvoicedQuantity@unitCode": UNIT,
      "cbc:LineExtensionAmount": amount(netCents),
      "cbc:LineExtensionAmount@currencyID": CURRENCY,
      ...(gapCents !== 0
        ? {
            "cac:AllowanceCharge": [
              {
                "cbc:ChargeIndicator": gapCents < 0 ? "true" : "false",
                "cbc:AllowanceChargeReason": reason,
                "cbc:Amount": centsToDecimalString(Math.abs(gapCents)),
                "cbc:Amount@currencyID": CURRENCY,
              },
            ],
          }
        : {}),
      "cac:Item": { "cbc:Name": line.name, "cac:ClassifiedTaxCategory": taxCategory(category) },
      "cac:Price": { "cbc:PriceAmount": amount(priceCents), "cbc:PriceAmount@currencyID": CURRENCY },
    };
  });

  // Delivery, signature, a refund's adjustment: document-level charges, one per rate (an amount
  // of the other sign, a deduction, is an allowance). One without parts by rate (the franchise,
  // an intra-EU supply) is as paid, in the goods' one exempt category.
  const exempt = [...new Set(snapshot.lines.map((line) => lineCategory(snapshot, line)).filter((category) => category.exemption))];
  const allowanceCharges: DocumentAllowanceCharge[] = [];
  const documentCents = { allowances: 0, charges: 0 };
  for (const charge of snapshot.charges) {
    const parts = charge.parts ?? [];
    if (parts.length === 0 && charge.totalCents !== 0 && exempt.length !== 1) throw new Error(`${snapshot.number}: charge "${charge.label}" has no VAT category`);
    const byCategory: { category: VatCategory; cents: number }[] =
      parts.length > 0 ? parts.map((part) => ({ category: categoryOfRate(part.rateBp), cents: part.exclVatCents })) : [{ category: exempt[0]!, cents: charge.totalCents }];
    for (const part of byCategory) {
      const cents = sign * part.cents;
      if (cents === 0) continue;
      if (part.category.exemption) addToCategory(part.category, part.cents);
      documentCents[cents > 0 ? "charges" : "allowances"] += Math.abs(cents);
      allowanceCharges.push({
        "cbc:ChargeIndicator": cents > 0 ? "true" : "false",
        "cbc:AllowanceChargeReason": charge.label,
        "cbc:Amount": centsToDecimalString(Math.abs(cents)),
        "cbc:Amount@currencyID": CURRENCY,
        "cac:TaxCategory": taxCategory(part.category),
      });
    }
  }

  if (!franchise) for (const row of snapshot.vatBreakdown) subtotals.set(categoryKey(categoryOfRate(row.rateBp)), { category: categoryOfRate(row.rateBp), baseCents: row.baseCents, vatCents: row.vatCents });
  // The rates first, highest first (as the PDF's table), then the exempt categories.
  const rows = [...subtotals.values()].sort((a, b) => Number(Boolean(a.category.exemption)) - Number(Boolean(b.category.exemption)) || b.category.rateBp - a.category.rateBp);
  const vatSubtotals: VatSubtotal[] = rows.map(({ category, baseCents, vatCents }) => ({
    "cbc:TaxableAmount": amount(baseCents),
    "cbc:TaxableAmount@currencyID": CURRENCY,
    "cbc:TaxAmount": amount(vatCents),
    "cbc:TaxAmount@currencyID": CURRENCY,
    "cac:TaxCategory": {
      ...taxCategory(category),
      ...(category.exemption ? { "cbc:TaxExemptionReasonCode": category.exemption.code, "cbc:TaxExemptionReason": category.exemption.text } : {}),
    },
  }));

  const lineTotalCents = snapshot.lines.reduce((total, line) => total + lineAmounts(line, lineCategory(snapshot, line)).netCents, 0);
  const { totals } = snapshot;
  // HT as EN 16931 counts it (BT-109): the PDF's "Total HT" and the margin-scheme goods (category E), so that HT + VAT = TTC.
  const exclVatCents = totals.inclVatCents - totals.vatCents;
  // An invoice is issued once paid; a credit note once refunded on the card.
  const paidCents = snapshot.kind === "credit_note" || snapshot.paidAt ? totals.inclVatCents : 0;
  const seller = snapshot.seller;
  const delivery = deliverTo(snapshot.delivery);
  const legalInformation = [seller.legalForm, seller.shareCapital.trim() ? `au capital de ${seller.shareCapital}` : "", seller.rcs].filter((part) => part.trim() !== "").join(" · ");

  return {
    "ubl:Invoice": {
      "cbc:ID": snapshot.number,
      "cbc:IssueDate": day(snapshot.issuedAt),
      "cbc:InvoiceTypeCode": snapshot.kind === "credit_note" ? "381" : "380",
      // One note: the library writes several as one CII note of several contents, which Factur-X refuses.
      "cbc:Note": [snapshot.mentions.join("\n")],
      "cbc:DocumentCurrencyCode": CURRENCY,
      "cac:OrderReference": { "cbc:SalesOrderID": snapshot.orderNumber },
      ...(snapshot.cancelsInvoice ? { "cac:BillingReference": [{ "cac:InvoiceDocumentReference": { "cbc:ID": snapshot.cancelsInvoice } }] } : {}),
      "cac:AccountingSupplierParty": {
        "cac:Party": {
          "cac:PostalAddress": postalAddress([seller.address], "FR"),
          // The VAT number (BT-31); without one (the franchise), the SIREN as tax registration (BT-32, scheme FC).
          "cac:PartyTaxScheme": seller.vatNumber.trim()
            ? [{ "cbc:CompanyID": seller.vatNumber.trim(), "cac:TaxScheme": { "cbc:ID": "VAT" } }]
            : seller.siren.trim()
              ? [{ "cbc:CompanyID": seller.siren.replace(/\s/g, ""), "cac:TaxScheme": { "cbc:ID": "FC" } }]
              : [],
          "cac:PartyLegalEntity": {
            "cbc:RegistrationName": seller.name,
            ...(seller.siren.trim() ? { "cbc:CompanyID": seller.siren.replace(/\s/g, ""), "cbc:CompanyID@schemeID": SIRENE } : {}),
            ...(legalInformation ? { "cbc:CompanyLegalForm": legalInformation } : {}),
          },
          ...(seller.email.trim() || seller.phone.trim()
            ? { "cac:Contact": { ...(seller.phone.trim() ? { "cbc:Telephone": seller.phone.trim() } : {}), ...(seller.email.trim() ? { "cbc:ElectronicMail": seller.email.trim() } : {}) } }
            : {}),
        },
      },
      "cac:AccountingCustomerParty": {
        "cac:Party": {
          // The billing address's lines start with the person's name.
          "cac:PostalAddress": postalAddress(snapshot.buyer.addressLines.slice(1), business.country),
          ...(business.vatNumber ? { "cac:PartyTaxScheme": { "cbc:CompanyID": business.vatNumber, "cac:TaxScheme": { "cbc:ID": "VAT" } } } : {}),
          "cac:PartyLegalEntity": {
            "cbc:RegistrationName": business.companyName,
            ...(business.siren ? { "cbc:CompanyID": business.siren, "cbc:CompanyID@schemeID": SIRENE } : {}),
          },
          ...(snapshot.buyer.name || snapshot.buyer.email
            ? { "cac:Contact": { ...(snapshot.buyer.name ? { "cbc:Name": snapshot.buyer.name } : {}), ...(snapshot.buyer.email ? { "cbc:ElectronicMail": snapshot.buyer.email } : {}) } }
            : {}),
        },
      },
      ...(delivery ? { "cac:Delivery": delivery } : {}),
      "cac:PaymentMeans": [{ "cbc:PaymentMeansCode": CARD, "cbc:PaymentMeansCode@name": snapshot.paymentMethod }],
      ...(allowanceCharges.length > 0 ? { "cac:AllowanceCharge": allowanceCharges } : {}),
      "cac:TaxTotal": [{ "cbc:TaxAmount": amount(totals.vatCents), "cbc:TaxAmount@currencyID": CURRENCY, "cac:TaxSubtotal": vatSubtotals }],
      "cac:LegalMonetaryTotal": {
        "cbc:LineExtensionAmount": amount(lineTotalCents),
        "cbc:LineExtensionAmount@currencyID": CURRENCY,
        "cbc:TaxExclusiveAmount": amount(exclVatCents),
        "cbc:TaxExclusiveAmount@currencyID": CURRENCY,
        "cbc:TaxInclusiveAmount": amount(totals.inclVatCents),
        "cbc:TaxInclusiveAmount@currencyID": CURRENCY,
        ...(documentCents.allowances > 0 ? { "cbc:AllowanceTotalAmount": centsToDecimalString(documentCents.allowances), "cbc:AllowanceTotalAmount@currencyID": CURRENCY } : {}),
        ...(documentCents.charges > 0 ? { "cbc:ChargeTotalAmount": centsToDecimalString(documentCents.charges), "cbc:ChargeTotalAmount@currencyID": CURRENCY } : {}),
        "cbc:PrepaidAmount": amount(paidCents),
        "cbc:PrepaidAmount@currencyID": CURRENCY,
        "cbc:PayableAmount": amount(totals.inclVatCents - paidCents),
        "cbc:PayableAmount@currencyID": CURRENCY,
      },
      "cac:InvoiceLine": lines as [Line, ...Line[]],
    },
  };
}
