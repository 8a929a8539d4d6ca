import { Lock } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import { AuthCard } from "~/components/account/auth-card";
import { FailureAlert, type FailureMessage } from "~/components/account/failure-alert";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { loginSchema } from "~/domain/auth-forms";
import { withNotice } from "~/domain/notices";
import { secondFactorPending } from "~/lib/auth.server";
import { failureData, readAccountForm, signIn, takeBackAttempt } from "~/services/auth-actions.server";
import { getViewer } from "~/services/session.server";
import { completeSignIn, twoFactorFailureData } from "~/services/two-factor.server";
import type { Route } from "./+types/login";
import { formPageHeaders } from "~/lib/http";

const MISSING: FailureMessage = { title: "Erreur", description: "Veuillez saisir votre email et votre mot de passe." };

/** The second step's address (after a right password, for an account with a second factor). */
const CODE_STEP = "/admin/login?etape=code";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  if (viewer?.role === "admin") throw redirect("/admin");
  const pending = new URL(request.url).searchParams.get("etape") === "code" && (request.headers.get("cookie") ?? "").includes("two_factor=");
  return { step: pending ? ("code" as const) : ("password" as const) };
}

/**
 * Two steps: the e-mail and password, then (an admin with a second factor, so every enrolled
 * admin) the 6-digit code of the authenticator app or a recovery code. An admin without a
 * second factor is signed in and sent to /admin/securite by requireAdmin.
 */
export async function action({ request, context }: Route.ActionArgs) {
  // Both steps count on the address's sign-in limit, before the form is read: guessing codes
  // after a stolen password is bounded like guessing passwords (a right code takes its attempt back).
  const posted = await readAccountForm(request, context, "signInPerIp");
  if (!posted.ok) return failureData(posted);
  const form = posted.form;
  if (form.get("intent") === "code") {
    const result = await completeSignIn(request, context, String(form.get("code") ?? ""));
    if (!result.ok) return twoFactorFailureData(result, { step: result.restart ? "password" : "code" });
    await takeBackAttempt(context, "signInPerIp");
    throw redirect(withNotice("/admin", "admin-connecte"), { headers: result.headers });
  }
  const parsed = loginSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return failureData({ ok: false, status: 400, ...MISSING });
  const result = await signIn(request, context, parsed.data, { adminOnly: true });
  if (!result.ok) return failureData(result);
  if (secondFactorPending(result.headers)) {
    // The right password, no session yet: better-auth's two_factor cookie (10 minutes) waits
    // for the code on the next step (the viewer's hint is left out: nobody is signed in).
    const headers = new Headers();
    for (const cookie of result.headers.getSetCookie()) if (cookie.includes("two_factor=")) headers.append("Set-Cookie", cookie);
    throw redirect(CODE_STEP, { headers });
  }
  throw redirect(withNotice("/admin", "admin-connecte"), { headers: result.headers });
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Administration – Connexion" }, { name: "robots", content: "noindex" }];

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/admin/login") === true;
  const [missing, setMissing] = useState(false);
  const step = actionData && "step" in actionData ? actionData.step : loaderData.step;
  const failure = actionData && "failure" in actionData ? actionData.failure : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (loginSchema.safeParse(Object.fromEntries(new FormData(event.currentTarget))).success) return;
    event.preventDefault();
    setMissing(true);
    toast.error(MISSING.title, { description: MISSING.description });
  }

  return (
    <AuthCard
      title="Administration"
      description={
        <span className="inline-flex items-center gap-1.5">
          <Lock className="size-3.5" aria-hidden="true" /> Accès réservé à l'administration de la boutique.
        </span>
      }
    >
      <FailureAlert failure={failure} />
      {step === "code" ? (
        <Form method="post" className="flex flex-col gap-4" key="code">
          <input type="hidden" name="intent" value="code" />
          <p className="text-sm text-muted-foreground">
            Saisissez le code à 6 chiffres affiché par votre application d'authentification, ou l'un de vos codes de récupération.
          </p>
          <FormField
            label="Code de vérification"
            name="code"
            autoComplete="one-time-code"
            autoFocus
            required
            maxLength={11}
            hint="6 chiffres, ou un code de récupération (xxxxx-xxxxx)"
          />
          <Button type="submit" disabled={busy}>
            {busy ? "Vérification..." : "Vérifier"}
          </Button>
        </Form>
      ) : (
      <Form method="post" noValidate onSubmit={onSubmit} onChange={() => setMissing(false)} className="flex flex-col gap-4">
        <FormField label="Email" name="email" type="email" autoComplete="username" required error={missing ? "L'email est obligatoire" : undefined} />
        <FormField label="Mot de passe" name="password" type="password" autoComplete="current-password" required />
        <Button type="submit" disabled={busy}>
          {busy ? "Connexion en cours..." : "Se connecter"}
        </Button>
      </Form>
      )}
    </AuthCard>
  );
}
