import type { Auth } from "~/lib/auth.server";
import { secondFactorPending } from "~/lib/auth.server";
import { secretOfOtpauth, unusedTotpCode } from "../support/totp";

/**
 * In-process tests' admins: every admin page needs a second factor (requireAdmin). These sign
 * an admin in through better-auth as the routes do, enrolling TOTP on the first sign-in (the
 * secret kept per auth instance and address) and answering the code on the next ones.
 */
const secrets = new WeakMap<Auth, Map<string, string>>();

const cookiesOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

/** The admin's session cookie, with the second factor (enrolled first if needed). */
export async function signInAdminWithCode(auth: Auth, email: string, password: string): Promise<string> {
  const known = secrets.get(auth) ?? new Map<string, string>();
  secrets.set(auth, known);
  const result = await auth.api.signInEmail({ body: { email, password }, headers: new Headers(), returnHeaders: true });
  if (!secondFactorPending(result.headers)) {
    return enrolSecondFactor(auth, cookiesOf(result.headers), password, (secret) => known.set(email, secret));
  }
  const secret = known.get(email);
  if (!secret) throw new Error(`${email} has a second factor these tests did not enrol`);
  const verified = await auth.api.verifyTOTP({ body: { code: await unusedTotpCode(secret) }, headers: new Headers({ cookie: cookiesOf(result.headers) }), returnHeaders: true });
  return cookiesOf(verified.headers);
}

/** Enrols TOTP for the signed-in admin of `cookie`; returns the renewed session cookie. */
export async function enrolSecondFactor(auth: Auth, cookie: string, password: string, keep: (secret: string) => void = () => {}): Promise<string> {
  const enabled = await auth.api.enableTwoFactor({ body: { password }, headers: new Headers({ cookie }) });
  const secret = secretOfOtpauth((enabled as { totpURI: string }).totpURI);
  keep(secret);
  const verified = await auth.api.verifyTOTP({ body: { code: await unusedTotpCode(secret) }, headers: new Headers({ cookie }), returnHeaders: true });
  return cookiesOf(verified.headers);
}
