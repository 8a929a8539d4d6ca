// npm run admin:create -- --email admin@example.com --password '…' [--name 'Alice'] [--promote]
// Creates an administrator account, or with --promote gives the admin role to an existing
// account (and sets its password when --password is given). Uses DATA_DIR or DATABASE_URL
// like the server; PGlite allows one process per data directory, so stop the server first.
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { openDatabase } from "~/db/client.server";
import { PASSWORD_MIN_LENGTH } from "~/domain/auth-forms";
import { parseEnv } from "~/lib/env.server";
import { createUserWithPassword, findUserByEmail, setPassword, setRole } from "~/services/users.server";

const usage = "Usage : npm run admin:create -- --email <email> --password <mot de passe> [--name <nom>] [--promote]";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    name: { type: "string" },
    promote: { type: "boolean", default: false },
  },
});

const input = z
  .object({
    email: z.string({ error: "--email est obligatoire" }).trim().toLowerCase().pipe(z.email("--email doit être une adresse e-mail valide")),
    password: z.string().min(PASSWORD_MIN_LENGTH, `--password doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères`).optional(),
    name: z.string().trim().min(2).optional(),
    promote: z.boolean(),
  })
  .refine((v) => v.promote || v.password, { message: "--password est obligatoire pour créer un compte", path: ["password"] })
  .safeParse(values);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (!input.success) fail(`${input.error.issues.map((i) => i.message).join("\n")}\n${usage}`);
const { email, password, name, promote } = input.data;

const env = parseEnv(process.env);
let database;
try {
  database = await openDatabase(env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: path.resolve(env.DATA_DIR) });
} catch (error) {
  fail(`Impossible d'ouvrir la base de données : ${(error as Error).message}`);
}

try {
  const existing = await findUserByEmail(database.db, email);
  if (existing && !promote) {
    fail(`Un compte existe déjà pour ${email} : ajoutez --promote pour lui donner le rôle administrateur.`);
  }
  if (existing) {
    await setRole(database.db, email, "admin");
    if (password) await setPassword(database.db, existing.id, password);
    console.log(`${email} est maintenant administrateur${password ? " (mot de passe mis à jour)" : ""}.`);
  } else if (promote && !password) {
    fail(`Aucun compte pour ${email} : donnez --password pour le créer.`);
  } else {
    await createUserWithPassword(database.db, { email, password: password!, name: name ?? "Administrateur", role: "admin", emailVerified: true });
    console.log(`Compte administrateur créé : ${email}`);
  }
} finally {
  await database.close();
}
