import { describe, expect, it } from "vitest";
import { alertAvailableEmail, wishlistAlertNote, wishlistPriceEmail } from "./alert-emails";

const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const links = { productUrl: "https://comptoir.example/product/7-display", listUrl: "https://comptoir.example/account/liste", unsubscribeUrl: "https://comptoir.example/desabonnement?jeton=abc" };

describe("wishlistPriceEmail", () => {
  const email = wishlistPriceEmail({ shop, product: "Display <Écarlate>", priceCents: 12_990, ...links });

  it("says the new price, in euros, in the subject and the body", () => {
    expect(email.subject).toBe("« Display <Écarlate> » est à 129,90\u00a0€ – Comptoir");
    expect(email.text).toContain("« Display <Écarlate> » est à 129,90\u00a0€ sur Comptoir");
    expect(email.html).toContain("Display &lt;Écarlate&gt;");
  });

  it("links the product page, the list's alerts and the one-click unsubscribe, absolute", () => {
    expect(email.html).toContain('href="https://comptoir.example/product/7-display"');
    expect(email.text).toContain("Voir le produit");
    expect(email.text).toContain("Choisir vos alertes : https://comptoir.example/account/liste");
    expect(email.text).toContain("Ne plus recevoir aucune alerte : https://comptoir.example/desabonnement?jeton=abc");
  });
});

describe("alertAvailableEmail", () => {
  it("keeps the « Prévenez-moi » note, and takes the wish list's", () => {
    const alert = alertAvailableEmail({ shop, product: "Coffret", productUrl: links.productUrl, unsubscribeUrl: links.unsubscribeUrl });
    expect(alert.text).toContain("vous avez confirmé une alerte pour ce produit ; c'est le seul");
    const wish = alertAvailableEmail({ shop, product: "Coffret", productUrl: links.productUrl, unsubscribeUrl: links.unsubscribeUrl, why: wishlistAlertNote(links) });
    expect(wish.subject).toBe("« Coffret » est en vente – Comptoir");
    expect(wish.text).toContain("ce produit est dans votre liste");
    expect(wish.text).not.toContain("c'est le seul");
  });
});
