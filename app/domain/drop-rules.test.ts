import { describe, expect, it } from "vitest";
import { limitText } from "./drop-limit-text";
import { type DropLine, emailKey, identityRefusal, limitRefusal, quantityRefusal } from "./drop-rules";

describe("emailKey", () => {
  it("gives one key to the spellings of one mailbox", () => {
    expect(emailKey(" Jean.Dupont+drop1@GMail.com ")).toBe("jeandupont@gmail.com");
    expect(emailKey("j.e.a.n.dupont@googlemail.com")).toBe("jeandupont@gmail.com");
    expect(emailKey("Jean.Dupont+x@orange.fr")).toBe("jean.dupont@orange.fr");
  });

  it("keeps apart what other providers keep apart", () => {
    // Dots count outside Gmail.
    expect(emailKey("jean.dupont@orange.fr")).not.toBe(emailKey("jeandupont@orange.fr"));
    expect(emailKey("marie@gmail.com")).not.toBe(emailKey("marie@orange.fr"));
  });

  it("leaves a local part that is only a tag as typed", () => {
    expect(emailKey("+x@example.com")).toBe("+x@example.com");
  });
});

describe("refusals", () => {
  const rules = { productId: 7, perCustomerLimit: 2, accountRequired: false, holdMinutes: 10, startMode: "first_come" as const, fairWindowMinutes: 10 };
  const line = (quantity: number, overrides: Partial<typeof rules> = {}): DropLine => ({ productId: 7, name: "Display Évolutions Prismatiques", quantity, rules: { ...rules, ...overrides } });

  it("name the limit", () => {
    expect(limitText(1)).toBe("Limité à 1 par client");
    expect(quantityRefusal(line(2))).toBeNull();
    expect(quantityRefusal(line(3))).toMatchObject({ code: "DROP_LIMIT", status: 422, error: "Limité à 2 par client" });
  });

  it("count what the customer already holds", () => {
    expect(limitRefusal(line(1), 1)).toBeNull();
    expect(limitRefusal(line(2), 1)?.details).toBe("Display Évolutions Prismatiques est limité à 2 par client : vous pouvez encore en commander 1.");
    expect(limitRefusal(line(1), 2)?.details).toBe(
      "Display Évolutions Prismatiques est limité à 2 par client, et vos commandes payées ou en attente de paiement en comptent déjà 2.",
    );
  });

  it("ask for an account or an e-mail address when the drop needs one", () => {
    expect(identityRefusal(line(1, { accountRequired: true }), { signedIn: false, email: "a@b.c" })).toMatchObject({ code: "DROP_ACCOUNT", status: 401 });
    expect(identityRefusal(line(1), { signedIn: false, email: null })).toMatchObject({ code: "DROP_EMAIL", status: 422 });
    expect(identityRefusal(line(1), { signedIn: false, email: "a@b.c" })).toBeNull();
  });
});
