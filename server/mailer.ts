import type { Logger } from "pino";
import type { Db } from "~/db/types";
import type { AuthMail } from "~/lib/auth.server";
import type { Env } from "~/lib/env.server";
import { queueAlreadyRegisteredEmail, queuePasswordResetEmail, queueSecurityNoticeEmail, queueVerificationEmail } from "~/services/account-mail.server";
import { consumeRateLimit } from "~/services/rate-limit.server";

/**
 * E-mail delivery for the server: the outbox always; the SMTP worker only with SMTP_URL
 * (without it the e-mails wait in the outbox, readable at /admin/emails).
 */
export async function startMailer(options: { db: Db; env: Env; logger: Logger; publicUrl: () => string; shopEmail: () => string }) {
  const { db, env, logger } = options;
  // nodemailer only with a relay to send to.
  const worker = env.SMTP_URL
    ? (await import("./mail-worker")).startMailWorker({ db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM ?? { name: env.SHOP_NAME, address: env.SHOP_EMAIL }, logger, shopName: env.SHOP_NAME })
    : null;
  if (!worker) logger.info("SMTP_URL is not set: e-mails stay in the outbox (/admin/emails)");
  const kick = () => worker?.kick();
  const shop = () => ({ name: env.SHOP_NAME, email: options.shopEmail(), publicUrl: options.publicUrl() });
  const authMail: AuthMail = {
    async verification(user, token) {
      await queueVerificationEmail(db, shop(), user, token);
      kick();
    },
    async passwordReset(user, token) {
      await queuePasswordResetEmail(db, shop(), user, token);
      kick();
    },
    async existingAccount(user) {
      // Past the per-account limit, silently send nothing more (the owner's inbox is not flooded).
      if ((await consumeRateLimit(db, "signUpPerAccount", user.email)).blocked) return;
      await queueAlreadyRegisteredEmail(db, shop(), user);
      kick();
    },
    async passwordChanged(user) {
      await queueSecurityNoticeEmail(db, shop(), user.email, "password-changed");
      kick();
    },
  };
  // The e-mail test sends at once through the worker's transport, to report the relay's answer.
  return { authMail, kick, sendNow: worker?.send ?? null, stop: async () => worker?.stop() };
}
