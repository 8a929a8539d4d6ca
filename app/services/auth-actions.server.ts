import { eq } from "drizzle-orm";
import { data } from "react-router";
import { sessions } from "~/db/schema";
import { COMMON_PASSWORD, type FieldErrors, INVALID_RESET_LINK, WRONG_LOGIN } from "~/domain/auth-forms";
import { accountAtAddress, type RateLimitName, tooManyAttemptsMessage } from "~/domain/rate-limits";
import type { AppContext } from "~/lib/context";
import { readForm } from "~/lib/request-input.server";
import { isCommonPasswordOnServer } from "./common-passwords.server";
import { consumeRateLimit, hasMark, refundAttempt, setMark } from "./rate-limit.server";
import { authHeaders, viewerHintHeader } from "./session.server";

/**
 * Sign-in, sign-up, password reset and sign-out as the route actions use them: rate limits
 * first (each post counted on its client address before its body is even read, see
 * readAccountForm; then per account), then better-auth, with every failure turned into the
 * French message SPEC.md gives.
 */
export type Failure = { ok: false; status: number; title: string; description: string; retryAfterMs?: number };

type Ctx = Pick<AppContext, "auth" | "db" | "clientIp" | "publicUrl">;

function errorCode(error: unknown): string | undefined {
  return (error as { body?: { code?: string } } | null)?.body?.code;
}

function tooMany(retryAfterMs: number): Failure {
  return { ok: false, status: 429, title: "Trop de tentatives", description: tooManyAttemptsMessage(retryAfterMs), retryAfterMs };
}

/** The per-address limit of each account form, counted before the form is read. */
export type AddressLimit = Extract<RateLimitName, "signInPerIp" | "signUpPerIp" | "resetPerIp" | "resetTokenPerIp">;

/**
 * An account form's post, counted first on its client address's limit: a flood is answered 429
 * before its body is read or parsed (then readForm's size ceiling applies). Every post counts,
 * a malformed one too; the services below count per account once the form says which.
 */
export async function readAccountForm(
  request: Request,
  context: Pick<Ctx, "db" | "clientIp">,
  limit: AddressLimit,
): Promise<{ ok: true; form: FormData } | Failure> {
  const state = await consumeRateLimit(context.db, limit, context.clientIp);
  if (state.blocked) return tooMany(state.retryAfterMs);
  return { ok: true, form: await readForm(request) };
}

/** Takes back the address's attempt of a post that proved its owner right (a password, a code): the failures stay counted. */
export async function takeBackAttempt(context: Pick<Ctx, "db" | "clientIp">, limit: AddressLimit): Promise<void> {
  await refundAttempt(context.db, limit, context.clientIp);
}

/**
 * Signs in with e-mail and password, the post already counted on `signInPerIp` by readAccountForm.
 * Every attempt is counted before the password is checked (see RATE_LIMITS): per client address,
 * never cleared by a success (which only takes back its own attempt); and per account, on the count shared by unknown addresses or on the own count of
 * an address that has signed into this account before (remembered on each success). `adminOnly`: a valid non-admin account gets
 * "Accès refusé" and its brand-new session is deleted at once (no cookie is sent).
 */
export async function signIn(
  request: Request,
  context: Ctx,
  input: { email: string; password: string },
  options: { adminOnly?: boolean } = {},
): Promise<{ ok: true; headers: Headers } | Failure> {
  const wrong: Failure = options.adminOnly
    ? { ok: false, status: 401, title: "Erreur de connexion", description: WRONG_LOGIN }
    : { ok: false, status: 401, title: "Échec de la connexion", description: WRONG_LOGIN };
  const counted = await consumeSignInAttempt(context, input.email);
  if ("ok" in counted) return counted;
  let result;
  try {
    result = await context.auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: authHeaders(request, context),
      returnHeaders: true,
    });
  } catch (error) {
    const code = errorCode(error);
    if (code === "EMAIL_NOT_VERIFIED") {
      return {
        ok: false,
        status: 403,
        title: "Adresse e-mail à confirmer",
        description: "Confirmez d'abord votre adresse e-mail : un nouveau lien vient de vous être envoyé.",
      };
    }
    // INVALID_EMAIL: the login form takes what is typed (no format check, as SPEC.md's form),
    // so a mistyped address is a wrong login like any other, counted toward the limits.
    if (code === "INVALID_EMAIL_OR_PASSWORD" || code === "INVALID_EMAIL" || code === "VALIDATION_ERROR") {
      return wrong; // already counted

    }
    throw error;
  }
  // The right password takes back its own attempt, and nothing more: the failures before it stay
  // counted (guessing 9 times, signing into one's own account, guessing again stops at the
  // limit). The address is remembered for this account, so that a spread-out attack on the
  // account cannot lock its owner out from here.
  for (const [name, subject] of counted.refund) await refundAttempt(context.db, name, subject);
  await setMark(context.db, "signInKnownAddress", accountAtAddress(input.email, context.clientIp));
  const { token, user } = result.response;
  // better-auth returns the role with the user (an additional field), read from the database.
  const role = (user as typeof user & { role?: string }).role === "admin" ? "admin" : "user";
  if (options.adminOnly && role !== "admin") {
    await context.db.delete(sessions).where(eq(sessions.token, token));
    return { ok: false, status: 403, title: "Accès refusé", description: "Vous n'avez pas les droits d'administration." };
  }
  const headers = cookieHeaders(result.headers);
  headers.append("Set-Cookie", viewerHintHeader({ name: user.name, role }, context));
  return { ok: true, headers };
}

/**
 * Counts one sign-in attempt on the account's limit (the address's was counted before the form
 * was read): its own count from an address that signed into it before, else the count shared by
 * the others. Each count is one upsert, so parallel attempts cannot all pass. A 429 when it is
 * used up; else the counts to take back if the password is right.
 */
async function consumeSignInAttempt(context: Ctx, email: string): Promise<Failure | { refund: [RateLimitName, string][] }> {
  const here = accountAtAddress(email, context.clientIp);
  const [name, subject]: [RateLimitName, string] = (await hasMark(context.db, "signInKnownAddress", here))
    ? ["signInPerKnownAddress", here]
    : ["signInPerAccount", email];
  const perAccount = await consumeRateLimit(context.db, name, subject);
  if (perAccount.blocked) return tooMany(perAccount.retryAfterMs);
  return { refund: [["signInPerIp", context.clientIp], [name, subject]] };
}

/** Only the Set-Cookie headers, to pass on with the redirect. */
function cookieHeaders(source: Headers): Headers {
  const headers = new Headers();
  for (const cookie of source.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * Creates the account and sends the confirmation e-mail. An address that already has an
 * account gets the same answer (no way to learn who is a customer), and better-auth calls
 * `AuthMail.existingAccount` to tell its owner. The post was counted on `signUpPerIp` by
 * readAccountForm.
 */
export async function signUp(
  request: Request,
  context: Ctx,
  input: { name: string; email: string; password: string },
): Promise<{ ok: true } | Failure> {
  try {
    await context.auth.api.signUpEmail({ body: input, headers: authHeaders(request, context) });
    return { ok: true };
  } catch (error) {
    const code = errorCode(error);
    if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG" || code === "INVALID_EMAIL") {
      return { ok: false, status: 400, title: "Erreur d'inscription", description: "Vérifiez votre email et votre mot de passe." };
    }
    throw error;
  }
}

/** Sends the reset link if the account exists; the answer never says whether it does (the post counted on `resetPerIp` by readAccountForm). */
export async function requestPasswordReset(context: Ctx, input: { email: string }): Promise<{ ok: true } | Failure> {
  // Past the per-account limit, silently send nothing more (the owner's inbox is not flooded).
  const perAccount = await consumeRateLimit(context.db, "resetPerAccount", input.email);
  if (!perAccount.blocked) await context.auth.api.requestPasswordReset({ body: { email: input.email } });
  return { ok: true };
}

/** Sets the new password of a reset link (the post counted on `resetTokenPerIp` by readAccountForm). */
export async function resetPassword(context: Ctx, input: { token: string; password: string }): Promise<{ ok: true } | Failure> {
  try {
    await context.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } });
    return { ok: true };
  } catch (error) {
    if (errorCode(error) === "INVALID_TOKEN") {
      return { ok: false, status: 400, title: "Lien expiré", description: INVALID_RESET_LINK };
    }
    throw error;
  }
}

/** Confirms the address of the e-mailed link; false when the link is invalid or expired. */
export async function verifyEmail(context: Ctx, token: string): Promise<boolean> {
  try {
    await context.auth.api.verifyEmail({ query: { token } });
    return true;
  } catch (error) {
    if (errorCode(error) !== undefined) return false;
    throw error;
  }
}

/** Ends the session in the database and returns the cookie-clearing headers (the header's hint too). */
export async function signOut(request: Request, context: Ctx): Promise<Headers> {
  let headers: Headers;
  try {
    const result = await context.auth.api.signOut({ headers: authHeaders(request, context), returnHeaders: true });
    headers = cookieHeaders(result.headers);
  } catch {
    headers = new Headers(); // no session: nothing to end
  }
  headers.append("Set-Cookie", viewerHintHeader(null, context));
  return headers;
}

/** An action's answer for a failure: its status, and Retry-After on a 429. */
export function failureData(failure: Failure) {
  const headers = failure.retryAfterMs ? { "Retry-After": String(Math.ceil(failure.retryAfterMs / 1000)) } : undefined;
  return data({ failure: { title: failure.title, description: failure.description } }, { status: failure.status, headers });
}

/**
 * The server's own check of a new password (sign-up, reset) against the full list of common and
 * breached passwords; the form's schema, shared with the browser, only knows a short one.
 */
export function commonPasswordErrors(password: string): FieldErrors | undefined {
  return isCommonPasswordOnServer(password) ? { password: COMMON_PASSWORD } : undefined;
}

/** A form that did not pass its schema: 400 with the message of each field. */
export function invalidData(errors: FieldErrors) {
  return data({ fieldErrors: errors }, { status: 400 });
}
