import { describe, expect, it } from "vitest";
import { fieldErrors, loginSchema, resetPasswordSchema, signupSchema } from "./auth-forms";

describe("signupSchema", () => {
  it("gives the SPEC.md messages", () => {
    const result = signupSchema.safeParse({ name: "A", email: "pas-un-email", password: "12345" });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      name: "Le nom doit contenir au moins 2 caractères",
      email: "Email invalide",
      password: "Le mot de passe doit contenir au moins 6 caractères",
    });
  });

  it("refuses the most common passwords, whatever their case", () => {
    const result = signupSchema.safeParse({ name: "Alice", email: "alice@example.com", password: "AZERTY123" });
    expect(fieldErrors(result.error!).password).toMatch(/trop courant/);
  });

  it("normalises the e-mail and the name", () => {
    expect(signupSchema.parse({ name: "  Alice ", email: " Alice@Example.COM ", password: "carte-rare-1999" })).toEqual({
      name: "Alice",
      email: "alice@example.com",
      password: "carte-rare-1999",
    });
  });
});

describe("loginSchema", () => {
  it("requires both fields", () => {
    expect(loginSchema.safeParse({ email: "", password: "" }).success).toBe(false);
  });
});

describe("resetPasswordSchema", () => {
  it("wants the two passwords to match", () => {
    const result = resetPasswordSchema.safeParse({ token: "t", password: "carte-rare-1999", confirm: "autre-chose" });
    expect(fieldErrors(result.error!)).toEqual({ confirm: "Les deux mots de passe ne correspondent pas" });
  });
});
