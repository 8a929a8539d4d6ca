import { describe, expect, it } from "vitest";
import { emailChoiceKey, emailChoicesSchema, oneClickUnsubscribeHeaders } from "./email-choices";

describe("email choices", () => {
  it("reads a ticked switch as on, an absent one as off, anything else as refused in French", () => {
    expect(emailChoicesSchema.parse({ "stock-alerts": "on" })).toEqual({ "stock-alerts": true });
    expect(emailChoicesSchema.parse({})).toEqual({ "stock-alerts": false });
    const refused = emailChoicesSchema.safeParse({ "stock-alerts": "oui" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("Choix invalide");
  });

  it("keys an address as alerts do: trimmed, lower case", () => {
    expect(emailChoiceKey("  Marie@Example.COM ")).toBe("marie@example.com");
  });

  it("gives RFC 8058's two headers for a link", () => {
    expect(oneClickUnsubscribeHeaders("https://comptoir.example/desabonnement?jeton=a.b")).toEqual({
      "List-Unsubscribe": "<https://comptoir.example/desabonnement?jeton=a.b>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });
});
