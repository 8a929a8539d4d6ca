import { describe, expect, it } from "vitest";
import { fieldErrors } from "./auth-forms";
import { buybackSchema, contactSchema } from "./contact-form-schemas";
import { MAX_BUYBACK_PHOTOS, TOO_MANY_PHOTOS, addPhotoFiles, checkPhotoFiles, honeypotMessage, submittedValues } from "./contact-forms";
import { IMAGE_UPLOAD_ERRORS } from "./image-upload";

const contact = { lastName: "Dupont", firstName: "Marie", email: "marie@example.com", message: "Bonjour, je cherche un Dracaufeu." };
const buyback = { ...contact, phone: "06 12 34 56 78", message: "Une collection de 300 cartes de Base Set." };

const errorsOf = (schema: typeof contactSchema | typeof buybackSchema, values: Record<string, unknown>) => {
  const result = schema.safeParse(values);
  return result.success ? {} : fieldErrors(result.error);
};

describe("contact form (SPEC.md section 5)", () => {
  it("accepts a complete message, trimmed, the e-mail in lower case", () => {
    expect(contactSchema.parse({ ...contact, lastName: "  Dupont ", email: " Marie@Example.COM " })).toEqual({ ...contact, email: "marie@example.com" });
  });

  it("gives SPEC.md's message for each short or invalid field", () => {
    expect(errorsOf(contactSchema, { lastName: "D", firstName: " M ", email: "marie@", message: "Bonjour, je cherche une carte." })).toEqual({
      lastName: "Le nom doit contenir au moins 2 caractères",
      firstName: "Le prénom doit contenir au moins 2 caractères",
      email: "Merci d'entrer une adresse email valide",
    });
    expect(errorsOf(contactSchema, { ...contact, message: "  123456789  " })).toEqual({ message: "Le message doit contenir au moins 10 caractères" });
    // Fields missing from the post (a script's) get the same messages.
    expect(errorsOf(contactSchema, {})).toEqual({
      lastName: "Le nom doit contenir au moins 2 caractères",
      firstName: "Le prénom doit contenir au moins 2 caractères",
      email: "Merci d'entrer une adresse email valide",
      message: "Le message doit contenir au moins 10 caractères",
    });
  });

  it("refuses a 100 KB message, names over 100 characters and invisible characters, in French", () => {
    expect(errorsOf(contactSchema, { ...contact, message: "a".repeat(100 * 1024) })).toEqual({ message: "Le message doit contenir au plus 5\u00a0000 caractères" });
    expect(errorsOf(contactSchema, { ...contact, message: "b".repeat(5000) })).toEqual({});
    expect(errorsOf(contactSchema, { ...contact, lastName: "x".repeat(101) })).toEqual({ lastName: "Le nom doit contenir au plus 100 caractères" });
    expect(errorsOf(contactSchema, { ...contact, firstName: "Ma\u0000rie" })).toEqual({ firstName: "Le prénom contient des caractères non autorisés" });
    expect(errorsOf(contactSchema, { ...contact, message: "Bonjour\u0000 à vous tous" })).toEqual({ message: "Le message contient des caractères non autorisés" });
    expect(errorsOf(contactSchema, { ...contact, email: `${"a".repeat(250)}@example.com` })).toEqual({ email: "Merci d'entrer une adresse email valide" });
  });

  it("keeps line breaks, tabs and markup as typed", () => {
    const message = "Bonjour,\n\n\t<script>alert('x')</script> & <b>merci</b>\r\nMarie";
    expect(contactSchema.parse({ ...contact, message }).message).toBe(message);
  });
});

describe("buy-back form", () => {
  it("asks a phone number and says description instead of message", () => {
    expect(buybackSchema.parse(buyback)).toEqual(buyback);
    expect(errorsOf(buybackSchema, { ...buyback, phone: "06 12 34", message: "Court" })).toEqual({
      phone: "Merci d'entrer un numéro de téléphone valide",
      message: "La description doit contenir au moins 10 caractères",
    });
    expect(errorsOf(buybackSchema, { ...buyback, message: "c".repeat(5001) })).toEqual({ message: "La description doit contenir au plus 5\u00a0000 caractères" });
  });

  it.each(["+33 6 12 34 56 78", "06.12.34.56.78", "06-12-34-56-78", "0612345678"])("accepts the phone %s", (phone) => {
    expect(errorsOf(buybackSchema, { ...buyback, phone })).toEqual({});
  });

  it.each(["06 12 34 56 7a", "appelez-moi svp", "+33 (0)6 12 34 56 78", "0".repeat(31)])("refuses the phone %s", (phone) => {
    expect(errorsOf(buybackSchema, { ...buyback, phone })).toEqual({ phone: "Merci d'entrer un numéro de téléphone valide" });
  });
});

describe("photos and traps", () => {
  it("adds a second pick's photos to the first's, a file picked twice once", () => {
    const file = (name: string, size = 100, lastModified = 1) => ({ name, size, lastModified });
    expect(addPhotoFiles([file("a.jpg"), file("b.jpg")], [file("b.jpg"), file("c.jpg"), file("b.jpg", 200)])).toEqual([
      file("a.jpg"),
      file("b.jpg"),
      file("c.jpg"),
      file("b.jpg", 200), // another file with the same name
    ]);
    expect(addPhotoFiles([], [file("a.jpg"), file("a.jpg")])).toEqual([file("a.jpg")]);
  });

  const png = (name: string, size = 1000) => ({ name, type: "image/png", size });

  it("takes up to 5 images, with the product images' messages", () => {
    expect(checkPhotoFiles([])).toBeNull();
    // An empty file input sends one nameless empty file.
    expect(checkPhotoFiles([{ name: "", type: "application/octet-stream", size: 0 }])).toBeNull();
    expect(checkPhotoFiles(Array.from({ length: MAX_BUYBACK_PHOTOS }, (_, i) => png(`${i}.png`)))).toBeNull();
    expect(checkPhotoFiles(Array.from({ length: MAX_BUYBACK_PHOTOS + 1 }, (_, i) => png(`${i}.png`)))).toBe(TOO_MANY_PHOTOS);
    expect(checkPhotoFiles([png("lourde.png", 11 * 1024 * 1024)])).toBe(IMAGE_UPLOAD_ERRORS.tooLarge);
    expect(checkPhotoFiles([png("a.png"), { name: "notes.pdf", type: "application/pdf", size: 10 }])).toBe(`notes.pdf : ${IMAGE_UPLOAD_ERRORS.unsupported}`);
  });

  it("names the shop's address in the honeypot refusal", () => {
    expect(honeypotMessage("contact@comptoir.example")).toMatch(/^Envoi refusé .*contact@comptoir\.example\.$/);
  });

  it("never names an empty address in the honeypot refusal", () => {
    const message = honeypotMessage("");
    expect(message).not.toMatch(/à \.|à $/);
    expect(message).toMatch(/rechargez la page/);
  });

  it("sends back the text fields only, cut to their maxima", () => {
    const form = new FormData();
    form.set("lastName", "Dupont");
    form.set("message", "m".repeat(100_000));
    form.set("photos", new Blob(["x"]), "a.png");
    form.set("website", "spam");
    expect(submittedValues(form)).toEqual({ lastName: "Dupont", message: "m".repeat(5000) });
  });
});
