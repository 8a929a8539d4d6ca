import { describe, expect, it } from "vitest";
import { type EmailContent, escapeHtml } from "./email-templates";
import { formatEuros } from "./money";
import {
  latePaymentRefundEmail,
  orderCancelledRefundEmail,
  orderConfirmationEmail,
  orderShippedEmail,
  orderTable,
  preorderPartialRefundEmail,
  preorderServedEmail,
  preorderShortageRefundEmail,
  sellerLatePaymentEmail,
  sellerNewOrderEmail,
} from "./order-emails";
import type { OrderView } from "./order-view";
import { EMPTY_IDENTITY } from "./shop-identity";

const shop = {
  name: "Comptoir",
  email: "contact@comptoir.example",
  publicUrl: "https://comptoir.example",
};
const adminUrl = "https://comptoir.example/admin";
const orderUrl = "https://comptoir.example/account/orders/CMP-2025-0042";

const legal = {
  ...EMPTY_IDENTITY,
  companyName: "Comptoir",
  legalForm: "SASU",
  shareCapital: "1 000 €",
  rcsCity: "Paris",
  rcsNumber: "123 456 789",
  siren: "123 456 789",
  address: "12 rue des Collectionneurs, 75011 Paris",
  email: "contact@comptoir.example",
  phone: "01 23 45 67 89",
  mediatorName: "CM2C",
  mediatorUrl: "https://www.cm2c.net",
};

/** Paid order, relay delivery, with insurance and a discount. */
const relayOrder: OrderView = {
  id: "5b0b8e9e-3f43-4a5c-9d55-8d1b8b2b0a11",
  number: "CMP-2025-0042",
  status: "paid",
  refundReason: null,
  createdAt: "2025-03-05T13:30:00.000Z",
  paidAt: "2025-03-05T13:34:00.000Z",
  customerEmail: "marie@example.fr",
  customerName: "Marie Curie",
  lines: [
    {
      productId: 1,
      name: "Booster Écarlate et Violet",
      unitPriceCents: 599,
      quantity: 3,
      lineTotalCents: 1797,
    },
    {
      productId: 2,
      name: "Display Mascarade Crépusculaire (36 boosters, version française)",
      unitPriceCents: 21_990,
      quantity: 1,
      lineTotalCents: 21_990,
    },
  ],
  subtotalCents: 23_787,
  insuranceCents: 350,
  discountCents: 1000,
  discountCode: "BIENVENUE",
  totalCents: 23_137,
  shippingAddress: {
    method: "relay",
    fullName: "Marie Curie",
    relayPointName: "Tabac de la Gare",
    line1: "12 rue de la Gare",
    postalCode: "69007",
    city: "Lyon",
    country: "FR",
    phone: "06 12 34 56 78",
  },
  shipping: {
    methodName: "Point relais",
    kind: "relay",
    deliveryTime: "3 à 5 jours ouvrés",
    cents: 0,
  },
  vatRegime: "normal",
  vatBreakdown: [
    { rateBp: 2000, baseCents: 19_281, vatCents: 3_856, totalCents: 23_137 },
  ],
  documents: [
    {
      kind: "invoice",
      number: "F-2025-000042",
      issuedAt: "2025-03-05T13:34:00.000Z",
    },
  ],
};

/** Home delivery, no insurance, no discount, no phone. */
const homeOrder: OrderView = {
  ...relayOrder,
  number: "CMP-2025-0043",
  lines: [
    {
      productId: 3,
      name: "Coffret Dresseur d'élite",
      unitPriceCents: 5499,
      quantity: 2,
      lineTotalCents: 10_998,
    },
  ],
  subtotalCents: 10_998,
  insuranceCents: 0,
  discountCents: 0,
  discountCode: null,
  totalCents: 10_998,
  shippingAddress: {
    method: "home",
    fullName: "Pierre Curie",
    line1: "3 place du Panthéon",
    line2: "Bâtiment B",
    postalCode: "75005",
    city: "Paris",
    country: "BE",
  },
  // An order from before delivery methods: no delivery line, no VAT breakdown, no invoice.
  shipping: null,
  vatBreakdown: [],
  documents: [],
};

const shipment = {
  carrierLabel: "Colissimo",
  trackingNumber: "6A12345678901",
  trackingUrl:
    "https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901",
};

const hostile = `<script>alert("x")</script>`;
const hostileOrder: OrderView = {
  ...relayOrder,
  customerName: `Eve ${hostile}`,
  customerEmail: `eve+<b>@example.fr`,
  discountCode: `<i>CODE</i>`,
  lines: [
    {
      productId: 9,
      name: `Carte ${hostile} & co`,
      unitPriceCents: 100,
      quantity: 1,
      lineTotalCents: 100,
    },
  ],
  shippingAddress: {
    ...relayOrder.shippingAddress!,
    relayPointName: `Relais ${hostile}`,
    line1: `1 rue <img src=x>`,
    fullName: `Eve ${hostile}`,
  },
};

/** Each string is in the text as is, and in the HTML escaped. */
function expectInBoth(email: EmailContent, ...strings: string[]) {
  for (const value of strings) {
    expect(email.html).toContain(escapeHtml(value));
    expect(email.text).toContain(value);
  }
}

function allEmails(order: OrderView): [string, EmailContent][] {
  return [
    [
      "confirmation",
      orderConfirmationEmail({
        shop,
        seller: legal,
        invoiceUrl: null,
        order,
        orderUrl,
      }),
    ],
    [
      "confirmation (guest)",
      orderConfirmationEmail({
        shop,
        seller: legal,
        invoiceUrl: null,
        order,
        orderUrl: null,
      }),
    ],
    ["seller new order", sellerNewOrderEmail({ shop, order, adminUrl })],
    ["late payment refund", latePaymentRefundEmail({ shop, order })],
    [
      "seller late payment (refunded)",
      sellerLatePaymentEmail({ shop, order, refunded: true, adminUrl }),
    ],
    [
      "seller late payment (by hand)",
      sellerLatePaymentEmail({ shop, order, refunded: false, adminUrl }),
    ],
    ["shipped", orderShippedEmail({ shop, order, shipment, orderUrl })],
    [
      "shipped (no link)",
      orderShippedEmail({
        shop,
        order,
        shipment: { ...shipment, trackingUrl: null },
        orderUrl: null,
      }),
    ],
    ["cancelled and refunded", orderCancelledRefundEmail({ shop, order })],
    ["pre-order not served", preorderShortageRefundEmail({ shop, order })],
  ];
}

/** One unit of three not delivered: its refund (issue 55). */
const preorderRefund = {
  amountCents: 12_000,
  lines: [{ name: "Display Évolutions Prismatiques", quantity: 1, totalCents: 12_000 }],
  shippingCents: 0,
  insuranceCents: 0,
  adjustment: null,
  creditNoteNumber: "AV-2026-00012",
  refundedSoFarCents: 12_000,
};

/** Every template shows the order and its lines. */
function expectOrderShown(email: EmailContent, order: OrderView) {
  expectInBoth(
    email,
    order.number,
    "Total TTC",
    formatEuros(order.subtotalCents),
    formatEuros(order.totalCents),
  );
  for (const line of order.lines)
    expectInBoth(
      email,
      line.name,
      formatEuros(line.unitPriceCents),
      formatEuros(line.lineTotalCents),
    );
}

describe("orderTable", () => {
  it("lists name, quantity, unit price and line total, then subtotal, insurance, discount and total", () => {
    const table = orderTable(relayOrder);
    expect(table.html).toContain(">Article</th>");
    expect(table.html).toContain(">Qté</th>");
    expect(table.html).toContain(">Prix unit.</th>");
    expect(table.html).toContain(">Booster Écarlate et Violet</td>");
    expect(table.html).toContain(`>${formatEuros(599)}</td>`);
    expect(table.html).toContain(`>${formatEuros(1797)}</td>`);
    expect(table.html).toContain(">Remise contre signature</td>");
    expect(table.html).toContain(`>${formatEuros(350)}</td>`);
    expect(table.html).toContain(">Réduction (BIENVENUE)</td>");
    expect(table.html).toContain(`>−${formatEuros(1000)}</td>`);
    expect(table.html).toContain(`>${formatEuros(23_137)}</td>`);
    expect(table.html).toContain("font-variant-numeric:tabular-nums");
  });

  it("aligns the amounts in the plain text, with long names on a line of their own", () => {
    const lines = orderTable(relayOrder).text.split("\n");
    const amounts = lines.filter((line) => line.endsWith("€"));
    expect(amounts).toHaveLength(7); // 2 lines, subtotal, insurance, discount, total, VAT (the free delivery says "Offerte")
    expect(new Set(amounts.map((line) => line.length)).size).toBe(1);
    const booster = lines.find((line) =>
      line.startsWith("Booster Écarlate et Violet"),
    )!;
    expect(booster).toMatch(
      new RegExp(`\\s3\\s+${formatEuros(599)}\\s+${formatEuros(1797)}$`),
    );
    const display = lines.indexOf(
      "Display Mascarade Crépusculaire (36 boosters, version française)",
    );
    expect(display).toBeGreaterThan(0);
    expect(lines[display + 1]).toMatch(
      new RegExp(`^\\s+1\\s+${formatEuros(21_990)}\\s+${formatEuros(21_990)}$`),
    );
    expect(lines).toContain(
      `Réduction (BIENVENUE)${" ".repeat(amounts[0]!.length - "Réduction (BIENVENUE)".length - formatEuros(1000).length - 1)}−${formatEuros(1000)}`,
    );
  });

  it("leaves insurance and discount out when they are zero", () => {
    const table = orderTable(homeOrder);
    for (const part of [table.html, table.text]) {
      expect(part).not.toContain("Remise contre signature");
      expect(part).not.toContain("Réduction");
      expect(part).toContain("Sous-total");
      expect(part).toContain(formatEuros(10_998));
    }
  });

  it("says just 'Réduction' when the discount has no code", () => {
    const table = orderTable({ ...relayOrder, discountCode: null });
    expect(table.text).toMatch(/^Réduction {2,}/m);
    expect(table.text).not.toContain("Réduction (");
  });
});

describe("orderConfirmationEmail", () => {
  const email = orderConfirmationEmail({
    shop,
    seller: legal,
    invoiceUrl: null,
    order: relayOrder,
    orderUrl,
  });

  it("has the subject, heading and preheader", () => {
    expect(email.subject).toBe(
      "Confirmation de votre commande CMP-2025-0042 – Comptoir",
    );
    expect(email.html).toContain("Merci pour votre commande !");
    expect(email.html).toContain(
      `Commande CMP-2025-0042 confirmée – total ${formatEuros(23_137)}</div>`,
    );
  });

  it("greets the customer and gives the number, the French date, the lines and the totals", () => {
    expectOrderShown(email, relayOrder);
    expectInBoth(
      email,
      "Bonjour Marie Curie,",
      "5 mars 2025 à 14:30",
      "Remise contre signature",
      formatEuros(350),
      "Réduction (BIENVENUE)",
      `−${formatEuros(1000)}`,
    );
    expect(email.text).toContain("Commande : CMP-2025-0042");
    expect(email.text).toContain("Date : 5 mars 2025 à 14:30");
  });

  it("shows the relay point with its full address and the phone", () => {
    expectInBoth(
      email,
      "Livraison en point relais",
      "Point relais : Tabac de la Gare",
      "12 rue de la Gare",
      "69007 Lyon",
      "France",
      "Destinataire : Marie Curie",
      "Tél. 06 12 34 56 78",
    );
    expect(email.html).toContain(
      "Point relais : Tabac de la Gare<br>12 rue de la Gare<br>69007 Lyon<br>France<br>Destinataire : Marie Curie<br>Tél. 06 12 34 56 78</p>",
    );
    expect(email.text).toContain(
      "Point relais : Tabac de la Gare\n12 rue de la Gare\n69007 Lyon\nFrance\nDestinataire : Marie Curie\nTél. 06 12 34 56 78",
    );
  });

  it("shows a home address without relay wording, insurance or discount", () => {
    const home = orderConfirmationEmail({
      shop,
      seller: legal,
      invoiceUrl: null,
      order: homeOrder,
      orderUrl,
    });
    expectOrderShown(home, homeOrder);
    expect(home.text).toContain("Adresse de livraison\n");
    expect(home.text).toContain(
      "Pierre Curie\n3 place du Panthéon\nBâtiment B\n75005 Paris\nBelgique",
    );
    for (const part of [home.html, home.text]) {
      expect(part).not.toContain("Point relais");
      expect(part).not.toContain("Tél.");
      expect(part).not.toContain("Remise contre signature");
      expect(part).not.toContain("Réduction");
    }
  });

  it("links to the order when there is a page for it, and not otherwise", () => {
    expect(email.text).toContain(`Voir ma commande : ${orderUrl}`);
    expect(email.html).toContain(`href="${orderUrl}"`);
    const guest = orderConfirmationEmail({
      shop,
      seller: legal,
      invoiceUrl: null,
      order: relayOrder,
      orderUrl: null,
    });
    expect(guest.text).not.toContain("Voir ma commande");
    expect(guest.html).not.toContain("Voir ma commande");
  });

  it("holds every item L221-13 asks of the confirmation on a durable medium, in both parts", () => {
    const invoiceUrl = `https://comptoir.example/commande/${relayOrder.id}/documents/F-2025-000042.pdf`;
    const email = orderConfirmationEmail({
      shop,
      seller: legal,
      invoiceUrl,
      order: relayOrder,
      orderUrl,
    });
    expectInBoth(
      email,
      // The seller's identity.
      "Comptoir, société par actions simplifiée unipersonnelle (SASU), au capital de 1 000 €",
      "12 rue des Collectionneurs, 75011 Paris",
      "123 456 789 – RCS Paris 123 456 789",
      "01 23 45 67 89",
      // The recap with the delivery method, its cost and the VAT.
      "Point relais (3 à 5 jours ouvrés)",
      "Livraison (Point relais)",
      "Offerte",
      `dont TVA 20\u00a0%`,
      formatEuros(3_856),
      "F-2025-000042",
      // The CGV, the withdrawal function and the model form.
      "https://comptoir.example/legal",
      "https://comptoir.example/retractation",
      "Formulaire de rétractation",
      "À l'attention de Comptoir, 12 rue des Collectionneurs, 75011 Paris, adresse électronique\u00a0: contact@comptoir.example\u00a0:",
      "Nom du (des) consommateur(s)\u00a0:",
      // The legal guarantees and the mediator.
      "Garanties légales",
      "Le consommateur dispose d'un délai de deux ans à compter de la délivrance du bien pour obtenir la mise en œuvre de la garantie légale de conformité",
      "garantie légale des vices cachés",
      "CM2C, https://www.cm2c.net",
    );
    // The invoice, as a link.
    expect(email.html).toContain(`href="${invoiceUrl}"`);
    expect(email.text).toContain(invoiceUrl);
  });

  it("says the VAT is not applicable under the franchise en base", () => {
    const email = orderConfirmationEmail({
      shop,
      seller: legal,
      invoiceUrl: null,
      order: { ...relayOrder, vatRegime: "franchise", vatBreakdown: [] },
      orderUrl,
    });
    expectInBoth(email, "TVA non applicable, art. 293 B du CGI");
    expect(email.text).not.toContain("dont TVA");
  });

  it("states the right of withdrawal (Code de la consommation) in both parts", () => {
    expectInBoth(
      email,
      "Droit de rétractation",
      "Vous disposez de 14 jours à compter de la réception de vos articles pour vous rétracter, sans avoir à donner de motif.",
      "déclaration claire de votre décision, par exemple le formulaire ci-dessous, par e-mail à contact@comptoir.example",
      "Renvoyez-nous ensuite les articles au plus tard 14 jours après nous avoir informés de votre décision. Les frais de retour sont à votre charge.",
      "Nous vous remboursons la totalité des sommes versées, frais de livraison standard compris, au plus tard 14 jours après avoir été informés de votre rétractation",
      "Un jeu vidéo descellé après livraison ne peut plus être retourné (article L221-28 du Code de la consommation). Un booster ou un display ouvert peut l'être, mais le remboursement peut être diminué de sa dépréciation (article L221-23).",
    );
    expect(email.text.indexOf("Droit de rétractation")).toBeGreaterThan(
      email.text.indexOf("Total TTC"),
    );
    expect(email.text).toContain(
      "Écrivez-nous à contact@comptoir.example en rappelant le numéro de commande CMP-2025-0042",
    );
  });

  it("greets without a name when there is none", () => {
    expect(
      orderConfirmationEmail({
        shop,
        seller: legal,
        invoiceUrl: null,
        order: { ...relayOrder, customerName: null },
        orderUrl,
      }).text,
    ).toContain("\n\nBonjour,\n\n");
  });
});

describe("the delivery address someone typed", () => {
  it("reaches the e-mail inert: no address in it becomes a link", () => {
    const order: OrderView = {
      ...homeOrder,
      customerName: "Pierre www.evil.test",
      shippingAddress: { ...homeOrder.shippingAddress!, fullName: "Pierre https://evil.test", line2: "voir www.evil.test" },
    };
    const email = orderConfirmationEmail({ shop, seller: legal, invoiceUrl: null, order, orderUrl });
    for (const part of [email.html, email.text]) expect(part).not.toMatch(/evil\.test|https:\/\/evil/);
    expect(email.text).toContain("Pierre https[:]//evil[.]test");
    expect(email.text).toContain("3 place du Panthéon");
  });
});

describe("sellerNewOrderEmail", () => {
  const email = sellerNewOrderEmail({ shop, order: relayOrder, adminUrl });

  it("gives the order, the customer, the lines, the relay point and a link to the admin", () => {
    expect(email.subject).toBe(
      `Nouvelle commande CMP-2025-0042 – ${formatEuros(23_137)}`,
    );
    expectOrderShown(email, relayOrder);
    expectInBoth(
      email,
      "Marie Curie",
      "marie@example.fr",
      "Point relais : Tabac de la Gare",
      "69007 Lyon",
      "Remise contre signature",
      "Réduction (BIENVENUE)",
    );
    expect(email.text).toContain("Statut : Payée");
    expect(email.text).toContain(`Ouvrir l'administration : ${adminUrl}`);
    expect(email.html).toContain(`href="${adminUrl}"`);
  });

  it("copes with a customer without name or e-mail", () => {
    const anonymous = sellerNewOrderEmail({
      shop,
      order: { ...homeOrder, customerName: null, customerEmail: null },
      adminUrl,
    });
    expect(anonymous.text).toContain("Client : non renseigné");
    expect(anonymous.text).toContain("E-mail : non renseigné");
    expect(anonymous.text).not.toContain("Remise contre signature");
    expect(anonymous.text).not.toContain("Réduction");
  });
});

describe("latePaymentRefundEmail", () => {
  const email = latePaymentRefundEmail({ shop, order: relayOrder });

  it("apologises and says how much comes back, when, with a link to the shop", () => {
    expect(email.subject).toBe(
      "Commande CMP-2025-0042 : paiement remboursé – Comptoir",
    );
    expectOrderShown(email, relayOrder);
    expectInBoth(
      email,
      "Bonjour Marie Curie,",
      "sincèrement désolés",
      `Nous vous avons remboursé l'intégralité de votre paiement, soit ${formatEuros(23_137)}.`,
      "sous 5 à 10 jours ouvrés",
    );
    expect(email.text).toContain(
      "Retourner sur la boutique : https://comptoir.example",
    );
    expect(email.html).toContain('href="https://comptoir.example"');
  });
});

describe("sellerLatePaymentEmail", () => {
  it("says the refund was automatic when it was", () => {
    const email = sellerLatePaymentEmail({
      shop,
      order: relayOrder,
      refunded: true,
      adminUrl,
    });
    expect(email.subject).toBe("Paiement tardif remboursé – CMP-2025-0042");
    expectOrderShown(email, relayOrder);
    expect(email.text).toContain(
      `Le client a été remboursé automatiquement de ${formatEuros(23_137)}`,
    );
    expect(email.text).not.toContain("à la main");
    expect(email.text).toContain(`Ouvrir l'administration : ${adminUrl}`);
  });

  it("says prominently, first thing, that the refund must be done by hand when it failed", () => {
    const email = sellerLatePaymentEmail({
      shop,
      order: { ...relayOrder, status: "refund_pending" },
      refunded: false,
      adminUrl,
    });
    expect(email.subject).toBe("À rembourser à la main – CMP-2025-0042");
    expectOrderShown(email, relayOrder);
    expect(email.text).toMatch(
      /^Paiement tardif à rembourser à la main\n\n\/!\\ À FAIRE : LE REMBOURSEMENT AUTOMATIQUE DE .* A ÉCHOUÉ\. REMBOURSEZ LE CLIENT À LA MAIN/,
    );
    expect(email.html).toContain("border-left:4px solid #dc2626");
    expect(email.html).toContain(
      `À faire : le remboursement automatique de ${formatEuros(23_137)} a échoué. Remboursez le client à la main`,
    );
    expect(email.text).toContain("Statut : Remboursement en cours");
    expect(email.text).not.toContain("remboursé automatiquement");
  });
});

describe("orderShippedEmail", () => {
  const email = orderShippedEmail({
    shop,
    order: relayOrder,
    shipment,
    orderUrl,
  });

  it("gives the carrier, the tracking number and the link to follow the parcel", () => {
    expect(email.subject).toBe(
      "Votre commande CMP-2025-0042 a été expédiée – Comptoir",
    );
    expect(email.html).toContain("Votre commande est en route !");
    expectOrderShown(email, relayOrder);
    expectInBoth(
      email,
      "Bonjour Marie Curie,",
      "Colissimo",
      "6A12345678901",
      "Point relais : Tabac de la Gare",
    );
    expect(email.text).toContain(
      "Transporteur : Colissimo\nNuméro de suivi : 6A12345678901",
    );
    expect(email.text).toContain(`Suivre mon colis : ${shipment.trackingUrl}`);
    expect(email.html).toContain(`href="${escapeHtml(shipment.trackingUrl)}"`);
    expect(email.text).toContain(`Voir ma commande : ${orderUrl}`);
  });

  it("without a link, tells the customer to use the number on the carrier's site", () => {
    const bare = orderShippedEmail({
      shop,
      order: homeOrder,
      shipment: {
        carrierLabel: "Autre",
        trackingNumber: "XYZ-1",
        trackingUrl: null,
      },
      orderUrl: null,
    });
    expect(bare.text).not.toContain("Suivre mon colis");
    expect(bare.text).not.toContain("Voir ma commande");
    expect(bare.text).toContain(
      "Suivez votre colis sur le site du transporteur avec ce numéro de suivi.",
    );
    expect(bare.text).toContain("Numéro de suivi : XYZ-1");
  });
});

describe("orderCancelledRefundEmail", () => {
  it("says the seller cancelled the order and how much comes back, not the late-payment story", () => {
    const email = orderCancelledRefundEmail({ shop, order: relayOrder });
    expect(email.subject).toBe(
      "Commande CMP-2025-0042 annulée et remboursée – Comptoir",
    );
    expectOrderShown(email, relayOrder);
    expectInBoth(
      email,
      "Votre commande a été annulée",
      `Nous vous avons remboursé l'intégralité de votre paiement, soit ${formatEuros(23_137)}.`,
      "sous 5 à 10 jours ouvrés",
    );
    expect(email.text).not.toContain("délai de réservation");
    expect(
      latePaymentRefundEmail({ shop, order: relayOrder }).subject,
    ).not.toBe(email.subject);
  });
});

describe("the pre-order refunds of a short delivery (issue 55)", () => {
  it("apologise and give the reason, whole or for the missing units, in French", () => {
    const whole = preorderShortageRefundEmail({ shop, order: relayOrder });
    expect(whole.subject).toBe("Commande CMP-2025-0042 : précommande non honorée, paiement remboursé – Comptoir");
    expectOrderShown(whole, relayOrder);
    expectInBoth(
      whole,
      "Toutes nos excuses : précommande non honorée",
      "Le distributeur ne nous a livré qu'une partie des exemplaires que nous avions commandés pour cette sortie",
      "votre précommande CMP-2025-0042 n'a malheureusement pas pu être servie",
      `Nous vous avons remboursé l'intégralité de votre paiement, soit ${formatEuros(23_137)}.`,
    );
    const partial = preorderPartialRefundEmail({ shop, order: relayOrder, refund: preorderRefund, orderUrl });
    expect(partial.subject).toBe(`Commande CMP-2025-0042 : précommande servie en partie, ${formatEuros(12_000)} remboursés – Comptoir`);
    expectInBoth(
      partial,
      "Toutes nos excuses : précommande servie en partie",
      "votre précommande CMP-2025-0042 n'a pu être servie qu'en partie",
      `Nous vous avons remboursé ceux qui manquent (1 × Display Évolutions Prismatiques), soit ${formatEuros(12_000)}`,
      "AV-2026-00012",
    );
    expect(partial.html).toContain(orderUrl);
  });

  it("confirm a pre-order served in full, with its estimated delivery date", () => {
    const served = preorderServedEmail({ shop, order: relayOrder, productName: "Display Évolutions Prismatiques", units: 2, estimatedDeliveryOn: "2026-03-06", orderUrl });
    expect(served.subject).toBe("Commande CMP-2025-0042 : votre précommande est confirmée – Comptoir");
    expectInBoth(served, "Votre précommande est confirmée", "votre précommande CMP-2025-0042 est servie en entier (2 exemplaire(s))", "livraison estimée au 6 mars 2026");
    expect(served.html).toContain(orderUrl);
    expect(served.text).not.toContain("excuses");
  });
});

describe("every order e-mail", () => {
  it("never shows undefined, null or NaN", () => {
    for (const order of [
      relayOrder,
      homeOrder,
      {
        ...homeOrder,
        customerName: null,
        customerEmail: null,
        paidAt: null,
        shippingAddress: null,
      },
    ]) {
      for (const [name, email] of allEmails(order)) {
        for (const part of [email.subject, email.html, email.text]) {
          expect(part, name).not.toMatch(/\bundefined\b|\bnull\b|\bNaN\b/);
        }
      }
    }
  });

  it("shows a relay point without a name as just 'Point relais'", () => {
    const order = {
      ...relayOrder,
      shippingAddress: {
        ...relayOrder.shippingAddress!,
        relayPointName: undefined,
      },
    };
    const email = orderConfirmationEmail({
      shop,
      seller: legal,
      invoiceUrl: null,
      order,
      orderUrl,
    });
    expect(email.text).toContain("Point relais\n12 rue de la Gare");
    expect(email.text).not.toMatch(/\bundefined\b/);
  });

  it("escapes customer-supplied text in the HTML and keeps it as is in the text", () => {
    for (const [name, email] of allEmails(hostileOrder)) {
      expect(email.html, name).not.toContain("<script>");
      expect(email.html, name).not.toContain("<img");
      expect(email.html, name).not.toContain("<i>");
      expect(email.html, name).not.toContain("<b>");
      expect(email.html, name).toContain(
        "Carte &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co",
      );
      expect(email.text, name).toContain(`Carte ${hostile} & co`);
    }
    const confirmation = orderConfirmationEmail({
      shop,
      seller: legal,
      invoiceUrl: null,
      order: hostileOrder,
      orderUrl,
    });
    expect(confirmation.html).toContain("Bonjour Eve &lt;script&gt;");
    expect(confirmation.html).toContain("Point relais : Relais &lt;script&gt;");
    expect(confirmation.html).toContain("Réduction (&lt;i&gt;CODE&lt;/i&gt;)");
    expect(confirmation.text).toContain(`Bonjour Eve ${hostile},`);
    expect(confirmation.text).toContain(`Point relais : Relais ${hostile}`);
    expect(confirmation.text).toContain("Réduction (<i>CODE</i>)");
    const seller = sellerNewOrderEmail({ shop, order: hostileOrder, adminUrl });
    expect(seller.html).toContain("eve+&lt;b&gt;@example.fr");
    expect(seller.text).toContain("eve+<b>@example.fr");
  });
});

describe("the confirmation with the seller's identity incomplete (issue 52)", () => {
  /** What /admin/settings holds on a fresh shop: nothing but the form. */
  const bare = { ...EMPTY_IDENTITY, legalForm: "SASU" };
  const confirmation = (seller: typeof legal) => orderConfirmationEmail({ shop, seller, invoiceUrl: null, order: relayOrder, orderUrl });

  it("leaves a missing field out, never an empty one between commas or an empty label", () => {
    for (const seller of [bare, { ...legal, address: "" }, { ...legal, email: "" }, { ...legal, companyName: "", legalForm: "", shareCapital: "" }]) {
      const email = confirmation(seller);
      for (const part of [email.text, email.html]) {
        expect(part).not.toMatch(/,\s*,/);
      }
      expect(email.text).not.toMatch(/^(Siège|E-mail|SIREN|Téléphone|TVA intracommunautaire) :\s*$/m);
    }
    expectInBoth(confirmation({ ...legal, address: "" }), "À l'attention de Comptoir, adresse électronique\u00a0: contact@comptoir.example\u00a0:");
    expectInBoth(confirmation(bare), "À l'attention de Comptoir\u00a0:");
  });

  it("names no e-mail the seller has not saved, not even the shop's configured one: the contact page instead", () => {
    const email = confirmation({ ...legal, email: "" });
    for (const part of [email.text, email.html]) expect(part).not.toContain("contact@comptoir.example");
    expectInBoth(email, "depuis notre page de contact (https://comptoir.example/contact)");
  });

  it("designates an entrepreneur individuel by the name followed by EI, without capital or RCS", () => {
    const email = confirmation({ ...legal, companyName: "Jeanne Martin", legalForm: "EI", shareCapital: "", rcsCity: "", rcsNumber: "" });
    expectInBoth(email, "Jeanne Martin EI", "À l'attention de Jeanne Martin EI, 12 rue des Collectionneurs", "123 456 789 – Registre national des entreprises (RNE)");
    expect(email.text).not.toContain("capital");
    expect(email.text).not.toContain("RCS");
  });
});
