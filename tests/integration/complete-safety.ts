import type { ProductFormInput } from "~/domain/product-form";

/**
 * A product's own complete safety information (GPSR art. 19): what a product needs to be put
 * online or scheduled, for tests about something else that create online products.
 */
export const COMPLETE_SAFETY: ProductFormInput = {
  manufacturerName: "Fabricant de test SAS",
  manufacturerAddress: "1 rue de l'Essai\n75001 Paris",
  manufacturerEmail: "securite@fabricant.example",
  manufacturerOutsideEu: "non",
  manufacturerReference: "TEST-REF-1",
  safetyWarnings: "Ne convient pas aux enfants de moins de 3 ans. Petits éléments.",
};
