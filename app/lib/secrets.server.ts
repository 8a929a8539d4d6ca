import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The session-signing secret: AUTH_SECRET when set, else one generated on first start and kept
 * in DATA_DIR (readable by the owner only), so sessions survive restarts.
 */
export function resolveAuthSecret(configured: string | undefined, dataDir: string): string {
  return resolveStoredSecret("auth-secret", configured, dataDir);
}

/** A secret from configuration, else generated once and kept in DATA_DIR/secrets/{name}. */
export function resolveStoredSecret(name: string, configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "secrets", name);
  try {
    const stored = fs.readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(32).toString("base64url");
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** A secret for one purpose, derived from the shop's secret: one leaked use does not give the others. */
export function deriveSecret(secret: string, purpose: string): string {
  return createHmac("sha256", secret).update(purpose).digest("base64url");
}
