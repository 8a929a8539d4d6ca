import { describe, expect, it } from "vitest";
import { PROGRESS_START, checkoutMessage, isBelowCardMinimum, nextProgress } from "./checkout-rules";

describe("checkout progress", () => {
  it("goes 10, 20 … 90 and stays there, with SPEC.md's four messages in order", () => {
    const seen = [PROGRESS_START];
    while (seen.length < 11) seen.push(nextProgress(seen.at(-1)!));
    expect(seen).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 90, 90]);
    expect([...new Set([...seen, 100].map((p) => checkoutMessage(p, "stripe")))]).toEqual([
      "Préparation de votre commande...",
      "Sécurisation de la transaction...",
      "Redirection sécurisée vers Stripe...",
      "Redirection vers la page de paiement sécurisée...",
    ]);
    expect(checkoutMessage(70, "test")).toBe("Redirection sécurisée vers la page de paiement...");
  });
});

describe("a card payment's minimum", () => {
  it("is 0,50 €; an order a code makes free is not under it", () => {
    expect([1, 40, 49, 50, 51, 0].map(isBelowCardMinimum)).toEqual([true, true, true, false, false, false]);
  });
});
