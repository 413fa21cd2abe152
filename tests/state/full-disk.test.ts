import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DiskFullError } from "../../src/state/durable-file.js";
import { DISK_RESERVE_BYTES } from "../../src/state/file-store.js";
import { installTinyDisk, setFree } from "./fixtures/tiny-disk.mjs";
import { backendAt, resource, tempDir, urnOf } from "./helpers.js";

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  uninstall = undefined;
});

/** Every .json file parses and every .ndjson line parses: nothing half-written anywhere. */
async function expectValidJsonEverywhere(dir: string): Promise<void> {
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath, e.name);
    if (e.name.endsWith(".json")) expect(() => JSON.parse(require_(p)), p).not.toThrow();
    if (e.name.endsWith(".ndjson")) for (const line of require_(p).split("\n").filter(Boolean)) expect(() => JSON.parse(line), `${p}: ${line}`).not.toThrow();
    expect(e.name, "no temporary file is left behind").not.toMatch(/\.tmp$/);
  }
}
const texts = new Map<string, string>();
const require_ = (p: string) => texts.get(p)!;
async function snapshotTexts(dir: string) {
  texts.clear();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) texts.set(join(e.parentPath, e.name), await readFile(join(e.parentPath, e.name), "utf8"));
}

describe("a full disk", () => {
  it("keeps the last good snapshot and fails naming the file when a compaction does not fit", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: resource("a") }]);
    const good = await j.compact();
    const before = await readFile(b.files.snapshot, "utf8");

    const op2 = await j.begin({ kind: "create", urn: urnOf("b"), type: "local:File" });
    j.end(op2, [{ kind: "upsert", resource: resource("b") }]);
    await j.flush();
    uninstall = await installTinyDisk(dir, 100); // room for records, not for a snapshot
    const err = await j.compact().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(`disk full (ENOSPC) writing ${b.files.snapshot}`);
    uninstall();
    uninstall = undefined;

    expect(await readFile(b.files.snapshot, "utf8")).toBe(before);
    await snapshotTexts(dir);
    await expectValidJsonEverywhere(dir);
    const loaded = await backendAt(dir).load(); // the last good snapshot + the complete journal
    expect(Object.keys(loaded.state.resources).sort()).toEqual([urnOf("a"), urnOf("b")]);
    expect(loaded.state.serial).toBe(good.serial + 1);
  });

  it("refuses a begin whose record does not fit, leaving no partial record", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    j.mutate([{ kind: "outputs", outputs: {}, secretOutputs: [] }]);
    await j.flush(); // journal and reserve exist
    const journalBefore = await readFile(b.files.journal, "utf8");
    uninstall = await installTinyDisk(dir, 20); // less than one record
    const err = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiskFullError);
    expect((err as Error).message).toBe(`disk full (ENOSPC) writing ${b.files.journal}: the last good state was left in place; free some space and run again`);
    expect(await readFile(b.files.journal, "utf8")).toBe(journalBefore); // the 20 bytes that fitted were cut off again
    expect(j.pending).toEqual([]);
    await expect(j.begin({ kind: "create", urn: urnOf("b"), type: "local:File" })).rejects.toThrow(DiskFullError);
  });

  it("still records the results of calls already made, using the reserve, then fails the run", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state, { flushDelayMs: -1 });
    const ops = [];
    for (const name of ["a", "b", "c"]) ops.push(await j.begin({ kind: "create", urn: urnOf(name), type: "local:File" }));
    expect((await stat(b.files.reserve)).size).toBe(DISK_RESERVE_BYTES);
    uninstall = await installTinyDisk(dir, 0); // the disk fills up while the provider calls run
    ops.forEach((op, i) => j.end(op, [{ kind: "upsert", resource: resource(["a", "b", "c"][i]!) }]));
    await expect(j.begin({ kind: "create", urn: urnOf("d"), type: "local:File" })).rejects.toThrow(/disk full \(ENOSPC\) writing .*journal\.ndjson/);
    await expect(j.compact()).rejects.toThrow(DiskFullError);
    await expect(j.close()).rejects.toThrow(DiskFullError);
    await expect(stat(b.files.reserve)).rejects.toThrow(/ENOENT/); // spent on the results
    setFree(0);
    uninstall();
    uninstall = undefined;

    const loaded = await backendAt(dir).load();
    expect(loaded.pending).toEqual([]); // every call made has its result: nothing to guess next run
    expect(Object.keys(loaded.state.resources).sort()).toEqual([urnOf("a"), urnOf("b"), urnOf("c")]);
    // With space again, the next run recreates the reserve and carries on.
    const j2 = backendAt(dir);
    const journal = j2.openJournal((await j2.load()).state);
    await journal.compact();
    await journal.close();
    expect((await stat(b.files.reserve)).size).toBe(DISK_RESERVE_BYTES);
  });

  it("fails before any provider call when the reserve itself does not fit", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    uninstall = await installTinyDisk(dir, 1000);
    const j = b.openJournal((await b.load()).state);
    await expect(j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" })).rejects.toThrow(
      `disk full (ENOSPC) writing ${b.files.reserve}: the last good state was left in place; free some space and run again`,
    );
  });

  it("fails writing lock.json and config.json with the same message, leaving the old files intact", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    await b.setConfig("region", "eu-west-1");
    uninstall = await installTinyDisk(dir, 10);
    await expect(b.setConfig("other", "a value longer than ten bytes")).rejects.toThrow(`disk full (ENOSPC) writing ${b.files.config}`);
    await expect(b.lock({ command: "up" })).rejects.toThrow(`disk full (ENOSPC) writing ${join(b.files.dir, "lock.json")}`);
    uninstall();
    uninstall = undefined;
    expect(await b.readConfig()).toEqual({ region: { value: "eu-west-1", secret: false } });
    const lock = await backendAt(dir).lock({ command: "up" }); // nothing was left locked
    await lock.release();
  });
});

describe("an unreadable state.json", () => {
  it("is replaced by the previous version in state.json.bak when asked (--from-backup), with a warning, and kept aside when the next version is written", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: resource("a") }]);
    const v1 = await j.compact();
    const op2 = await j.begin({ kind: "create", urn: urnOf("b"), type: "local:File" });
    j.end(op2, [{ kind: "upsert", resource: resource("b") }]);
    await j.compact();
    const op3 = await j.begin({ kind: "create", urn: urnOf("c"), type: "local:File" });
    j.end(op3, [{ kind: "upsert", resource: resource("c") }]);
    await j.close();
    const damaged = (await readFile(b.files.snapshot, "utf8")).slice(0, 40);
    await writeFile(b.files.snapshot, damaged); // truncated by something outside Cairn

    await expect(backendAt(dir).load()).rejects.toThrow(/state recover/);
    const fresh = backendAt(dir, { fromBackup: true });
    const loaded = await fresh.load();
    expect(loaded.notes[0]).toMatch(new RegExp(`^${b.files.snapshot.replace(/[.]/g, "\\.")} is unreadable \\(is not valid JSON .*\\): loaded the previous version \\(serial ${v1.serial}\\) from .*state\\.json\\.bak instead, as --from-backup asked`));
    expect(loaded.notes[1]).toMatch(/continues version \d+, newer than the backup loaded: its changes were replayed on the backup; resources changed only in the lost version may be stale: run refresh/);
    expect(Object.keys(loaded.state.resources).sort()).toEqual([urnOf("a"), urnOf("c")]); // b lived only in the lost version

    const j2 = fresh.openJournal(loaded.state);
    await j2.compact();
    await j2.close();
    const names = await readdir(b.files.dir);
    const kept = names.find((n) => n.startsWith("state.json.damaged-"));
    expect(kept).toBeDefined();
    expect(await readFile(join(b.files.dir, kept!), "utf8")).toBe(damaged);
    expect((await backendAt(dir).load()).notes).toEqual([]);
  });
});
