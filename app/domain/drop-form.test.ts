import { describe, expect, it } from "vitest";
import { dropFormSchema } from "./drop-form";

const valid = { productId: "12", perCustomerLimit: "1", holdMinutes: "10", startMode: "first_come", fairWindowMinutes: "10" };

describe("dropFormSchema", () => {
  it("reads what the form posts, the switch as a boolean", () => {
    expect(dropFormSchema.parse({ ...valid, accountRequired: "on" })).toEqual({
      productId: 12,
      perCustomerLimit: 1,
      holdMinutes: 10,
      accountRequired: true,
      startMode: "first_come",
      fairWindowMinutes: 10,
    });
    expect(dropFormSchema.parse(valid).accountRequired).toBe(false);
  });

  it("refuses each field out of its range with its French message", () => {
    const errors = (values: Record<string, string>) => dropFormSchema.safeParse({ ...valid, ...values }).error?.issues.map((issue) => issue.message);
    expect(errors({ perCustomerLimit: "0" })).toEqual(["La limite par client doit être d'au moins 1"]);
    expect(errors({ perCustomerLimit: "100" })).toEqual(["La limite par client ne peut pas dépasser 99"]);
    expect(errors({ perCustomerLimit: "1,5" })).toEqual(["La limite par client doit être un nombre entier"]);
    expect(errors({ holdMinutes: "1" })).toEqual(["La durée de réservation doit être d'au moins 2"]);
    expect(errors({ holdMinutes: "" })).toEqual(["La durée de réservation est obligatoire"]);
    expect(errors({ startMode: "loterie" })).toEqual(["Choisissez comment la sortie commence"]);
    expect(errors({ productId: "" })).toEqual(["Choisissez un produit"]);
  });
});
