import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makePrivate } from "./private-files.server";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string) => (fs.lstatSync(file).mode & 0o7777).toString(8);

describe("makePrivate", () => {
  it("closes a folder left open (0755 folders, 0666 and 0644 files) without following links", () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-private-"));
    made.push(parent);
    const dir = path.join(parent, "data");
    for (const folder of ["pglite/base/5", "uploads/seed", "private"]) fs.mkdirSync(path.join(dir, folder), { recursive: true, mode: 0o755 });
    const files = { "pglite/base/5/1259": 0o666, "pglite/global/pg_control": 0o666, "uploads/seed/a-320.webp": 0o644, "private/rachat_1.webp": 0o644, "comptoir.lock": 0o640 };
    for (const [file, mode] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true, mode: 0o755 });
      fs.writeFileSync(path.join(dir, file), "x", { mode });
      fs.chmodSync(path.join(dir, file), mode);
    }
    // A link to a file outside: neither followed nor changed.
    const outside = path.join(parent, "outside.txt");
    fs.writeFileSync(outside, "y");
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(dir, "uploads", "link"));
    fs.chmodSync(dir, 0o755);

    const report = makePrivate(dir);
    expect(report.failed).toEqual([]);
    // The root, the 7 folders below it and the 5 files.
    expect(report.fixed).toBe(1 + 7 + 5);
    expect(modeOf(dir)).toBe("700");
    for (const folder of ["pglite", "pglite/base/5", "pglite/global", "uploads/seed", "private"]) expect(modeOf(path.join(dir, folder)), folder).toBe("700");
    for (const file of Object.keys(files)) expect(modeOf(path.join(dir, file)), file).toBe("600");
    expect(modeOf(outside)).toBe("644");
    expect(fs.lstatSync(path.join(dir, "uploads", "link")).isSymbolicLink()).toBe(true);
    // A second pass has nothing to do.
    expect(makePrivate(dir)).toMatchObject({ fixed: 0, failed: [] });
  });

  it("does nothing for a folder that does not exist yet", () => {
    expect(makePrivate(path.join(os.tmpdir(), "comptoir-private-absent", "data"))).toEqual({ checked: 0, fixed: 0, failed: [] });
  });
});
