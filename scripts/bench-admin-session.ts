// The bench's admin session with its second factor (issue 38: every admin page asks for one):
// given a signed-in admin's cookie, enrols TOTP on /admin/securite as the seller does (the
// password, then a code computed from the page's otpauth URI) and prints the renewed cookie.
//   node --import tsx scripts/bench-admin-session.ts <base URL> <cookie> <password>
import { secretOfOtpauth, totpCode } from "../tests/support/totp";

const [base, cookie, password] = process.argv.slice(2) as [string, string, string];

async function post(values: Record<string, string | string[]>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) for (const one of [value].flat()) body.append(name, one);
  return fetch(`${base}/admin/securite`, { method: "POST", body, headers: { cookie, origin: base }, redirect: "manual" });
}

const unescape = (text: string) => text.replaceAll("&amp;", "&").replaceAll("&#x3D;", "=").replaceAll("&quot;", '"');
const started = await post({ intent: "start", password });
const html = await started.text();
const totpUri = unescape(/name="totpUri" value="([^"]+)"/.exec(html)?.[1] ?? "");
if (!totpUri.startsWith("otpauth://")) throw new Error(`no enrolment on /admin/securite (${started.status})`);
const recoveryCodes = [...html.matchAll(/name="recoveryCode" value="([^"]+)"/g)].map((match) => match[1]!);
const confirmed = await post({ intent: "confirm", totpUri, recoveryCode: recoveryCodes, code: totpCode(secretOfOtpauth(totpUri)) });
const renewed = confirmed.headers.getSetCookie().map((line) => line.split(";")[0]!).filter((pair) => !pair.endsWith("="));
if (confirmed.status !== 302 || renewed.length === 0) throw new Error(`the code was refused on /admin/securite (${confirmed.status})`);
const jar = new Map([...cookie.split("; "), ...renewed].map((pair) => [pair.split("=")[0]!, pair]));
console.log([...jar.values()].join("; "));
