import { readdir, readFile, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DamagedStateError } from "../../src/state/recover.js";
import type { FileBackend } from "../../src/state/file-backend.js";
import { backendAt, resource, tempDir, urnOf } from "./helpers.js";

/**
 * GIVEN a stack with three versions' worth of changes: a (version 1), b (version 2), then c only in the
 * journal. Returns the backend and the serial of each compaction.
 */
async function threeChanges(dir: string): Promise<{ b: FileBackend; v1: number; v2: number }> {
  const b = backendAt(dir);
  const j = b.openJournal((await b.load()).state);
  const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
  j.end(op, [{ kind: "upsert", resource: resource("a") }]);
  const v1 = (await j.compact()).serial;
  const op2 = await j.begin({ kind: "create", urn: urnOf("b"), type: "local:File" });
  j.end(op2, [{ kind: "upsert", resource: resource("b") }]);
  const v2 = (await j.compact()).serial;
  const op3 = await j.begin({ kind: "create", urn: urnOf("c"), type: "local:File" });
  j.end(op3, [{ kind: "upsert", resource: resource("c") }]);
  await j.close();
  return { b, v1, v2 };
}

async function filesOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name), await readFile(join(e.parentPath, e.name), "utf8"));
  }
  return out;
}

describe("a damaged state.json", () => {
  it("is refused, naming the file, what is wrong and the two ways out; nothing is written", async () => {
    const dir = await tempDir();
    const { b } = await threeChanges(dir);
    await writeFile(b.files.snapshot, (await readFile(b.files.snapshot, "utf8")).slice(0, 40));
    const before = await filesOf(dir);

    const err = await backendAt(dir).load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DamagedStateError);
    const message = (err as Error).message;
    expect(message).toContain(b.files.snapshot);
    expect(message).toMatch(/is not valid JSON/);
    expect(message).toContain("state recover --stack dev");
    expect(message).toContain("--from-backup");
    expect(await filesOf(dir)).toEqual(before);
  });

  it("keeps history copies that are independent files: damaging state.json in place leaves them whole", async () => {
    const dir = await tempDir();
    const { b, v2 } = await threeChanges(dir);
    const version = join(b.files.history, `${String(v2).padStart(12, "0")}.json`);
    const whole = await readFile(version, "utf8");
    expect((await stat(version)).ino).not.toBe((await stat(b.files.snapshot)).ino);
    await truncate(b.files.snapshot, 10); // in place: a hard link would be truncated with it
    expect(await readFile(version, "utf8")).toBe(whole);
  });

  it("is rebuilt by recover from the newest stored version and the journal, written only when confirmed", async () => {
    const dir = await tempDir();
    const { b, v2 } = await threeChanges(dir);
    const damaged = (await readFile(b.files.snapshot, "utf8")).slice(0, 40);
    await writeFile(b.files.snapshot, damaged);
    const before = await filesOf(dir);

    // WHEN recover is asked but not confirmed THEN it shows what it found and writes nothing.
    const declined = await backendAt(dir).recover({ confirm: async () => false });
    expect(declined.applied).toBe(false);
    expect(declined.plan!.base).toMatchObject({ serial: v2 });
    expect(declined.plan!.records).toBe(1);
    expect(declined.plan!.resources.map((r) => r.urn).sort()).toEqual([urnOf("a"), urnOf("b"), urnOf("c")]);
    expect(declined.plan!.damaged).toEqual([expect.stringContaining(b.files.snapshot)]);
    expect(await filesOf(dir)).toEqual(before);

    // WHEN confirmed THEN every change is back (b lived only in the damaged version's history copy).
    const done = await backendAt(dir).recover({ confirm: async () => true });
    expect(done.applied).toBe(true);
    const loaded = await backendAt(dir).load();
    expect(Object.keys(loaded.state.resources).sort()).toEqual([urnOf("a"), urnOf("b"), urnOf("c")]);
    expect(loaded.state.serial).toBe(done.plan!.serial);
    expect(loaded.notes).toEqual([]);
    const kept = (await readdir(b.files.dir)).find((n) => n.startsWith("state.json.damaged-"));
    expect(await readFile(join(b.files.dir, kept!), "utf8")).toBe(damaged);
  });

  it("has nothing to recover when the state reads fine", async () => {
    const dir = await tempDir();
    await threeChanges(dir);
    const r = await backendAt(dir).recover({ confirm: async () => true });
    expect(r.needed).toBe(false);
    expect(r.applied).toBe(false);
  });

  it("is replaced by the previous version only when asked with fromBackup, with a note", async () => {
    const dir = await tempDir();
    const { b, v1 } = await threeChanges(dir);
    await writeFile(b.files.snapshot, "");
    const loaded = await backendAt(dir, { fromBackup: true }).load();
    expect(loaded.notes[0]).toMatch(new RegExp(`is unreadable \\(is empty\\): loaded the previous version \\(serial ${v1}\\) from .*state\\.json\\.bak`));
    expect(Object.keys(loaded.state.resources).sort()).toEqual([urnOf("a"), urnOf("c")]); // b lived only in the damaged version
  });

  it("recovers a journal that continues a snapshot someone deleted", async () => {
    const dir = await tempDir();
    const { b } = await threeChanges(dir);
    const { rm } = await import("node:fs/promises");
    await rm(b.files.snapshot);
    await expect(backendAt(dir).load()).rejects.toThrow(/state recover --stack dev/);
    const r = await backendAt(dir).recover({ confirm: async () => true });
    expect(r.applied).toBe(true);
    expect(Object.keys((await backendAt(dir).load()).state.resources).sort()).toEqual([urnOf("a"), urnOf("b"), urnOf("c")]);
  });
});
