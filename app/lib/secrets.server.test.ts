import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveAuthSecret } from "./secrets.server";

describe("resolveAuthSecret", () => {
  it("uses AUTH_SECRET when configured, without touching the data directory", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-"));
    expect(resolveAuthSecret("x".repeat(40), dir)).toBe("x".repeat(40));
    expect(fs.existsSync(path.join(dir, "secrets"))).toBe(false);
  });

  it("generates a secret once, owner-readable only, and returns the same one after a restart", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const first = resolveAuthSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveAuthSecret(undefined, dir)).toBe(first);
    expect(fs.statSync(path.join(dir, "secrets", "auth-secret")).mode & 0o777).toBe(0o600);
    expect(resolveAuthSecret(undefined, fs.mkdtempSync(path.join(os.tmpdir(), "secret-")))).not.toBe(first);
  });
});
