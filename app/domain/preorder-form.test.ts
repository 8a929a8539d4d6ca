import { describe, expect, it } from "vitest";
import { fieldErrors } from "./field-errors";
import { preorderFormSchema, preorderIsOpen } from "./preorder-form";

const valid = { releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", quantity: "300", perCustomerLimit: "2" };
const errorsOf = (input: Record<string, string>, options: Parameters<typeof preorderFormSchema>[0] = { today: "2026-11-29" }) => {
  const parsed = preorderFormSchema(options).safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
};

describe("preorderFormSchema", () => {
  it("reads the seller's settings as typed values", () => {
    expect(preorderFormSchema({ today: "2026-11-29" }).parse(valid)).toEqual({ releaseOn: "2026-12-12", estimatedDeliveryOn: "2026-12-15", quantity: 300, perCustomerLimit: 2 });
  });

  it("says in French what is missing or wrong", () => {
    expect(errorsOf({})).toEqual({
      releaseOn: "La date de sortie est obligatoire",
      estimatedDeliveryOn: "La date de livraison estimée est obligatoire",
      quantity: "La quantité en précommande est obligatoire",
      perCustomerLimit: "La limite par client est obligatoire",
    });
    expect(errorsOf({ ...valid, releaseOn: "2026-02-31" }).releaseOn).toBe("La date de sortie n'est pas une date valide");
    expect(errorsOf({ ...valid, quantity: "0" }).quantity).toBe("La quantité en précommande doit être d'au moins 1");
    expect(errorsOf({ ...valid, perCustomerLimit: "100" }).perCustomerLimit).toBe("La limite par client ne peut pas dépasser 99");
  });

  it("wants a release to come and a delivery not before it", () => {
    expect(errorsOf({ ...valid, releaseOn: "2026-11-29" }).releaseOn).toBe("La date de sortie doit être dans le futur");
    expect(errorsOf({ ...valid, releaseOn: "2026-11-29" }, { today: "2026-11-29", currentReleaseOn: "2026-11-29" })).toEqual({});
    expect(errorsOf({ ...valid, estimatedDeliveryOn: "2026-12-11" }).estimatedDeliveryOn).toBe("La date de livraison estimée ne peut pas précéder la date de sortie");
  });

  it("never lowers the quantity under the units already pre-ordered", () => {
    expect(errorsOf({ ...valid, quantity: "40" }, { today: "2026-11-29", orderedUnits: 41 }).quantity).toBe("La quantité ne peut pas être inférieure aux 41 exemplaires déjà précommandés");
    expect(errorsOf({ ...valid, quantity: "41" }, { today: "2026-11-29", orderedUnits: 41 })).toEqual({});
  });
});

describe("preorderIsOpen", () => {
  it("takes orders until the day before release", () => {
    expect(preorderIsOpen({ releaseOn: "2026-12-12" }, "2026-12-11")).toBe(true);
    expect(preorderIsOpen({ releaseOn: "2026-12-12" }, "2026-12-12")).toBe(false);
  });
});
