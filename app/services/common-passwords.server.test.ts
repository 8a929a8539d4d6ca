import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS } from "~/domain/common-passwords";
import { PASSWORD_MIN_LENGTH } from "~/domain/password-rules";
import { commonPasswordErrors } from "./auth-actions.server";
import { commonPasswordCount, isCommonPasswordOnServer } from "./common-passwords.server";

describe("the server's list of common and breached passwords", () => {
  it("is of real size: thousands of passwords long enough to pass the length rule", () => {
    expect(commonPasswordCount()).toBeGreaterThan(15_000);
  });

  it("refuses the common passwords of 8 characters or more, whatever their case and surrounding spaces", () => {
    for (const password of ["password", "Password1", " 12345678 ", "baseball", "iloveyou", "sunshine1", "azertyuiop", "motdepasse", "qwertyuiop", "trustno1"]) {
      expect(isCommonPasswordOnServer(password), password).toBe(true);
    }
  });

  it("knows every password of the browser's short list that the length rule lets through", () => {
    for (const password of COMMON_PASSWORDS) if (password.length >= PASSWORD_MIN_LENGTH) expect(isCommonPasswordOnServer(password), password).toBe(true);
  });

  it("accepts passwords nobody uses", () => {
    for (const password of ["Ronflex-2026", "carte-rare-1999", "Salameche-2026", "# Common and breached"]) {
      expect(isCommonPasswordOnServer(password), password).toBe(false);
    }
  });

  it("gives the form's message for the password field", () => {
    expect(commonPasswordErrors("dragonball")).toEqual({ password: "Ce mot de passe est trop courant : choisissez-en un moins facile à deviner" });
    expect(commonPasswordErrors("Ronflex-2026")).toBeUndefined();
  });
});
