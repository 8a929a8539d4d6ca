import { AlertTriangle } from "lucide-react";
import { type ReactNode, createContext, useContext } from "react";
import { type IdentityKey, type LegalIdentity, RNE_REGISTRATION, isIndividualEntrepreneur, sellerName } from "~/domain/shop-identity";

/** What the legal texts are built from: the seller's identity and a few facts about the site. */
export type LegalFacts = {
  identity: LegalIdentity;
  shopName: string;
  /** The site's address, as the texts name it ("https://boutique.example"). */
  siteUrl: string;
  /** "stripe", or the built-in test page. */
  paymentProvider: string;
  /** The seller sells to professional buyers (/admin/settings): the CGV have their section for them. */
  sellToBusinesses?: boolean;
  /** « Durée de validité des avoirs » (/admin/settings): months, null or absent for no end. */
  storeCreditValidityMonths?: number | null;
};

const LegalFactsContext = createContext<LegalFacts | null>(null);

export function LegalFactsProvider({ facts, children }: { facts: LegalFacts; children: ReactNode }) {
  return <LegalFactsContext value={facts}>{children}</LegalFactsContext>;
}

export function useLegalFacts(): LegalFacts {
  const facts = useContext(LegalFactsContext);
  if (!facts) throw new Error("useLegalFacts must be used within LegalFactsProvider");
  return facts;
}

/** Where a field the seller has not given yet would be: visible, in words, never a blank. */
export function MissingMark({ field }: { field: IdentityKey }) {
  return (
    <span
      data-missing={field}
      className="inline-flex items-center gap-1 rounded-md bg-warning/15 px-1.5 py-0.5 text-[0.9em] font-semibold text-warning ring-1 ring-inset ring-warning/40 print:ring-black"
    >
      <AlertTriangle className="size-[1em] shrink-0" aria-hidden="true" />À compléter par le vendeur
    </span>
  );
}

/**
 * One identity field in the text, as text (React escapes it: markup typed into the admin shows
 * as written), or the missing mark. `render` shapes a given value (a link, a longer name).
 */
export function Id({ field, render }: { field: IdentityKey; render?: (value: string) => ReactNode }) {
  const value = useLegalFacts().identity[field];
  if (!value) return <MissingMark field={field} />;
  return <>{render ? render(value) : value}</>;
}

/** The seller's e-mail as a link (or the mark). */
export function EmailLink() {
  return (
    <Id
      field="email"
      render={(email) => (
        <a href={`mailto:${email}`} className="break-all">
          {email}
        </a>
      )}
    />
  );
}

/** The seller's name as documents print it ("Jeanne Martin EI": shop-identity.ts sellerName), or the mark. */
export function SellerName() {
  const { identity } = useLegalFacts();
  return identity.companyName ? <>{sellerName(identity)}</> : <MissingMark field="companyName" />;
}

/**
 * Where the seller is registered: a company at the RCS (city and number, each or its mark); an
 * entrepreneur individuel at the RCS when they gave it, else in the RNE.
 */
export function Registration() {
  const { identity } = useLegalFacts();
  if (isIndividualEntrepreneur(identity) && !identity.rcsCity && !identity.rcsNumber) return <>{RNE_REGISTRATION}</>;
  return (
    <>
      RCS <Id field="rcsCity" /> <Id field="rcsNumber" />
    </>
  );
}

/** The seller's postal address (or the mark), introduced by the seller's name. */
export function PostalAddress() {
  return (
    <>
      <SellerName />, <Id field="address" />
    </>
  );
}

/** A phone number as a tel: link. */
export function PhoneLink({ field }: { field: "phone" | "hostPhone" }) {
  return <Id field={field} render={(phone) => <a href={`tel:${phone.replace(/[^\d+]/g, "")}`}>{phone}</a>} />;
}
