import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { outboxEmails } from "~/db/schema";
import { REDACTED_LINK } from "~/domain/outbox";
import { type Auth, createAuth } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import * as emailRoute from "~/routes/admin/email";
import { queuePasswordResetEmail, queueVerificationEmail } from "~/services/account-mail.server";
import { getOutboxEmailForAdmin, recordEmailSent } from "~/services/mail.server";
import { createUserWithPassword } from "~/services/users.server";
import { databaseLabel, openTestDatabase } from "./test-database";
import { signInAdminWithCode } from "./admin-second-factor";

/**
 * /admin/emails/{id}: a verification or reset link lets whoever reads it act as the
 * recipient; once the e-mail is sent the admin sees "lien masqué" instead, in the HTML and the
 * text alike.
 */
const ORIGIN = "https://comptoir.example";
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: ORIGIN };
const PASSWORD = "mot-de-passe-solide-42";
const TOKENS = { "verify-email": "verif-Tok3n_secret", "reset-password": "reset-Tok3n_secret" } as const;

describe(`token links in the admin's view of e-mails on ${databaseLabel}`, () => {
  let database: Database;
  let auth: Auth;
  let context: AppContext;
  let adminCookie: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    const noMail = async () => {};
    auth = createAuth({ db: database.db, secret: "integration-secret-email-links-0123456789", baseUrl: ORIGIN, mail: { verification: noMail, existingAccount: noMail, passwordReset: noMail } });
    context = { db: database.db, auth, publicUrl: ORIGIN, logger: pino({ level: "silent" }) } as unknown as AppContext;
    await createUserWithPassword(database.db, { name: "Vendeur", email: "admin.liens@comptoir.example", password: PASSWORD, role: "admin", emailVerified: true });
    adminCookie = await signInAdminWithCode(auth, "admin.liens@comptoir.example", PASSWORD);
  });
  afterAll(() => database?.close());

  const idOf = async (kind: string) => (await database.db.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.kind, kind)))[0]!.id;
  const page = async (id: string) =>
    (await emailRoute.loader({ request: new Request(`${ORIGIN}/admin/emails/${id}`, { headers: { cookie: adminCookie } }), context, params: { id } } as unknown as Parameters<typeof emailRoute.loader>[0])).email;

  it("shows the link while queued, and 'lien masqué' once sent, for verification and reset e-mails", async () => {
    await queueVerificationEmail(database.db, shop, { email: "nouveau@example.org", name: "Nouveau" }, TOKENS["verify-email"]);
    await queuePasswordResetEmail(database.db, shop, { email: "oubli@example.org", name: "Oubli" }, TOKENS["reset-password"]);
    for (const kind of ["verify-email", "reset-password"] as const) {
      const id = await idOf(kind);
      const queued = (await getOutboxEmailForAdmin(database.db, id))!;
      expect(queued.linksRedacted).toBe(false);
      expect(queued.text).toContain(`token=${TOKENS[kind]}`);

      await recordEmailSent(database.db, id);
      for (const shown of [(await getOutboxEmailForAdmin(database.db, id))!, await page(id)]) {
        expect(shown).toMatchObject({ status: "sent", linksRedacted: true });
        expect(`${shown.subject}${shown.html}${shown.text}`).not.toContain(TOKENS[kind]);
        expect(shown.text).toContain(REDACTED_LINK);
        expect(shown.html).toContain(REDACTED_LINK);
      }
      // The stored e-mail is unchanged: only the admin's view masks it.
      expect((await database.db.select({ text: outboxEmails.text }).from(outboxEmails).where(eq(outboxEmails.id, id)))[0]!.text).toContain(TOKENS[kind]);
    }
  });
});
