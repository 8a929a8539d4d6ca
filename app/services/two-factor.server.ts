import { data } from "react-router";
import { renderSVG } from "uqr";
import type { AppContext } from "~/lib/context";
import { REUSED_CODE } from "~/lib/session-second-factor.server";
import { authHeaders, viewerHintHeader } from "./session.server";

/**
 * The admin's second factor through better-auth's two-factor plugin (app/lib/auth.server.ts):
 * enrolment (the password asked again), the sign-in's second step (a 6-digit TOTP code or a
 * recovery code), and its reset (the password asked again). Failures become French messages.
 */
type Ctx = Pick<AppContext, "auth" | "clientIp" | "publicUrl">;
export type TwoFactorFailure = { ok: false; status: number; title: string; description: string; restart?: boolean };

function errorCode(error: unknown): string | undefined {
  return (error as { body?: { code?: string } } | null)?.body?.code;
}

const WRONG_PASSWORD: TwoFactorFailure = { ok: false, status: 401, title: "Mot de passe incorrect", description: "Saisissez à nouveau votre mot de passe actuel." };
const WRONG_CODE: TwoFactorFailure = {
  ok: false,
  status: 401,
  title: "Code incorrect",
  description: "Saisissez le code à 6 chiffres affiché maintenant par votre application, ou un code de récupération.",
};

/** What a failed call to the plugin means for the admin. */
function failure(error: unknown): TwoFactorFailure {
  const code = errorCode(error);
  if (code === "INVALID_PASSWORD") return WRONG_PASSWORD;
  if (code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE") return WRONG_CODE;
  // A code already accepted once (TOTP within its window, or a recovery code raced by a second
  // request): the sign-in's challenge was spent with it, so the admin starts again.
  if (code === REUSED_CODE || (error as { statusCode?: number } | null)?.statusCode === 409) {
    return {
      ok: false,
      status: 401,
      title: "Code déjà utilisé",
      description: "Ce code a déjà servi. Reconnectez-vous avec votre email et votre mot de passe, puis saisissez le code suivant de votre application.",
      restart: true,
    };
  }
  if (code === "ACCOUNT_TEMPORARILY_LOCKED") {
    return { ok: false, status: 429, title: "Trop de codes incorrects", description: "La double authentification est bloquée 15 minutes. Réessayez plus tard." };
  }
  if (code === "INVALID_TWO_FACTOR_COOKIE" || code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
    return {
      ok: false,
      status: 401,
      title: "Vérification expirée",
      description: "Reconnectez-vous avec votre email et votre mot de passe.",
      restart: true,
    };
  }
  throw error;
}

function cookieHeaders(source: Headers): Headers {
  const headers = new Headers();
  for (const cookie of source.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/** The secret of an otpauth:// URI (base32), for typing into an app that cannot scan. */
export function secretOfUri(uri: string): string {
  return new URL(uri).searchParams.get("secret") ?? "";
}

/** The otpauth:// URI as a QR code for the phone's camera: an SVG image as a data: URL (the CSP allows data: images), drawn on the server. */
export function qrCodeOf(uri: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderSVG(uri, { border: 2 })).toString("base64")}`;
}

/** Starts enrolment: a new secret and 10 recovery codes (nothing is active before a first right code). */
export async function startEnrolment(
  request: Request,
  context: Ctx,
  password: string,
): Promise<{ ok: true; totpUri: string; secret: string; recoveryCodes: string[] } | TwoFactorFailure> {
  try {
    const result = await context.auth.api.enableTwoFactor({ body: { password }, headers: authHeaders(request, context) });
    const totpUri = (result as { totpURI?: string }).totpURI ?? "";
    return { ok: true, totpUri, secret: secretOfUri(totpUri), recoveryCodes: (result as { backupCodes?: string[] }).backupCodes ?? [] };
  } catch (error) {
    if (errorCode(error) === "TOTP_ALREADY_ENABLED") {
      return { ok: false, status: 409, title: "Déjà configurée", description: "La double authentification est déjà active sur ce compte." };
    }
    return failure(error);
  }
}

/** Ends enrolment with a first right code: the second factor is on; the session is renewed (new cookie). */
export async function confirmEnrolment(request: Request, context: Ctx, code: string): Promise<{ ok: true; headers: Headers } | TwoFactorFailure> {
  try {
    const result = await context.auth.api.verifyTOTP({ body: { code }, headers: authHeaders(request, context), returnHeaders: true });
    return { ok: true, headers: cookieHeaders(result.headers) };
  } catch (error) {
    return failure(error);
  }
}

/** Turns the second factor off (password asked again); the admin must enrol again before any other admin page. */
export async function resetSecondFactor(request: Request, context: Ctx, password: string): Promise<{ ok: true; headers: Headers } | TwoFactorFailure> {
  try {
    const result = await context.auth.api.disableTwoFactor({ body: { password }, headers: authHeaders(request, context), returnHeaders: true });
    return { ok: true, headers: cookieHeaders(result.headers) };
  } catch (error) {
    if (errorCode(error) === "SESSION_NOT_FRESH") {
      return { ok: false, status: 401, title: "Reconnexion requise", description: "Reconnectez-vous, puis recommencez." };
    }
    return failure(error);
  }
}

/** A recovery code as better-auth writes them (`abcde-12345`), told apart from a 6-digit TOTP code. */
const RECOVERY_CODE = /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/;

/**
 * The sign-in's second step, after a right password set the `two_factor` cookie: a 6-digit
 * code or a recovery code (used once) opens the session. Returns its cookies.
 */
export async function completeSignIn(request: Request, context: Ctx, code: string): Promise<{ ok: true; headers: Headers } | TwoFactorFailure> {
  const typed = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(typed) && !RECOVERY_CODE.test(typed)) return WRONG_CODE;
  try {
    const headers = authHeaders(request, context);
    const result = RECOVERY_CODE.test(typed)
      ? await context.auth.api.verifyBackupCode({ body: { code: typed }, headers, returnHeaders: true })
      : await context.auth.api.verifyTOTP({ body: { code: typed }, headers, returnHeaders: true });
    const user = (result.response as { user: { name: string; role?: string } }).user;
    const out = cookieHeaders(result.headers);
    out.append("Set-Cookie", viewerHintHeader({ name: user.name, role: user.role === "admin" ? "admin" : "user" }, context));
    return { ok: true, headers: out };
  } catch (error) {
    return failure(error);
  }
}

/** The failure as an action's answer (the same shape as auth-actions' failureData, plus `restart`). */
export function twoFactorFailureData(failure: TwoFactorFailure, extra: Record<string, unknown> = {}) {
  return data({ failure: { title: failure.title, description: failure.description }, restart: failure.restart ?? false, ...extra }, { status: failure.status });
}
