import { describe, expect, it } from "vitest";
import { REDACTED_LINK, adminEmailView, redactTokenLinks } from "./outbox";

const reset = "https://comptoir.example/reset-password?token=AbC123_-xyz";

describe("redactTokenLinks", () => {
  it("masks every address carrying a token, in text and in HTML attributes, and nothing else", () => {
    expect(redactTokenLinks(`Lien : ${reset}\nMerci.`)).toBe(`Lien : ${REDACTED_LINK}\nMerci.`);
    expect(redactTokenLinks(`<a href="${reset}">Réinitialiser</a> ${reset}`)).toBe(`<a href="${REDACTED_LINK}">Réinitialiser</a> ${REDACTED_LINK}`);
    expect(redactTokenLinks("https://x.example/api/auth/verify-email?callbackURL=%2F&amp;token=eyJ.abc")).toBe(REDACTED_LINK);
    expect(redactTokenLinks("/verify?a=1&access_token=zz")).toBe(REDACTED_LINK);
    // A "Prévenez-moi" link: whoever reads it could give the recipient's consent.
    expect(redactTokenLinks("https://comptoir.example/alertes/confirmer?alerte=6f1c&amp;jeton=AbC")).toBe(REDACTED_LINK);
    const plain = "Voir https://comptoir.example/login et https://comptoir.example/forgot-password ?notoken";
    expect(redactTokenLinks(plain)).toBe(plain);
  });
});

describe("adminEmailView", () => {
  const email = { kind: "reset-password", status: "sent", subject: "Réinitialisez votre mot de passe", html: `<a href="${reset}">ici</a>`, text: reset };
  it("masks the links once the e-mail is sent", () => {
    expect(adminEmailView(email)).toEqual({ ...email, html: `<a href="${REDACTED_LINK}">ici</a>`, text: REDACTED_LINK, linksRedacted: true });
  });
  it("shows a queued or failed e-mail as written", () => {
    for (const status of ["pending", "failed"]) expect(adminEmailView({ ...email, status })).toEqual({ ...email, status, linksRedacted: false });
  });
  it("leaves an e-mail without token links as it is", () => {
    const order = { kind: "order-confirmation", status: "sent", subject: "Commande", html: "<p>Merci</p>", text: "Merci https://comptoir.example/commande/1/documents/F-2026-000001.pdf" };
    expect(adminEmailView(order)).toEqual({ ...order, linksRedacted: false });
  });
});
