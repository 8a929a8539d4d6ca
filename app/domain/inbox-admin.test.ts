import { describe, expect, it } from "vitest";
import { fieldErrors } from "./auth-forms";
import { inboxListHref, isPhotoKey, offerNoteSchema, parseInboxQuery, photoKey, replySchema, requestCountText } from "./inbox-admin";

describe("inbox list URL", () => {
  const parse = (search: string) => parseInboxQuery(new URLSearchParams(search));

  it("reads kind, status and page; anything unknown reads as all", () => {
    expect(parse("")).toEqual({ kind: null, status: null, page: 1 });
    expect(parse("kind=rachat&status=offre_envoyee&page=3")).toEqual({ kind: "rachat", status: "offre_envoyee", page: 3 });
    expect(parse("kind=spam&status=<b>&page=-2")).toEqual({ kind: null, status: null, page: 1 });
  });

  it("drops a status the chosen kind never has", () => {
    expect(parse("kind=contact&status=en_estimation")).toEqual({ kind: "contact", status: null, page: 1 });
    expect(parse("status=lu")).toEqual({ kind: null, status: "lu", page: 1 });
  });

  it("writes the URL back, defaults left out", () => {
    expect(inboxListHref({ kind: null, status: null, page: 1 })).toBe("/admin/inbox");
    expect(inboxListHref({ kind: "contact", status: "lu", page: 2 })).toBe("/admin/inbox?kind=contact&status=lu&page=2");
  });

  it("counts in French", () => {
    expect([0, 1, 7].map(requestCountText)).toEqual(["Aucune demande", "1 demande", "7 demandes"]);
  });
});

describe("the seller's forms", () => {
  it("keeps the offer's note short", () => {
    expect(offerNoteSchema.parse({ note: "  Envoi suivi à nos frais.  " })).toEqual({ note: "Envoi suivi à nos frais." });
    expect(fieldErrors(offerNoteSchema.safeParse({ note: "n".repeat(2001) }).error!)).toEqual({ note: "La note doit contenir au plus 2\u00a0000 caractères" });
  });

  it("asks a reply of a few characters, not a novel", () => {
    expect(replySchema.parse({ reply: "  Bonjour Marie,\nOui !  " })).toEqual({ reply: "Bonjour Marie,\nOui !" });
    expect(fieldErrors(replySchema.safeParse({ reply: " a " }).error!)).toEqual({ reply: "La réponse doit contenir au moins 2 caractères" });
    expect(fieldErrors(replySchema.safeParse({ reply: "r".repeat(5001) }).error!)).toEqual({ reply: "La réponse doit contenir au plus 5\u00a0000 caractères" });
  });
});

describe("photo keys", () => {
  it("are one path segment, never a product image's prefix", () => {
    const key = photoKey(new Date("2026-03-14T10:00:00.000Z"), "0123456789abcdef");
    expect(key).toBe("rachat_1773482400000_0123456789abcdef.webp");
    expect(isPhotoKey(key)).toBe(true);
    expect(key.startsWith("pokemon_")).toBe(false);
  });

  it.each(["../etc/passwd", "rachat_1773482400000_0123456789abcdef.webp/..", "pokemon_1_ab-320.webp", "rachat_1_0123456789abcdef.webp", "RACHAT_1773482400000_0123456789ABCDEF.webp"])(
    "refuses %s",
    (key) => expect(isPhotoKey(key)).toBe(false),
  );

  it("refuses a random part that is not 16 hex digits", () => {
    expect(() => photoKey(new Date(), "../x")).toThrow(/16 lowercase hex/);
  });
});
