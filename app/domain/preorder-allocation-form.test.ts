import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { allocationFormSchema } from "./preorder-allocation-form";

const seed = "a1".repeat(32);

describe("the allocation form (issue 55)", () => {
  it("takes a preview without a seed, and an apply of a draw only with the preview's seed", () => {
    expect(allocationFormSchema.parse({ intent: "preview", received: " 50 ", rule: "draw" })).toEqual({ intent: "preview", received: 50, rule: "draw", seed: null });
    expect(allocationFormSchema.parse({ intent: "apply", received: "50", rule: "draw", seed })).toEqual({ intent: "apply", received: 50, rule: "draw", seed });
    expect(allocationFormSchema.parse({ intent: "apply", received: "0", rule: "order", seed: "" })).toEqual({ intent: "apply", received: 0, rule: "order", seed: null });
  });

  it("refuses bad input in French", () => {
    const errors = (form: Record<string, unknown>) => {
      const parsed = allocationFormSchema.safeParse(form);
      return parsed.success ? {} : fieldErrors(parsed.error);
    };
    expect(errors({ intent: "preview", received: "", rule: "order" })).toEqual({ received: "Le nombre d'exemplaires reçus est obligatoire" });
    expect(errors({ intent: "preview", received: "2,5", rule: "order" })).toEqual({ received: "Le nombre d'exemplaires reçus doit être un nombre entier" });
    expect(errors({ intent: "preview", received: "1000001", rule: "order" })).toEqual({ received: "Le nombre d'exemplaires reçus ne peut pas dépasser 1000000" });
    expect(errors({ intent: "preview", received: "5", rule: "autre" })).toEqual({ rule: "Choisissez la règle de répartition" });
    expect(errors({ intent: "apply", received: "5", rule: "draw" })).toEqual({ seed: "Prévisualisez le tirage avant de l'appliquer" });
    expect(errors({ intent: "apply", received: "5", rule: "draw", seed: "abc" })).toEqual({ seed: "Le tirage n'est pas valide : prévisualisez à nouveau la répartition" });
    expect(errors({ intent: "supprimer", received: "5", rule: "order" })).toEqual({ intent: "Action inconnue" });
  });
});
