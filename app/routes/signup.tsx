import { useEffect } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import { AuthCard } from "~/components/account/auth-card";
import { FailureAlert } from "~/components/account/failure-alert";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { fieldErrors, signupSchema } from "~/domain/auth-forms";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useFormValidation } from "~/lib/use-form-validation";
import { commonPasswordErrors, failureData, invalidData, readAccountForm, signUp } from "~/services/auth-actions.server";
import { getViewer } from "~/services/session.server";
import type { Route } from "./+types/signup";
import { formPageHeaders } from "~/lib/http";
import { NewPasswordField } from "~/components/account/new-password-field";

/** The browser imports the schema with the first keystroke or submit (decision 023). */
const loadSignupSchema = () => import("~/domain/auth-forms").then((forms) => forms.signupSchema);

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getViewer(request, context)) throw redirect("/account");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readAccountForm(request, context, "signUpPerIp");
  if (!posted.ok) return failureData(posted);
  const parsed = signupSchema.safeParse(Object.fromEntries(posted.form));
  if (!parsed.success) return invalidData(fieldErrors(parsed.error));
  const common = commonPasswordErrors(parsed.data.password);
  if (common) return invalidData(common);
  const result = await signUp(request, context, parsed.data);
  if (!result.ok) return failureData(result);
  return { done: true as const };
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, {
    title: `Inscription | ${root.shop.name}`,
    description: "Créez votre compte pour suivre vos commandes.",
    path: "/signup",
    noindex: true,
  });
};

const SUCCESS = { title: "Inscription réussie", description: "Vérifiez votre boîte de réception pour confirmer votre email." };

export default function Signup({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/signup";
  const done = actionData !== undefined && "done" in actionData;
  const form = useFormValidation(loadSignupSchema, actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined);

  useEffect(() => {
    if (done) toast.success(SUCCESS.title, { description: SUCCESS.description });
  }, [done, actionData]);

  return (
    <AuthCard
      title="Inscription"
      description="Créez votre compte en quelques secondes."
      footer={
        <>
          Déjà un compte ?{" "}
          <Link to="/login" className="font-semibold text-accent hover:underline">
            Connexion
          </Link>
        </>
      }
    >
      {done ? (
        <Alert tone="success" title={SUCCESS.title}>
          {SUCCESS.description}
        </Alert>
      ) : (
        <>
          <FailureAlert failure={actionData && "failure" in actionData ? actionData.failure : undefined} />
          <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="flex flex-col gap-4">
            <FormField label="Nom" name="name" autoComplete="name" required error={form.errors.name} />
            <FormField label="Email" name="email" type="email" autoComplete="email" required error={form.errors.email} />
            <NewPasswordField label="Mot de passe" error={form.errors.password} />
            <Button type="submit" disabled={busy}>
              {busy ? "Inscription en cours..." : "S'inscrire"}
            </Button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
