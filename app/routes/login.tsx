import { Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "~/components/account/auth-card";
import { FailureAlert } from "~/components/account/failure-alert";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { fieldErrors, loginSchema } from "~/domain/auth-forms";
import { secondFactorPending } from "~/lib/auth.server";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useFormValidation } from "~/lib/use-form-validation";
import { failureData, invalidData, readAccountForm, signIn } from "~/services/auth-actions.server";
import { getViewer } from "~/services/session.server";
import type { Route } from "./+types/login";
import { formPageHeaders } from "~/lib/http";
import { safeRedirect } from "~/lib/safe-redirect";

/** The browser imports the schema with the first keystroke or submit (decision 023). */
const loadLoginSchema = () => import("~/domain/auth-forms").then((forms) => forms.loginSchema);

/** Where a signed-in visitor goes: back to the page that sent them (a wish-list heart), or their account. */
const afterSignIn = (request: Request) => safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/account");

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getViewer(request, context)) throw redirect(afterSignIn(request));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readAccountForm(request, context, "signInPerIp");
  if (!posted.ok) return failureData(posted);
  const parsed = loginSchema.safeParse(Object.fromEntries(posted.form));
  if (!parsed.success) return invalidData(fieldErrors(parsed.error));
  const result = await signIn(request, context, parsed.data);
  if (result.ok && secondFactorPending(result.headers)) {
    // An account with a second factor (an admin's) signs in at /admin/login, which asks for the code.
    return failureData({
      ok: false,
      status: 403,
      title: "Compte d'administration",
      description: "Connectez-vous depuis la page d'administration (/admin/login), qui demande votre code de vérification.",
    });
  }
  if (!result.ok) return failureData(result);
  throw redirect(afterSignIn(request), { headers: result.headers });
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Connexion | ${root.shop.name}`, description: "Connectez-vous à votre compte.", path: "/login", noindex: true });
};

export default function Login({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/login?") === true || navigation.formAction === "/login";
  const form = useFormValidation(loadLoginSchema, actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined);
  return (
    <AuthCard
      title="Connexion"
      description="Accédez à votre compte et à vos commandes."
      footer={
        <>
          Pas encore de compte ?{" "}
          <Link to="/signup" className="font-semibold text-accent hover:underline">
            Inscription
          </Link>
        </>
      }
    >
      <FailureAlert failure={actionData && "failure" in actionData ? actionData.failure : undefined} />
      <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="flex flex-col gap-4">
        <FormField label="Email" name="email" type="email" autoComplete="email" required error={form.errors.email} />
        <FormField label="Mot de passe" name="password" type="password" autoComplete="current-password" required error={form.errors.password} />
        <Link to="/forgot-password" className="-mt-2 inline-flex min-h-11 items-center self-end text-sm font-medium text-accent hover:underline">
          Mot de passe oublié?
        </Link>
        <Button type="submit" disabled={busy}>
          {busy ? "Connexion en cours..." : "Se connecter"}
        </Button>
      </Form>
    </AuthCard>
  );
}
