import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { createUserWithPassword, findUserByEmail } from "~/services/users.server";
import { verifyPassword } from "better-auth/crypto";
import { accounts, sessions, twoFactors, users } from "~/db/schema";
import { eq } from "drizzle-orm";
import { adminCreate } from "../../scripts/admin-create";

import { suiteServerDataDir } from "./test-database";
import { runsOn } from "../support/by-design";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * `npm run admin:create` on its own PGlite directory. The command runs in this process (it
 * closes the directory after each call), except twice as the real command, to check where it
 * prints and its exit codes.
 */
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("npm run admin:create", runsOn("PGlite"), () => {
  const dataDir = suiteServerDataDir("comptoir-admin-create-");
  const env = () => ({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" });

  const run = async (...args: string[]) => {
    const { code, message } = await adminCreate(args, env());
    return { code, output: message };
  };
  const runCommand = (...args: string[]) => {
    const result = spawnSync("npm", ["run", "--silent", "admin:create", "--", ...args], { cwd: root, env: env(), encoding: "utf8" });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  async function inspect(email: string) {
    const database = await openDatabase({ kind: "pglite", dataDir });
    try {
      const user = await findUserByEmail(database.db, email);
      const [account] = user ? await database.db.select().from(accounts).where(eq(accounts.userId, user.id)) : [];
      return { user, hash: account?.password ?? null };
    } finally {
      await database.close();
    }
  }

  it("creates an admin, refuses a second one on the same e-mail, and promotes an existing customer", async () => {
    expect(await run("--email", "pas-un-email", "--password", "secret-123")).toMatchObject({ code: 1 });
    // The real command: a refusal on stderr with exit code 1, a success on stdout with 0.
    expect(runCommand("--email", "chef@example.com")).toMatchObject({ code: 1, stderr: expect.stringContaining("--password est obligatoire") });
    const created = runCommand("--email", "Chef@Example.com", "--password", "secret-123", "--name", "Chef");
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining("Compte administrateur créé : chef@example.com") });
    const admin = await inspect("chef@example.com");
    expect(admin.user).toMatchObject({ role: "admin", emailVerified: true, name: "Chef" });
    expect(await verifyPassword({ hash: admin.hash!, password: "secret-123" })).toBe(true);

    expect(await run("--email", "chef@example.com", "--password", "autre-456")).toMatchObject({
      code: 1,
      output: expect.stringContaining("ajoutez --promote"),
    });

    const database = await openDatabase({ kind: "pglite", dataDir });
    await createUserWithPassword(database.db, { email: "client@example.com", password: "client-123", name: "Client", role: "user", emailVerified: false });
    // The admin lost the phone of their second factor: the operator sets a new password.
    const chef = (await findUserByEmail(database.db, "chef@example.com"))!;
    await database.db.insert(twoFactors).values({ id: "tf-chef", secret: "chiffre", backupCodes: "chiffres", userId: chef.id });
    await database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, chef.id));
    await database.db.insert(sessions).values({ id: "s-chef", token: "jeton-chef", userId: chef.id, expiresAt: new Date(Date.now() + 3_600_000) });
    await database.close();
    expect(await run("--email", "chef@example.com", "--promote", "--password", "retrouve-321")).toMatchObject({
      code: 0,
      output: expect.stringContaining("Ses sessions sont fermées et sa double authentification est à configurer"),
    });
    const recovered = await openDatabase({ kind: "pglite", dataDir });
    try {
      expect(await recovered.db.select().from(sessions).where(eq(sessions.userId, chef.id))).toEqual([]);
      expect(await recovered.db.select().from(twoFactors).where(eq(twoFactors.userId, chef.id))).toEqual([]);
      expect((await findUserByEmail(recovered.db, "chef@example.com"))!.twoFactorEnabled).toBe(false);
    } finally {
      await recovered.close();
    }
    // Without --password, an unconfirmed address is refused: whoever signed up with it first
    // (a squatter of a colleague's address) would become the admin.
    const squatted = await run("--email", "client@example.com", "--promote");
    expect(squatted).toMatchObject({ code: 1, output: expect.stringContaining("L'adresse client@example.com n'est pas confirmée") });
    expect((await inspect("client@example.com")).user).toMatchObject({ role: "user", emailVerified: false });
    // With it, the operator takes the account over: the squatter's password no longer opens it.
    const promoted = await run("--email", "client@example.com", "--promote", "--password", "nouveau-789");
    expect(promoted).toMatchObject({ code: 0, output: expect.stringContaining("client@example.com est maintenant administrateur (mot de passe mis à jour)") });
    const customer = await inspect("client@example.com");
    expect(customer.user).toMatchObject({ role: "admin", emailVerified: true });
    expect(await verifyPassword({ hash: customer.hash!, password: "nouveau-789" })).toBe(true);

    expect(await run("--email", "personne@example.com", "--promote")).toMatchObject({ code: 1, output: expect.stringContaining("Aucun compte") });
  }, 120_000);
});
