import { Form, Link, useNavigation } from "react-router";
import { AuthCard } from "~/components/account/auth-card";
import { FailureAlert } from "~/components/account/failure-alert";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { fieldErrors, forgotPasswordSchema } from "~/domain/auth-forms";
import { useFormValidation } from "~/lib/use-form-validation";
import { failureData, invalidData, readAccountForm, requestPasswordReset } from "~/services/auth-actions.server";
import type { Route } from "./+types/forgot-password";
import { formPageHeaders } from "~/lib/http";

/** The browser imports the schema with the first keystroke or submit (decision 023). */
const loadForgotPasswordSchema = () => import("~/domain/auth-forms").then((forms) => forms.forgotPasswordSchema);

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readAccountForm(request, context, "resetPerIp");
  if (!posted.ok) return failureData(posted);
  const parsed = forgotPasswordSchema.safeParse(Object.fromEntries(posted.form));
  if (!parsed.success) return invalidData(fieldErrors(parsed.error));
  const result = await requestPasswordReset(context, parsed.data);
  if (!result.ok) return failureData(result);
  return { sent: true as const };
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Mot de passe oublié" }, { name: "robots", content: "noindex" }];

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/forgot-password";
  const form = useFormValidation(loadForgotPasswordSchema, actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined);
  const sent = actionData !== undefined && "sent" in actionData;
  return (
    <AuthCard
      title="Mot de passe oublié"
      description="Indiquez l'adresse de votre compte : nous vous envoyons un lien pour choisir un nouveau mot de passe."
      footer={
        <Link to="/login" className="font-semibold text-accent hover:underline">
          Retour à la connexion
        </Link>
      }
    >
      {sent ? (
        <Alert tone="success" title="E-mail envoyé">
          Si un compte existe pour cette adresse, un lien de réinitialisation vient de lui être envoyé. Il est valable une heure.
        </Alert>
      ) : (
        <>
          <FailureAlert failure={actionData && "failure" in actionData ? actionData.failure : undefined} />
          <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="flex flex-col gap-4">
            <FormField label="Email" name="email" type="email" autoComplete="email" required error={form.errors.email} />
            <Button type="submit" disabled={busy}>
              {busy ? "Envoi en cours..." : "Envoyer le lien"}
            </Button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
