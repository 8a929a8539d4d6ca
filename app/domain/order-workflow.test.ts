import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "./catalog-values";
import { fieldErrors } from "./auth-forms";
import {
  CARRIER_IDS,
  availableActions,
  canDo,
  carrierLabel,
  normaliseTrackingNumber,
  otherProviderMessage,
  refusalMessage,
  shipOrderSchema,
  shipmentOf,
  trackingUrlFor,
} from "./order-workflow";

const errorsOf = (input: unknown) => {
  const result = shipOrderSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

describe("transitions", () => {
  it("ships and cancels-and-refunds from paid only, retries a refund from refund_pending only", () => {
    const table = Object.fromEntries(ORDER_STATUSES.map((status) => [status, availableActions(status)]));
    expect(table).toEqual({
      pending_payment: [],
      paid: ["ship", "cancelRefund"],
      shipped: [],
      cancelled: [],
      expired: [],
      refund_pending: ["retryRefund"],
      refunded: [],
    });
    expect(canDo("ship", "paid")).toBe(true);
    expect(canDo("ship", "shipped")).toBe(false);
    expect(canDo("cancelRefund", "shipped")).toBe(false);
  });

  it("says in French why an action is refused, naming what already happened", () => {
    expect(refusalMessage("ship", "shipped")).toBe("Cette commande a déjà été expédiée\u00a0: aucun nouvel envoi n'a été enregistré.");
    expect(refusalMessage("ship", "refunded")).toMatch(/annulée et remboursée/);
    expect(refusalMessage("ship", "pending_payment")).toMatch(/n'a pas été payée/);
    expect(refusalMessage("cancelRefund", "refunded")).toBe("Cette commande a déjà été remboursée\u00a0: aucun nouveau remboursement n'a été fait.");
    expect(refusalMessage("cancelRefund", "refund_pending")).toBe("Le remboursement de cette commande est déjà en cours.");
    expect(refusalMessage("cancelRefund", "shipped")).toMatch(/^Cette commande a déjà été expédiée/);
    expect(refusalMessage("cancelRefund", "expired")).toMatch(/rien à rembourser/);
    expect(refusalMessage("retryRefund", "paid")).toBe("Aucun remboursement n'est en attente pour cette commande (statut\u00a0: Payée).");
    for (const status of ORDER_STATUSES) {
      for (const action of ["ship", "cancelRefund", "retryRefund"] as const) expect(refusalMessage(action, status)).not.toMatch(/undefined/);
    }
    expect(otherProviderMessage("test")).toContain("(Paiement de test)");
  });
});

describe("carriers and tracking links", () => {
  it("builds each carrier's tracking page with the number", () => {
    expect(trackingUrlFor("colissimo", "6A12345678901")).toBe("https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901");
    expect(trackingUrlFor("lettre_suivie", "1K00000000000")).toBe("https://www.laposte.fr/outils/suivre-vos-envois?code=1K00000000000");
    expect(trackingUrlFor("chronopost", "XY123456789FR")).toBe("https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=XY123456789FR&langue=fr");
    expect(trackingUrlFor("mondial_relay", "12345678")).toBe("https://www.mondialrelay.fr/suivi-de-colis/?NumeroExpedition=12345678");
    expect(trackingUrlFor("ups", "1Z999AA10123456784")).toBe("https://www.ups.com/track?loc=fr_FR&tracknum=1Z999AA10123456784");
    expect(trackingUrlFor("dhl", "1234567890")).toBe("https://www.dhl.com/fr-fr/home/suivi.html?tracking-id=1234567890&submit=1");
    for (const id of CARRIER_IDS.filter((c) => c !== "autre")) expect(trackingUrlFor(id, "AB-12")).toMatch(/^https:\/\/[^ ]+AB-12/);
  });

  it("takes the seller's link for Autre, or none", () => {
    expect(trackingUrlFor("autre", "ABCD", "https://suivi.exemple.fr/ABCD")).toBe("https://suivi.exemple.fr/ABCD");
    expect(trackingUrlFor("autre", "ABCD", "  ")).toBeNull();
    expect(trackingUrlFor("autre", "ABCD")).toBeNull();
  });

  it("labels stored carriers", () => {
    expect(carrierLabel("mondial_relay")).toBe("Mondial Relay");
    expect(carrierLabel("lettre_suivie")).toBe("La Poste Lettre suivie");
    expect(carrierLabel("pigeon")).toBe("pigeon");
    expect(carrierLabel(null)).toBeNull();
  });
});

describe("shipOrderSchema", () => {
  it("accepts a carrier and a number, normalised without spaces and in capitals", () => {
    expect(normaliseTrackingNumber(" 6a 1234 5678 901 ")).toBe("6A12345678901");
    const parsed = shipOrderSchema.parse({ carrier: "colissimo", trackingNumber: "6a 1234 5678 901", intent: "ship" });
    expect(parsed).toEqual({ carrier: "colissimo", trackingNumber: "6A12345678901" });
    expect(shipmentOf(parsed)).toEqual({ carrier: "colissimo", trackingNumber: "6A12345678901", trackingUrl: "https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901" });
  });

  it("refuses a missing carrier or number with French messages", () => {
    expect(errorsOf({})).toEqual({ carrier: "Choisissez un transporteur.", trackingNumber: "Indiquez le numéro de suivi." });
    expect(errorsOf({ carrier: "", trackingNumber: "   " })).toEqual({ carrier: "Choisissez un transporteur.", trackingNumber: "Indiquez le numéro de suivi." });
    expect(errorsOf({ carrier: "pigeon", trackingNumber: "ABCD" })).toEqual({ carrier: "Choisissez un transporteur." });
  });

  it("refuses a number too short, too long or with other characters", () => {
    expect(errorsOf({ carrier: "ups", trackingNumber: "AB1" })).toEqual({ trackingNumber: "Le numéro de suivi doit contenir au moins 4 caractères." });
    expect(errorsOf({ carrier: "ups", trackingNumber: "A".repeat(41) })).toEqual({ trackingNumber: "Le numéro de suivi doit contenir au plus 40 caractères." });
    for (const bad of ["<script>", "AB/12/34", "ABC_123", "12€34"]) {
      expect(errorsOf({ carrier: "dhl", trackingNumber: bad })).toEqual({ trackingNumber: "Le numéro de suivi ne peut contenir que des lettres, des chiffres et des tirets." });
    }
  });

  it("takes an https link for Autre and ignores a link for the known carriers", () => {
    const other = shipOrderSchema.parse({ carrier: "autre", trackingNumber: "XYZ-1", trackingUrl: " https://suivi.exemple.fr/XYZ-1 " });
    expect(shipmentOf(other).trackingUrl).toBe("https://suivi.exemple.fr/XYZ-1");
    expect(shipmentOf(shipOrderSchema.parse({ carrier: "autre", trackingNumber: "XYZ-1" })).trackingUrl).toBeNull();
    for (const bad of ["javascript:alert(1)", "http://suivi.exemple.fr", "pas un lien"]) {
      expect(errorsOf({ carrier: "autre", trackingNumber: "XYZ-1", trackingUrl: bad })).toEqual({ trackingUrl: "Le lien de suivi doit être une adresse commençant par https://." });
    }
    const known = shipOrderSchema.parse({ carrier: "dhl", trackingNumber: "1234567890", trackingUrl: "javascript:alert(1)" });
    expect(shipmentOf(known).trackingUrl).toBe("https://www.dhl.com/fr-fr/home/suivi.html?tracking-id=1234567890&submit=1");
  });
});
