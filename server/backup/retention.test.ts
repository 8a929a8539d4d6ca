import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { archivesBeyond, pruneArchives } from "./retention";

const at = (day: number) => `comptoir-backup-2026-11-${String(day).padStart(2, "0")}T03-00-00Z.tar.gz`;

describe("backup retention", () => {
  it("keeps the newest archives, the one just written among them, and nothing else is touched", () => {
    const names = [at(20), at(24), "notes.txt", at(22), ".comptoir-backup-tmp", at(26), "comptoir-backup-copie.tar.gz"];
    expect(archivesBeyond(names, 3, at(26))).toEqual([at(20)]);
    expect(archivesBeyond(names, 1, at(26))).toEqual([at(24), at(22), at(20)]);
    // A clock set back: the archive just written is never removed, even if older by its name.
    expect(archivesBeyond(names, 1, at(20))).toEqual([at(26), at(24), at(22)]);
    expect(archivesBeyond(names, 10, at(26))).toEqual([]);
  });

  it("removes them from the directory", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comptoir-retention-"));
    try {
      for (const name of [at(1), at(2), at(3), "lisez-moi.txt"]) fs.writeFileSync(path.join(dir, name), "x");
      expect(pruneArchives(dir, 2, at(3))).toEqual([at(1)]);
      expect(fs.readdirSync(dir).sort()).toEqual([at(2), at(3), "lisez-moi.txt"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
