import { facturXInvoice } from "~/domain/facturx-invoice";
import type { InvoiceSnapshot } from "~/domain/invoice";

/**
 * A B2B invoice or credit note as a Factur-X (docs/decisions/051): its PDF (invoice-pdf.server.ts)
 * made as a PDF/A-3b, with the EN 16931 CII XML embedded as `factur-x.xml` and the Factur-X XMP
 * metadata. @e-invoice-eu/core writes the XML from the snapshot's data (domain/facturx-invoice.ts)
 * after checking it against its schema of EN 16931 (cardinalities, code lists, formats); pdfkit,
 * which draws the PDF, makes it PDF/A-3 and embeds the file, so the same snapshot still gives the
 * same bytes and the XMP says what the document's info says.
 */

export const FACTUR_X_FILE_NAME = "factur-x.xml";

/** The pdfkit options of a Factur-X: PDF/A-3b (embedded fonts, sRGB output intent, XMP), PDF 1.7. */
export const FACTUR_X_PDF_OPTIONS = { subset: "PDF/A-3b", pdfVersion: "1.7" } as const;

/**
 * The library's format "CII": the EN 16931 CII, guideline urn:cen.eu:en16931:2017, which is the
 * Factur-X profile EN 16931's. (Its "Factur-X-*" formats take a finished PDF and redo its
 * metadata with pdf-lib: the document's title and dates would no longer be the snapshot's.)
 */
const XML_FORMAT = "CII";

/** Invalid data throws the library's ValidationError, which carries the details: nothing to log. */
const quiet = { log() {}, warn() {}, error() {} };

/** The document's CII XML, checked by @e-invoice-eu/core; throws on data its schema refuses. */
export async function facturXml(snapshot: InvoiceSnapshot): Promise<string> {
  // Loaded on the first business document: about a second and 50 MB the server's start and the consumers' documents need not pay.
  const { InvoiceService } = await import("@e-invoice-eu/core");
  const xml = await new InvoiceService(quiet).generate(facturXInvoice(snapshot), { format: XML_FORMAT, lang: "fr-fr", noWarnings: true });
  if (typeof xml !== "string") throw new Error(`${snapshot.number}: the ${XML_FORMAT} format gave no XML`);
  return withLibraryGapsFilled(xml, snapshot.cancelsInvoice);
}

const escapeXml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * What 2.3.4 leaves out, put where the CII schema wants it (tests/integration/facturx.test.ts
 * checks the result against the Factur-X XSD): the delivery's element, which Factur-X wants even
 * empty; a credit note's preceding invoice (BT-25), which its CII writer reads from a place its
 * own schema does not allow.
 */
function withLibraryGapsFilled(xml: string, precedingInvoice: string | null): string {
  let filled = xml;
  if (!filled.includes("<ram:ApplicableHeaderTradeDelivery")) filled = filled.replace("<ram:ApplicableHeaderTradeSettlement>", "<ram:ApplicableHeaderTradeDelivery/>\n\t\t<ram:ApplicableHeaderTradeSettlement>");
  if (precedingInvoice && !filled.includes("<ram:InvoiceReferencedDocument>")) {
    filled = filled.replace(
      "</ram:SpecifiedTradeSettlementHeaderMonetarySummation>",
      `</ram:SpecifiedTradeSettlementHeaderMonetarySummation>\n\t\t\t<ram:InvoiceReferencedDocument>\n\t\t\t\t<ram:IssuerAssignedID>${escapeXml(precedingInvoice)}</ram:IssuerAssignedID>\n\t\t\t</ram:InvoiceReferencedDocument>`,
    );
  }
  return filled;
}

/** pdfkit writes the XMP's dates as this. */
const xmpDate = (date: Date) => `${date.toISOString().split(".")[0]}Z`;

/**
 * The Factur-X XMP (Factur-X 1.0, § "PDF/A-3 metadata"): the extension schema that declares its
 * four properties, then their values. Plus xmp:ModifyDate, which pdfkit leaves out while PDF/A
 * wants the info's ModDate in the XMP too.
 */
function facturXmp(issuedAt: Date): string {
  const property = (name: string, description: string) => `
                <rdf:li rdf:parseType="Resource">
                  <pdfaProperty:name>${name}</pdfaProperty:name>
                  <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                  <pdfaProperty:category>external</pdfaProperty:category>
                  <pdfaProperty:description>${description}</pdfaProperty:description>
                </rdf:li>`;
  return `
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
          <pdfaExtension:schemas>
            <rdf:Bag>
              <rdf:li rdf:parseType="Resource">
                <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                <pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
                <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                <pdfaSchema:property>
                  <rdf:Seq>${property("DocumentFileName", "name of the embedded XML invoice file")}${property("DocumentType", "INVOICE")}${property("Version", "The actual version of the Factur-X XML schema")}${property("ConformanceLevel", "The conformance level of the embedded Factur-X data")}
                  </rdf:Seq>
                </pdfaSchema:property>
              </rdf:li>
            </rdf:Bag>
          </pdfaExtension:schemas>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
          <fx:DocumentType>INVOICE</fx:DocumentType>
          <fx:DocumentFileName>${FACTUR_X_FILE_NAME}</fx:DocumentFileName>
          <fx:Version>1.0</fx:Version>
          <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
          <xmp:ModifyDate>${xmpDate(issuedAt)}</xmp:ModifyDate>
        </rdf:Description>`;
}

/**
 * Embeds the XML in a document made with FACTUR_X_PDF_OPTIONS, before it ends: an associated
 * file of the document (the catalog's /AF) with the relationship Alternative (the XML is the
 * same invoice, as Factur-X asks from the profile BASIC up), dated as the document.
 */
export function embedFacturX(doc: PDFKit.PDFDocument, xml: string, issuedAt: Date): void {
  const file: PDFKit.Mixins.PDFAttachmentOptions & { relationship: "Alternative" } = {
    name: FACTUR_X_FILE_NAME,
    type: "text/xml",
    description: "Factur-X (EN 16931)",
    creationDate: issuedAt,
    modifiedDate: issuedAt,
    relationship: "Alternative",
  };
  doc.file(Buffer.from(xml, "utf8"), file);
  doc.appendXML(facturXmp(issuedAt));
}
