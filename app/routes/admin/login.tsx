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
import { failureData, signIn } from "~/services/auth-actions.server";
import { getViewer } from "~/services/session.server";
import type { Route } from "./+types/login";
import { formPageHeaders } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";

const MISSING: FailureMessage = { title: "Erreur", description: "Veuillez saisir votre email et votre mot de passe." };

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  if (viewer?.role === "admin") throw redirect("/admin");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = loginSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return failureData({ ok: false, status: 400, ...MISSING });
  const result = await signIn(request, context, parsed.data, { adminOnly: true });
  if (!result.ok) return failureData(result);
  throw redirect(withNotice("/admin", "admin-connecte"), { headers: result.headers });
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Administration – Connexion" }, { name: "robots", content: "noindex" }];

export default function AdminLogin({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/admin/login";
  const [missing, setMissing] = useState(false);

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
      <FailureAlert failure={actionData?.failure} />
      <Form method="post" noValidate onSubmit={onSubmit} onChange={() => setMissing(false)} className="flex flex-col gap-4">
        <FormField label="Email" name="email" type="email" autoComplete="username" required error={missing ? "L'email est obligatoire" : undefined} />
        <FormField label="Mot de passe" name="password" type="password" autoComplete="current-password" required />
        <Button type="submit" disabled={busy}>
          {busy ? "Connexion en cours..." : "Se connecter"}
        </Button>
      </Form>
    </AuthCard>
  );
}
