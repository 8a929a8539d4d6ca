import { FormField } from "~/components/ui/form-field";
import { PASSWORD_MIN_LENGTH } from "~/domain/password-rules";

/** The password a customer chooses (sign-up, reset), with the rule it must follow. */
export function NewPasswordField({ label, error }: { label: string; error: string | undefined }) {
  return (
    <FormField
      label={label}
      name="password"
      type="password"
      autoComplete="new-password"
      required
      hint={`Au moins ${PASSWORD_MIN_LENGTH} caractères, et pas un mot de passe trop courant.`}
      error={error}
    />
  );
}
