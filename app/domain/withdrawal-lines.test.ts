import { describe, expect, it } from "vitest";
import { quantityField, withdrawnLineLabel, withdrawnLines, withdrawsWholeOrder } from "./withdrawal";
import { WITHDRAWAL_LINES_MESSAGES, withdrawalConfirmSchema } from "./withdrawal-lookup-schema";

const LINES = [
  { id: "a", name: "Booster", quantity: 3 },
  { id: "b", name: "Display", quantity: 1 },
];
const schema = withdrawalConfirmSchema(LINES);
const post = (fields: Record<string, string>) => schema.safeParse({ customerName: "Léa Partielle", ...fields });

describe("withdrawalConfirmSchema", () => {
  it("takes every unit by default and leaves out an article at 0", () => {
    expect(post({})).toMatchObject({ success: true, data: { customerName: "Léa Partielle", lines: [{ orderItemId: "a", quantity: 3 }, { orderItemId: "b", quantity: 1 }] } });
    expect(post({ [quantityField("a")]: " 2 ", [quantityField("b")]: "0" })).toMatchObject({ success: true, data: { lines: [{ orderItemId: "a", quantity: 2 }] } });
  });

  it("refuses nothing chosen, an unknown article, more than bought, a quantity that is not a whole number", () => {
    const messages = (fields: Record<string, string>) => {
      const result = post(fields);
      return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
    };
    expect(messages({ [quantityField("a")]: "0", [quantityField("b")]: "0" })).toEqual([[quantityField("a"), WITHDRAWAL_LINES_MESSAGES.none]]);
    expect(messages({ [quantityField("z")]: "1" })).toEqual([["form", WITHDRAWAL_LINES_MESSAGES.unknown]]);
    expect(messages({ [quantityField("a")]: "4" })).toEqual([[quantityField("a"), "Vous avez acheté 3 « Booster » : indiquez au plus 3."]]);
    for (const bad of ["-1", "1,5", "", "deux"]) {
      expect(messages({ [quantityField("b")]: bad })).toEqual([[quantityField("b"), "Quantité invalide pour « Display » : indiquez un nombre entier de 0 à 1."]]);
    }
  });
});

describe("withdrawn lines", () => {
  it("reads a request's lines, or the whole order when it has none", () => {
    const items = LINES;
    expect(withdrawnLines(null, items)).toEqual([
      { orderItemId: "a", name: "Booster", quantity: 3, bought: 3 },
      { orderItemId: "b", name: "Display", quantity: 1, bought: 1 },
    ]);
    const some = withdrawnLines([{ orderItemId: "a", quantity: 1 }], items);
    expect(some).toEqual([{ orderItemId: "a", name: "Booster", quantity: 1, bought: 3 }]);
    expect(withdrawsWholeOrder(some, items)).toBe(false);
    expect(withdrawsWholeOrder(withdrawnLines(null, items), items)).toBe(true);
    expect(withdrawnLineLabel(some[0]!)).toBe("Booster (1 sur 3)");
  });
});
