import { describe, expect, it } from "vitest";
import { alreadyRegistered, button, contactWay, escapeHtml, greeting, inertText, layout, paragraph, resetPassword, securityChanged, verifyEmail } from "./email-templates";

const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };
const hostile = `<img src=x onerror="alert('x')">&`;

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and quoted attributes", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
  });
});

describe("layout", () => {
  const email = layout(shop, { subject: "Sujet", heading: "Titre", preheader: "Aperçu", parts: [paragraph("Corps du message.")] });

  it("is a French, responsive, table-based page of at most 600 px", () => {
    expect(email.html).toMatch(/^<!DOCTYPE html>\n<html lang="fr">/);
    expect(email.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(email.html).toContain('role="presentation"');
    expect(email.html).toContain("max-width:600px");
    expect(email.html).toContain("@media only screen and (max-width: 620px)");
  });

  it("declares light and dark support, with dark colours for clients that follow it", () => {
    expect(email.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(email.html).toContain("@media (prefers-color-scheme: dark)");
  });

  it("shows the shop name in the header and its e-mail in the footer", () => {
    expect(email.html).toContain('<a href="https://comptoir.example" target="_blank" style="color:#f2b233;text-decoration:none;">Comptoir</a>');
    expect(email.html).toContain('<a href="mailto:contact@comptoir.example"');
    expect(email.html).toContain("Aperçu</div>");
    expect(email.html).toContain("Corps du message.");
  });

  it("has a plain-text part with the heading, the body and a signature", () => {
    expect(email.text).toBe(
      "Titre\n\nCorps du message.\n\n-- \nComptoir · https://comptoir.example\nUne question ? Écrivez-nous à contact@comptoir.example.\n",
    );
    expect(email.subject).toBe("Sujet");
  });

  it("leaves the preheader out when there is none", () => {
    expect(layout(shop, { subject: "S", heading: "T", parts: [] }).html).not.toContain("display:none");
  });
});

describe("button", () => {
  it("is a link in a table cell, with the address in clear, and 'label : url' as text", () => {
    const part = button("Confirmer", "https://comptoir.example/v?token=a&b=1");
    expect(part.html).toContain('<a href="https://comptoir.example/v?token=a&amp;b=1" target="_blank"');
    expect(part.html).toContain(">Confirmer</a>");
    expect(part.html).toContain("Ou copiez ce lien dans votre navigateur");
    expect(part.text).toBe("Confirmer : https://comptoir.example/v?token=a&b=1");
  });
});

describe("account templates", () => {
  const url = "https://comptoir.example/verifier?token=abc";

  it("verifyEmail asks to confirm the address after sign-up", () => {
    const email = verifyEmail({ shop, url });
    expect(email.subject).toBe("Confirmez votre adresse e-mail – Comptoir");
    for (const part of [email.html, email.text]) {
      expect(part).toContain("Bonjour,");
      expect(part).toContain("Merci pour votre inscription sur Comptoir");
      expect(part).toContain("https://comptoir.example/verifier?token=abc");
    }
    expect(email.text).toContain("Confirmer mon adresse : https://comptoir.example/verifier?token=abc");
  });

  it("resetPassword gives a link valid 1 hour, harmless if ignored", () => {
    const email = resetPassword({ shop, url });
    expect(email.subject).toBe("Réinitialisation de votre mot de passe – Comptoir");
    for (const part of [email.html, email.text]) {
      expect(part).toContain("Ce lien est valable 1 heure.");
      expect(part).toContain("votre mot de passe reste inchangé");
    }
    expect(email.text).toContain(`Choisir un nouveau mot de passe : ${url}`);
  });

  it("alreadyRegistered points to the login and to the password reset", () => {
    const email = alreadyRegistered({
      shop,
      loginUrl: "https://comptoir.example/login",
      resetUrl: "https://comptoir.example/mot-de-passe-oublie",
    });
    expect(email.subject).toBe("Vous avez déjà un compte – Comptoir");
    expect(email.text).toContain("Vous avez déjà un compte : connectez-vous simplement.");
    expect(email.text).toContain("Me connecter : https://comptoir.example/login");
    expect(email.text).toContain("Réinitialiser mon mot de passe : https://comptoir.example/mot-de-passe-oublie");
    expect(email.html).toContain('href="https://comptoir.example/login"');
    expect(email.html).toContain('href="https://comptoir.example/mot-de-passe-oublie"');
  });

  it("greets with no name at all: they go to addresses nobody may have confirmed (issue 38)", () => {
    for (const email of [verifyEmail({ shop, url }), resetPassword({ shop, url }), alreadyRegistered({ shop, loginUrl: url, resetUrl: url })]) {
      expect(email.text).toContain("\n\nBonjour,\n\n");
      expect(email.html).toContain(">Bonjour,</p>");
    }
  });

  it("escapes every interpolated value in the HTML, and keeps it as is in the text", () => {
    const evilShop = { name: hostile, email: "a&b@comptoir.example", publicUrl: `https://x.example/"><script>` };
    const emails = [
      verifyEmail({ shop: evilShop, url: `https://x.example/?a="<b>` }),
      resetPassword({ shop: evilShop, url: `https://x.example/?a="<b>` }),
      alreadyRegistered({ shop: evilShop, loginUrl: `https://x.example/"<l>`, resetUrl: `https://x.example/"<r>` }),
    ];
    for (const email of emails) {
      expect(email.html).not.toContain("<img");
      expect(email.html).not.toContain("<script>");
      expect(email.html).not.toContain('"<');
      expect(email.html).not.toContain("a&b@");
      expect(email.html).toContain("&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;");
      expect(email.text).toContain(hostile);
    }
  });
});

describe("text someone typed, in an e-mail", () => {
  it("makes addresses inert: no scheme, no dot between words that a mail client would link", () => {
    expect(inertText("Votre compte est suspendu : https://evil.test/login")).toBe("Votre compte est suspendu : https[:]//evil[.]test/login");
    expect(inertText("www.evil.com ou evil.co.uk/x")).toBe("www[.]evil[.]com ou evil[.]co[.]uk/x");
    expect(inertText("écrivez à lea@exemple.fr")).toBe("écrivez à lea@exemple[.]fr");
    expect(inertText("ftp://x.y javascript://a")).not.toMatch(/:\/\/|\w\.\w/);
  });

  it("leaves numbers, initials and sentences as typed", () => {
    expect(inertText("Un display 3.5 cm. J.-P. Martin, fin. Début")).toBe("Un display 3.5 cm. J.-P. Martin, fin. Début");
  });

  it("greets with the name made inert, in both parts", () => {
    const part = greeting("Zoé www.evil.test");
    expect(part.text).toBe("Bonjour Zoé www[.]evil[.]test,");
    expect(part.html).toContain("Bonjour Zoé www[.]evil[.]test,");
    expect(greeting("  ").text).toBe("Bonjour,");
  });
});

describe("securityChanged", () => {
  const at = "vendredi 27 novembre 2026 à 10:15";
  const resetUrl = "https://comptoir.example/forgot-password";

  it("says what changed and when, with the way back when it was not the owner", () => {
    const email = securityChanged({ shop, change: "second-factor-on", at, resetUrl });
    expect(email.subject).toBe("Double authentification activée – Comptoir");
    expect(email.text).toContain(`La double authentification a été activée sur votre compte Comptoir le ${at}.`);
    expect(email.text).toContain("Si vous n'êtes pas à l'origine de ce changement, choisissez tout de suite un nouveau mot de passe, puis écrivez-nous à contact@comptoir.example.");
    expect(email.html).toContain(`href="${resetUrl}"`);
  });

  it("has its own words for each change", () => {
    expect(securityChanged({ shop, change: "second-factor-off", at, resetUrl }).text).toContain("a été désactivée sur votre compte Comptoir");
    const password = securityChanged({ shop, change: "password-changed", at, resetUrl });
    expect(password.subject).toBe("Mot de passe modifié – Comptoir");
    expect(password.text).toContain("Toutes vos sessions ouvertes ont été fermées.");
  });
});

describe("contactWay", () => {
  const shop = { name: "Comptoir", email: "", publicUrl: "https://comptoir.example" };
  it("gives the saved address, or the contact page while there is none", () => {
    expect(contactWay({ ...shop, email: "bonjour@boutique.fr" })).toBe("à bonjour@boutique.fr");
    expect(contactWay(shop)).toBe("depuis notre page de contact (https://comptoir.example/contact)");
  });
  it("leaves no empty address in the security notice", () => {
    const { text, html } = securityChanged({ shop, change: "password-changed", at: "28/11/2026 à 10:00", resetUrl: "https://comptoir.example/forgot-password" });
    expect(text).not.toMatch(/écrivez-nous à \./);
    expect(html).toContain("https://comptoir.example/contact");
  });
});
