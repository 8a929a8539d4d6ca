import { describe, expect, it } from "vitest";
import { fieldErrors, forgotPasswordSchema, loginSchema, resetPasswordSchema, signupSchema } from "./auth-forms";

describe("signupSchema", () => {
  it("gives the SPEC.md messages", () => {
    const result = signupSchema.safeParse({ name: "A", email: "pas-un-email", password: "12345" });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      name: "Le nom doit contenir au moins 2 caractères",
      email: "Email invalide",
      password: "Le mot de passe doit contenir au moins 8 caractères",
    });
  });

  it("wants 8 characters at least (decision 034)", () => {
    const passwordError = (password: string) => {
      const result = signupSchema.safeParse({ name: "Alice", email: "alice@example.com", password });
      return result.success ? undefined : fieldErrors(result.error).password;
    };
    expect(passwordError("Rnflx-7")).toBe("Le mot de passe doit contenir au moins 8 caractères");
    expect(passwordError("Rnflx-78")).toBeUndefined();
  });

  it("refuses the most common passwords, whatever their case", () => {
    const result = signupSchema.safeParse({ name: "Alice", email: "alice@example.com", password: "AZERTY123" });
    expect(fieldErrors(result.error!).password).toMatch(/trop courant/);
  });

  it("refuses names with line breaks, other controls or bidi overrides, and names one cannot see", () => {
    const nameError = (name: string) => {
      const result = signupSchema.safeParse({ name, email: "zoe@example.com", password: "carte-rare-1999" });
      return result.success ? undefined : fieldErrors(result.error).name;
    };
    // A line break would put the sender's text into the confirmation e-mail sent to the address given.
    expect(nameError("Zoé\n\nVotre compte est suspendu : https://evil.test/login")).toBe("Le nom contient des caractères non autorisés");
    expect(nameError("Zoé\u0007")).toBe("Le nom contient des caractères non autorisés");
    expect(nameError("Zoé \u202egpj.exe")).toBe("Le nom contient des caractères non autorisés");
    expect(nameError("\u200b\u200b\u200b")).toBe("Le nom doit contenir au moins 2 caractères");
    expect(nameError("Zoé Lefèvre-Dupont")).toBeUndefined();
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

describe("a post a script made: fields left out or sent as files", () => {
  const file = new File(["x"], "x.txt");
  it.each([
    ["signup", signupSchema, {}, { name: "Le nom doit contenir au moins 2 caractères", email: "Email invalide", password: "Le mot de passe doit contenir au moins 8 caractères" }],
    ["signup", signupSchema, { name: file, email: file, password: file }, { name: "Le nom doit contenir au moins 2 caractères", email: "Email invalide", password: "Le mot de passe doit contenir au moins 8 caractères" }],
    ["login", loginSchema, {}, { email: "L'email est obligatoire", password: "Le mot de passe est obligatoire" }],
    ["login", loginSchema, { email: `${"a".repeat(250)}@b.fr`, password: "x".repeat(129) }, { email: "Email ou mot de passe incorrect.", password: "Email ou mot de passe incorrect." }],
    ["forgot password", forgotPasswordSchema, {}, { email: "Email invalide" }],
    [
      "reset password",
      resetPasswordSchema,
      {},
      {
        token: "Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.",
        password: "Le mot de passe doit contenir au moins 8 caractères",
        confirm: "Les deux mots de passe ne correspondent pas",
      },
    ],
  ] as const)("%s form gets the form's French messages", (_name, schema, body, expected) => {
    const result = schema.safeParse(body);
    expect(fieldErrors(result.error!)).toEqual(expected);
  });
});
