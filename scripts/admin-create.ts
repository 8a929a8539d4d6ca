// npm run admin:create -- --email admin@example.com --password '…' [--name 'Alice'] [--promote]
// Creates an administrator account, or with --promote gives the admin role to an existing
// account (and sets its password when --password is given; without it, only an account whose
// address is confirmed); the existing account is then signed out everywhere and its second
// factor turned off (the recovery of a locked-out admin).
// Uses DATA_DIR or DATABASE_URL like the server; PGlite allows one process per data directory,
// so stop the server first.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { type Database, openDatabase } from "~/db/client.server";
import { PASSWORD_MIN_LENGTH } from "~/domain/auth-forms";
import { parseEnv } from "~/lib/env.server";
import { usePrivateUmask } from "~/lib/private-files.server";
import { createUserWithPassword, endSessionsAndSecondFactor, findUserByEmail, setPassword, setRole } from "~/services/users.server";

const usage = "Usage : npm run admin:create -- --email <email> --password <mot de passe> [--name <nom>] [--promote]";

const Input = z
  .object({
    email: z.string({ error: "--email est obligatoire" }).trim().toLowerCase().pipe(z.email("--email doit être une adresse e-mail valide")),
    password: z.string().min(PASSWORD_MIN_LENGTH, `--password doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères`).optional(),
    name: z.string().trim().min(2).optional(),
    promote: z.boolean(),
  })
  .refine((v) => v.promote || v.password, { message: "--password est obligatoire pour créer un compte", path: ["password"] });

/** What the command prints: on stdout with code 0, on stderr with code 1. */
export type AdminCreateResult = { code: 0 | 1; message: string };

/** The command itself, on its arguments and environment (the tests call it in their process). */
export async function adminCreate(args: string[], env: NodeJS.ProcessEnv): Promise<AdminCreateResult> {
  const fail = (message: string): AdminCreateResult => ({ code: 1, message });
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      promote: { type: "boolean", default: false },
    },
  });
  const input = Input.safeParse(values);
  if (!input.success) return fail(`${input.error.issues.map((i) => i.message).join("\n")}\n${usage}`);
  const { email, password, name, promote } = input.data;

  const config = parseEnv(env);
  let database: Database;
  try {
    database = await openDatabase(config.DATABASE_URL ? { kind: "postgres", url: config.DATABASE_URL } : { kind: "pglite", dataDir: path.resolve(config.DATA_DIR) });
  } catch (error) {
    return fail(`Impossible d'ouvrir la base de données : ${(error as Error).message}`);
  }

  try {
    const existing = await findUserByEmail(database.db, email);
    if (existing && !promote) {
      return fail(`Un compte existe déjà pour ${email} : ajoutez --promote pour lui donner le rôle administrateur.`);
    }
    if (existing && !password && !existing.emailVerified) {
      // Whoever signed up with this address without confirming it would become the admin.
      return fail(
        `L'adresse ${email} n'est pas confirmée : son titulaire doit d'abord cliquer sur le lien de confirmation reçu à l'inscription. ` +
          "Ou donnez --password pour reprendre le compte avec un nouveau mot de passe.",
      );
    }
    if (existing) {
      await setRole(database.db, email, "admin", { vouch: Boolean(password) });
      if (password) await setPassword(database.db, existing.id, password);
      // The operator's recovery: every session ends and the second factor goes, to be enrolled
      // again at the next sign-in (a lost phone, or an enrolment someone else made first).
      await endSessionsAndSecondFactor(database.db, existing.id);
      return {
        code: 0,
        message: `${email} est maintenant administrateur${password ? " (mot de passe mis à jour)" : ""}. Ses sessions sont fermées et sa double authentification est à configurer à la prochaine connexion.`,
      };
    }
    if (promote && !password) return fail(`Aucun compte pour ${email} : donnez --password pour le créer.`);
    await createUserWithPassword(database.db, { email, password: password!, name: name ?? "Administrateur", role: "admin", emailVerified: true });
    return { code: 0, message: `Compte administrateur créé : ${email}` };
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Before anything is written: what the command adds to DATA_DIR is its OS user's alone.
  usePrivateUmask();
  const { code, message } = await adminCreate(process.argv.slice(2), process.env);
  (code === 0 ? console.log : console.error)(message);
  process.exit(code);
}
