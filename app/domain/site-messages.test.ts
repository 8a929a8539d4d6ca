import { describe, expect, it } from "vitest";
import { fieldErrors } from "./auth-forms";
import { SITE_MESSAGE_LOCATIONS } from "./catalog-values";
import {
  CONTENT_MAX,
  EXAMPLE_MESSAGES,
  REQUIRED_TOAST,
  TITLE_MAX,
  dismissKey,
  formErrorToast,
  locationOfPath,
  messageSegments,
  messagesForPath,
  safeHref,
  showsSiteMessages,
  siteMessageSchema,
} from "./site-messages";

const errorsOf = (values: Record<string, unknown>) => {
  const result = siteMessageSchema.safeParse(values);
  return result.success ? {} : fieldErrors(result.error);
};

describe("siteMessageSchema", () => {
  it("accepts a message, trimming the title to one line and keeping the content's line breaks", () => {
    const parsed = siteMessageSchema.parse({ title: "  Arrivage\n de la  semaine ", content: " Ligne 1\r\nLigne 2 ", location: "catalog" });
    expect(parsed).toEqual({ title: "Arrivage de la semaine", content: "Ligne 1\nLigne 2", location: "catalog" });
  });

  it("accepts every SPEC.md location", () => {
    for (const location of SITE_MESSAGE_LOCATIONS) expect(siteMessageSchema.safeParse({ title: "T", content: "C", location }).success).toBe(true);
  });

  it("refuses an empty or missing title and content with SPEC.md's toast", () => {
    for (const values of [{ title: "", content: "", location: "global" }, { title: "   ", content: "Texte", location: "global" }, { location: "home" }]) {
      const errors = errorsOf(values);
      expect(errors.title ?? errors.content).toBeDefined();
      expect(formErrorToast(errors)).toEqual({ title: "Champs requis", description: "Le titre et le contenu sont obligatoires." });
    }
    expect(errorsOf({ title: "Titre", content: "\u0000\u0007 ", location: "home" })).toEqual({ content: "Le contenu est obligatoire" });
    expect(REQUIRED_TOAST).toEqual({ title: "Champs requis", description: "Le titre et le contenu sont obligatoires." });
  });

  it("refuses texts past their maximum, in French", () => {
    expect(errorsOf({ title: "x".repeat(TITLE_MAX + 1), content: "C", location: "global" })).toEqual({ title: "Le titre doit contenir au plus 120 caractères" });
    expect(errorsOf({ title: "T", content: "x".repeat(CONTENT_MAX + 1), location: "global" })).toEqual({ content: "Le contenu doit contenir au plus 1000 caractères" });
    expect(siteMessageSchema.safeParse({ title: "x".repeat(TITLE_MAX), content: "x".repeat(CONTENT_MAX), location: "global" }).success).toBe(true);
    expect(formErrorToast({ content: "Le contenu doit contenir au plus 1000 caractères" })).toEqual({
      title: "Formulaire invalide",
      description: "Le contenu doit contenir au plus 1000 caractères.",
    });
  });

  it("refuses an unknown location", () => {
    expect(errorsOf({ title: "T", content: "C", location: "admin" })).toEqual({ location: "Choisissez un emplacement dans la liste" });
    expect(errorsOf({ title: "T", content: "C" })).toEqual({ location: "Choisissez un emplacement dans la liste" });
  });

  it("drops NUL and other stray control characters (PostgreSQL refuses NUL)", () => {
    expect(siteMessageSchema.parse({ title: "A\u0000B", content: "x\u0000y\tz", location: "home" })).toMatchObject({ title: "AB", content: "xy\tz" });
  });

  it("seeds two valid examples", () => {
    expect(EXAMPLE_MESSAGES).toHaveLength(2);
    for (const example of EXAMPLE_MESSAGES) expect(siteMessageSchema.parse(example)).toMatchObject({ title: example.title });
  });
});

describe("locationOfPath and messagesForPath", () => {
  it.each([
    ["/", "home"],
    ["/catalog", "catalog"],
    ["/catalog/", "catalog"],
    ["/tcg", "catalog"],
    ["/accessories", "catalog"],
    ["/entertainment", "catalog"],
    ["/product/42-display-ecarlate", "product"],
    ["/cart", "checkout"],
    ["/merci", "checkout"],
    ["/paiement/cs_test_123", "checkout"],
    ["/about", null],
    ["/legal", null],
    ["/catalogue", null],
    ["/product", null],
    ["/cartes", null],
  ])("%s belongs to %s", (pathname, location) => {
    expect(locationOfPath(pathname)).toBe(location);
  });

  it("shows nothing in the admin area", () => {
    expect(showsSiteMessages("/admin")).toBe(false);
    expect(showsSiteMessages("/admin/messages")).toBe(false);
    expect(showsSiteMessages("/about")).toBe(true);
    expect(showsSiteMessages("/administration-des-cartes")).toBe(true);
  });

  it("keeps the page's location and the global messages, in order", () => {
    const messages = SITE_MESSAGE_LOCATIONS.map((location) => ({ id: location, location }));
    const ids = (pathname: string) => messagesForPath(messages, pathname).map((m) => m.id);
    expect(ids("/catalog")).toEqual(["global", "catalog"]);
    expect(ids("/")).toEqual(["global", "home"]);
    expect(ids("/product/1")).toEqual(["global", "product"]);
    expect(ids("/paiement/x")).toEqual(["global", "checkout"]);
    expect(ids("/about")).toEqual(["global"]);
    expect(ids("/admin")).toEqual([]);
    expect(ids("/admin/messages")).toEqual([]);
  });
});

describe("dismissKey", () => {
  const message = { id: "6f1c2b1e-0000-4000-8000-000000000001", title: "Titre", content: "Contenu" };
  it("is stable for the same text and changes when the text is edited", () => {
    expect(dismissKey(message)).toBe(dismissKey({ ...message }));
    expect(dismissKey(message)).toMatch(/^6f1c2b1e-[\w-]+\.[0-9a-f]{8}$/);
    expect(dismissKey({ ...message, title: "Titre modifié" })).not.toBe(dismissKey(message));
    expect(dismissKey({ ...message, content: "Contenu." })).not.toBe(dismissKey(message));
  });
});

describe("safeHref", () => {
  it("accepts same-site paths and http(s) URLs", () => {
    expect(safeHref("/catalog")).toEqual({ href: "/catalog", external: false });
    expect(safeHref("/")).toEqual({ href: "/", external: false });
    expect(safeHref("/tcg?category=sealed#haut")).toEqual({ href: "/tcg?category=sealed#haut", external: false });
    expect(safeHref("https://www.instagram.com/comptoir")).toEqual({ href: "https://www.instagram.com/comptoir", external: true });
    expect(safeHref("HTTP://Exemple.fr")).toEqual({ href: "http://exemple.fr/", external: true });
  });

  it.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\nscript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "//evil.example/",
    "/\\evil.example",
    "/\t/evil.example",
    "https://shop.fr@evil.example/",
    "mailto:x@example.com",
    "catalog",
    "https:evil.example",
  ])("refuses %j", (raw) => {
    expect(safeHref(raw)).toBeNull();
  });
});

describe("messageSegments", () => {
  it("keeps plain text as one text segment", () => {
    expect(messageSegments("Livraison offerte dès 50 €, 24/7 et/ou 1/2.")).toEqual([{ kind: "text", text: "Livraison offerte dès 50 €, 24/7 et/ou 1/2." }]);
  });

  it("keeps markup as text, never as a link or an element", () => {
    for (const markup of ['<img src=x onerror=alert(1)>', "<script>alert(1)</script>", '<a href="javascript:alert(1)">clic</a>', "<b>gras</b> &amp; <i>"]) {
      expect(messageSegments(markup)).toEqual([{ kind: "text", text: markup }]);
    }
  });

  it("links a bare URL, leaving trailing punctuation and an unopened bracket as text", () => {
    expect(messageSegments("Suivez-nous sur https://www.instagram.com/comptoir.")).toEqual([
      { kind: "text", text: "Suivez-nous sur " },
      { kind: "link", text: "https://www.instagram.com/comptoir", href: "https://www.instagram.com/comptoir", external: true },
      { kind: "text", text: "." },
    ]);
    expect(messageSegments("(voir https://exemple.fr/a_(b))")).toEqual([
      { kind: "text", text: "(voir " },
      { kind: "link", text: "https://exemple.fr/a_(b)", href: "https://exemple.fr/a_(b)", external: true },
      { kind: "text", text: ")" },
    ]);
  });

  it("links a same-site path after a space or a bracket, but not //host", () => {
    expect(messageSegments("Tout est dans /catalog ! (ou /tcg?category=sealed)")).toEqual([
      { kind: "text", text: "Tout est dans " },
      { kind: "link", text: "/catalog", href: "/catalog", external: false },
      { kind: "text", text: " ! (ou " },
      { kind: "link", text: "/tcg?category=sealed", href: "/tcg?category=sealed", external: false },
      { kind: "text", text: ")" },
    ]);
    expect(messageSegments("Allez sur //evil.example ou /\\evil.example")).toEqual([{ kind: "text", text: "Allez sur //evil.example ou /\\evil.example" }]);
  });

  it("links [text](target) to a safe target, and leaves an unsafe one as text", () => {
    expect(messageSegments("Voir [le catalogue](/catalog) ou [Instagram](https://instagram.com/x).")).toEqual([
      { kind: "text", text: "Voir " },
      { kind: "link", text: "le catalogue", href: "/catalog", external: false },
      { kind: "text", text: " ou " },
      { kind: "link", text: "Instagram", href: "https://instagram.com/x", external: true },
      { kind: "text", text: "." },
    ]);
    for (const unsafe of ["[clic](javascript:alert(1))", "[clic](javascript:alert`1`)", "[clic](data:text/html;base64,PHNjcmlwdD4=)", "[clic](//evil.example)"]) {
      expect(messageSegments(unsafe)).toEqual([{ kind: "text", text: unsafe }]);
    }
  });

  it("gives back every character of the content, in order", () => {
    const content = "A <b>x</b> https://a.fr/b, [c](/d) /e. javascript:alert(1) //f\n/g";
    expect(messageSegments(content).map((s) => s.text).join("")).toBe(
      content.replace("[c](/d)", "c"),
    );
  });
});
