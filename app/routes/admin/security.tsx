import { ShieldCheck } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { AuthCard } from "~/components/account/auth-card";
import { FailureAlert } from "~/components/account/failure-alert";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import type { SecurityChange } from "~/domain/email-templates";
import { withNotice } from "~/domain/notices";
import { formPageHeaders } from "~/lib/http";
import { queueSecurityNoticeEmail } from "~/services/account-mail.server";
import { failureData, readAccountForm, takeBackAttempt } from "~/services/auth-actions.server";
import { hasSecondFactor, requireAdmin } from "~/services/session.server";
import { confirmEnrolment, qrCodeOf, resetSecondFactor, secretOfUri, startEnrolment, twoFactorFailureData } from "~/services/two-factor.server";
import type { Route } from "./+types/security";

/**
 * /admin/securite: the admin's second factor. Without one, the only admin page that opens:
 * the password asked again, then the secret (as an otpauth:// URI and as text) and 10
 * recovery codes shown once, then a first code turns it on. With one: its reset, the
 * password asked again (the admin then enrols a new one).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context, "page", { enrolling: true });
  return { email: viewer.email, enrolled: hasSecondFactor(viewer) };
}

type Enrolment = { totpUri: string; qrCode: string; secret: string; recoveryCodes: string[] };

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context, "api", { enrolling: true });
  // A password or a code is checked here: each post counts like a sign-in from this address
  // (a stolen session cannot guess the password to turn the second factor off), a right one
  // takes its attempt back.
  const posted = await readAccountForm(request, context, "signInPerIp");
  if (!posted.ok) return failureData(posted);
  const form = posted.form;
  const intent = form.get("intent");
  const password = String(form.get("password") ?? "");
  if (intent === "start") {
    if (!password) return twoFactorFailureData({ ok: false, status: 400, title: "Mot de passe requis", description: "Saisissez votre mot de passe actuel." });
    const result = await startEnrolment(request, context, password);
    if (!result.ok) return twoFactorFailureData(result);
    await takeBackAttempt(context, "signInPerIp");
    return data({ enrolment: { totpUri: result.totpUri, qrCode: qrCodeOf(result.totpUri), secret: result.secret, recoveryCodes: result.recoveryCodes } satisfies Enrolment });
  }
  if (intent === "confirm") {
    // The enrolment under way, sent back by the form so a wrong code shows it again.
    const totpUri = String(form.get("totpUri") ?? "");
    const enrolment: Enrolment | undefined = totpUri.startsWith("otpauth://")
      ? { totpUri, qrCode: qrCodeOf(totpUri), secret: secretOfUri(totpUri), recoveryCodes: form.getAll("recoveryCode").map(String) }
      : undefined;
    const result = await confirmEnrolment(request, context, String(form.get("code") ?? "").replace(/\s+/g, ""));
    if (!result.ok) return twoFactorFailureData(result, { enrolment });
    await takeBackAttempt(context, "signInPerIp");
    await noticeSecurityChange(context, viewer.email, "second-factor-on");
    throw redirect(withNotice("/admin", "admin-connecte"), { headers: result.headers });
  }
  if (intent === "reset") {
    if (!hasSecondFactor(viewer)) throw redirect("/admin/securite");
    if (!password) return twoFactorFailureData({ ok: false, status: 400, title: "Mot de passe requis", description: "Saisissez votre mot de passe actuel." });
    const result = await resetSecondFactor(request, context, password);
    if (!result.ok) return twoFactorFailureData(result);
    await takeBackAttempt(context, "signInPerIp");
    await noticeSecurityChange(context, viewer.email, "second-factor-off");
    throw redirect("/admin/securite", { headers: result.headers });
  }
  return data({ error: "Action inconnue." }, { status: 400 });
}

/** The admin's own address is told of the change (an enrolment made by someone else who had the password shows there). */
async function noticeSecurityChange(context: Route.ActionArgs["context"], email: string, change: SecurityChange) {
  await queueSecurityNoticeEmail(context.db, { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl }, email, change);
  context.kickMail();
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Administration – Double authentification" }, { name: "robots", content: "noindex" }];

export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const failure = actionData && "failure" in actionData ? actionData.failure : undefined;
  const enrolment = actionData && "enrolment" in actionData ? actionData.enrolment : undefined;

  return (
    <AuthCard
      title="Double authentification"
      description={
        <span className="inline-flex items-center gap-1.5">
          <ShieldCheck className="size-3.5" aria-hidden="true" /> Obligatoire pour l'administration de la boutique.
        </span>
      }
    >
      <FailureAlert failure={failure} />
      {loaderData.enrolled ? (
        <Form method="post" className="flex flex-col gap-4" key="reset">
          <p className="text-sm">La double authentification est active sur le compte {loaderData.email}.</p>
          <p className="text-sm text-muted-foreground">
            Téléphone perdu ou changé ? Réinitialisez-la : votre mot de passe est demandé, puis vous configurerez une nouvelle application avant de
            retrouver l'administration.
          </p>
          <input type="hidden" name="intent" value="reset" />
          <FormField label="Mot de passe actuel" name="password" type="password" autoComplete="current-password" required />
          <Button type="submit" variant="outline" disabled={busy}>
            Réinitialiser la double authentification
          </Button>
        </Form>
      ) : enrolment ? (
        <Form method="post" className="flex flex-col gap-4" key="confirm">
          <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm">
            <li>
              Scannez ce QR code avec votre application d'authentification (Google Authenticator, Aegis, 1Password…) :
              <img
                src={enrolment.qrCode}
                alt={`QR code du compte ${loaderData.email} pour l'application d'authentification`}
                width={176}
                height={176}
                className="my-2 block rounded bg-white p-1"
                data-testid="totp-qr"
              />
              ou ouvrez ce lien sur le téléphone :
              <code className="mt-1 block break-all rounded bg-muted p-2 text-xs" data-testid="totp-uri">
                {enrolment.totpUri}
              </code>
              ou saisissez la clé :
              <code className="mt-1 block break-all rounded bg-muted p-2 font-mono text-sm" data-testid="totp-secret">
                {enrolment.secret}
              </code>
            </li>
            <li>
              Notez ces codes de récupération et gardez-les en lieu sûr : chacun remplace une fois le code de l'application. Ils ne seront plus
              affichés.
              <ul className="mt-1 grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Codes de récupération">
                {enrolment.recoveryCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
            </li>
            <li>Saisissez le code à 6 chiffres affiché par l'application.</li>
          </ol>
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="totpUri" value={enrolment.totpUri} />
          {enrolment.recoveryCodes.map((code) => (
            <input key={code} type="hidden" name="recoveryCode" value={code} />
          ))}
          <FormField label="Code de vérification" name="code" inputMode="numeric" autoComplete="one-time-code" required maxLength={6} />
          <Button type="submit" disabled={busy}>
            Activer la double authentification
          </Button>
        </Form>
      ) : (
        <Form method="post" className="flex flex-col gap-4" key="start">
          <p className="text-sm">
            Un code à 6 chiffres, donné par une application d'authentification sur votre téléphone, est demandé à chaque connexion en plus du mot de
            passe. Configurez-la pour accéder à l'administration.
          </p>
          <input type="hidden" name="intent" value="start" />
          <FormField label="Mot de passe actuel" name="password" type="password" autoComplete="current-password" required />
          <Button type="submit" disabled={busy}>
            Configurer la double authentification
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
