import { describe, expect, it } from "vitest";
import { type InboxRequestMail, customerAcknowledgement, offerEmail, replyEmail, sellerNotification } from "./inbox-emails";

const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const MARKUP = `<script>alert("x")</script><img src=x onerror=alert(1)> & "guillemets"`;
const request: InboxRequestMail = {
  id: "5f0c6f5e-1d7b-4a0b-9b7e-2c1a3e4d5f60",
  kind: "rachat",
  lastName: "Dupont",
  firstName: "Marie",
  email: "marie@example.com",
  phone: "06 12 34 56 78",
  message: `Bonjour,\nJe vends 300 cartes.\n${MARKUP}`,
  photoCount: 2,
};
const offerMail = {
  shop,
  firstName: "Marie",
  lines: [
    { description: "Dracaufeu", condition: "near-mint" as const, quantity: 2, unitPriceCents: 5000 },
    { description: "Pikachu", condition: "good" as const, quantity: 1, unitPriceCents: 2050 },
  ],
  bonusPercent: 10,
  note: "",
  url: "https://comptoir.example/rachat/offre/jeton",
  expiresAt: new Date("2026-12-13T12:00:00.000Z"),
};
const adminUrl = `https://comptoir.example/admin/inbox/${request.id}`;

describe("seller's notice", () => {
  const mail = sellerNotification({ shop, request, adminUrl });

  it("names the request and the customer, with everything they sent", () => {
    expect(mail.subject).toBe("Nouvelle demande de rachat – Marie Dupont");
    for (const part of ["Nom : Dupont", "Prénom : Marie", "Email : marie@example.com", "Téléphone : 06 12 34 56 78", "Photos : 2 (sur la page de la demande)"]) {
      expect(mail.text).toContain(part);
    }
    expect(mail.text).toContain("> Je vends 300 cartes.");
    expect(mail.text).toContain(adminUrl);
  });

  it("says how to reply to the customer, with a mailto button", () => {
    expect(mail.html).toContain('href="mailto:marie@example.com?subject=Re%3A%20votre%20demande%20de%20rachat%20%E2%80%93%20Comptoir"');
    expect(mail.text).toContain("la réponse va à marie@example.com");
  });

  it("escapes the customer's markup and keeps the line breaks", () => {
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img src=x");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &quot;guillemets&quot;");
    expect(mail.html).toContain("Bonjour,<br>Je vends 300 cartes.<br>");
  });

  it("has a contact variant without phone nor photos", () => {
    const contact = sellerNotification({ shop, request: { ...request, kind: "contact", phone: null, photoCount: 0 }, adminUrl });
    expect(contact.subject).toBe("Nouveau message de contact – Marie Dupont");
    expect(contact.text).not.toContain("Téléphone");
    expect(contact.text).not.toContain("Photos");
  });
});

describe("customer's e-mails", () => {
  it("acknowledges without repeating what was typed, not even the first name (no relay for spam or phishing)", () => {
    const ack = customerAcknowledgement({ shop, kind: "contact", firstName: "Marie www.evil.test" });
    expect(ack.subject).toBe("Nous avons bien reçu votre message – Comptoir");
    expect(ack.text).toContain("\n\nBonjour,\n\n");
    for (const part of [ack.html, ack.text]) expect(part).not.toMatch(/Marie|evil/);
    expect(ack.text).toContain("vous répondra très bientôt");
    const buyback = customerAcknowledgement({ shop, kind: "rachat", firstName: "<b>Marie</b>" });
    expect(buyback.subject).toBe("Nous avons bien reçu votre demande de rachat – Comptoir");
    expect(buyback.text).toContain("par e-mail ou par message sur les réseaux sociaux");
    expect(buyback.html).not.toContain("Marie");
  });

  it("sends the seller's reply with the request quoted, all escaped", () => {
    const reply = replyEmail({ shop, kind: "contact", firstName: "Marie", reply: "Bonjour Marie,\nOui, nous l'avons.\n\nÀ bientôt <3", original: request.message });
    expect(reply.subject).toBe("Réponse à votre message – Comptoir");
    expect(reply.text).toContain("Oui, nous l'avons.");
    expect(reply.text).toContain("> Je vends 300 cartes.");
    expect(reply.html).toContain("Bonjour Marie,<br>Oui, nous l&#39;avons.");
    expect(reply.html).toContain("À bientôt &lt;3");
    expect(reply.html).not.toContain("<script>");
  });

  it("puts the offer's amount in the subject and the body", () => {
    const offer = offerEmail({ ...offerMail, note: "Cartes en bon état.\n<i>Envoi</i> à nos frais." });
    expect(offer.subject).toBe("Notre offre pour votre collection : 120,50\u00a0€ – Comptoir");
    expect(offer.text).toContain("Dracaufeu (Near Mint) × 2 : 100,00\u00a0€");
    expect(offer.text).toContain("Total par virement bancaire : 120,50\u00a0€");
    expect(offer.text).toContain("Total en avoir en boutique (bonus de 10 %) : 132,55\u00a0€");
    expect(offer.text).toContain("Ce lien est valable jusqu'au 13 décembre 2026 inclus (14 jours).");
    expect(offer.html).toContain("https://comptoir.example/rachat/offre/jeton");
    expect(offer.html).toContain("Cartes en bon état.<br>&lt;i&gt;Envoi&lt;/i&gt; à nos frais.");
    expect(offerEmail(offerMail).text).not.toContain("undefined");
    expect(offerEmail({ ...offerMail, adjusted: true }).subject).toBe("Notre offre ajustée pour votre collection : 120,50\u00a0€ – Comptoir");
  });
});

describe("addresses in what the customer typed", () => {
  const phishing: InboxRequestMail = {
    ...request,
    lastName: "Dupont www.evil.test",
    firstName: "Marie",
    message: "Votre compte est suspendu : https://evil.test/login\nou www.evil.test, écrivez à support@evil.test",
  };

  it("reach the seller inert: no scheme, no linkable domain, in the quote, the names, the subject and the preheader", () => {
    const mail = sellerNotification({ shop, request: phishing, adminUrl });
    for (const part of [mail.text, mail.html, mail.subject]) {
      expect(part).not.toContain("https://evil");
      expect(part).not.toMatch(/evil\.test/);
    }
    expect(mail.text).toContain("> Votre compte est suspendu : https[:]//evil[.]test/login");
    expect(mail.text).toContain("Nom : Dupont www[.]evil[.]test");
    // The customer's own address stays usable: the seller answers it.
    expect(mail.text).toContain("Email : marie@example.com");
  });

  it("go back to the customer inert in the seller's reply, whose own links stay", () => {
    const reply = replyEmail({ shop, kind: "contact", firstName: "Marie www.evil.test", reply: "Voyez https://comptoir.example/tcg", original: phishing.message });
    expect(reply.text).toContain("Voyez https://comptoir.example/tcg");
    expect(reply.text).toContain("Bonjour Marie www[.]evil[.]test,");
    for (const part of [reply.text, reply.html]) expect(part).not.toMatch(/evil\.test|https:\/\/evil/);
    const offer = offerEmail({ ...offerMail, firstName: "Marie http://evil.test", lines: [{ description: "Carte www.evil.test", condition: "good", quantity: 1, unitPriceCents: 100 }] });
    for (const part of [offer.text, offer.html]) expect(part).not.toMatch(/evil\.test|http:\/\/evil/);
  });
});
