import { Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "~/components/account/auth-card";
import { FailureAlert } from "~/components/account/failure-alert";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { fieldErrors, resetPasswordSchema } from "~/domain/auth-forms";
import { withNotice } from "~/domain/notices";
import { useFormValidation } from "~/lib/use-form-validation";
import { commonPasswordErrors, failureData, invalidData, readAccountForm, resetPassword } from "~/services/auth-actions.server";
import type { Route } from "./+types/reset-password";
import { formPageHeaders } from "~/lib/http";
import { NewPasswordField } from "~/components/account/new-password-field";

/** The browser imports the schema with the first keystroke or submit (decision 023). */
const loadResetPasswordSchema = () => import("~/domain/auth-forms").then((forms) => forms.resetPasswordSchema);

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readAccountForm(request, context, "resetTokenPerIp");
  if (!posted.ok) return failureData(posted);
  const parsed = resetPasswordSchema.safeParse(Object.fromEntries(posted.form));
  if (!parsed.success) return invalidData(fieldErrors(parsed.error));
  const common = commonPasswordErrors(parsed.data.password);
  if (common) return invalidData(common);
  const result = await resetPassword(context, parsed.data);
  if (!result.ok) return failureData(result);
  throw redirect(withNotice("/login", "mot-de-passe-modifie"));
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Nouveau mot de passe" }, { name: "robots", content: "noindex" }];

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/reset-password") === true;
  const form = useFormValidation(loadResetPasswordSchema, actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined);
  if (!loaderData.token) {
    return (
      <AuthCard title="Lien incomplet" description="Ce lien ne contient pas de jeton de réinitialisation.">
        <Link to="/forgot-password" className="font-semibold text-accent hover:underline">
          Demander un nouveau lien
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Nouveau mot de passe" description="Choisissez le mot de passe de votre compte.">
      <FailureAlert failure={actionData && "failure" in actionData ? actionData.failure : undefined} />
      <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="flex flex-col gap-4">
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordField label="Nouveau mot de passe" error={form.errors.password} />
        <FormField label="Confirmez le mot de passe" name="confirm" type="password" autoComplete="new-password" required error={form.errors.confirm} />
        <Button type="submit" disabled={busy}>
          {busy ? "Enregistrement..." : "Enregistrer le mot de passe"}
        </Button>
      </Form>
    </AuthCard>
  );
}
