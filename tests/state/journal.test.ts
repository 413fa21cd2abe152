import { appendFile, readFile, writeFile, mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { emptyState, STATE_FORMAT_VERSION, type StackState } from "../../src/state/types.js";
import { JOURNAL_FORMAT_VERSION } from "../../src/state/journal-format.js";
import { snapshotChunks } from "../../src/state/snapshot.js";
import { backendAt, resource, tempDir, urnOf } from "./helpers.js";

async function lines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("journal replay", () => {
  it("starts from an empty state when nothing is stored", async () => {
    const b = backendAt(await tempDir());
    const loaded = await b.load();
    expect(loaded.state).toEqual(emptyState("proj", "dev"));
    expect(loaded.pending).toEqual([]);
    expect(loaded.notes).toEqual([]);
  });

  it("replays begin/end, abort and mutate records in order", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);

    const a = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(a, [{ kind: "upsert", resource: resource("a") }]);
    const bOp = await j.begin({ kind: "create", urn: urnOf("b"), type: "local:File" });
    j.end(bOp, [{ kind: "upsert", resource: resource("b") }]);
    const c = await j.begin({ kind: "create", urn: urnOf("c"), type: "local:File" });
    j.abort(c, [{ kind: "upsert", resource: resource("c", { tainted: true }) }]);
    const d = await j.begin({ kind: "delete", urn: urnOf("b"), type: "local:File", id: "/tmp/out/b.txt" });
    j.end(d, [{ kind: "remove", urn: urnOf("b") }]);
    j.mutate([{ kind: "outputs", outputs: { url: "http://x" }, secretOutputs: [] }]);
    await j.flush();

    expect(Object.keys(j.state.resources).sort()).toEqual([urnOf("a"), urnOf("c")]);
    expect(j.state.resources[urnOf("c")]!.tainted).toBe(true);
    expect(j.state.outputs).toEqual({ url: "http://x" });
    // One serial bump per record that carried mutations (4 ends/aborts + 1 mutate).
    expect(j.state.serial).toBe(5);

    const loaded = await backendAt(dir).load();
    expect(loaded.state).toEqual(j.state);
    expect(loaded.pending).toEqual([]);
    await j.close();

    const recs = await lines(b.files.journal);
    expect(recs.map((r) => r.t)).toEqual(["head", "begin", "end", "begin", "end", "begin", "abort", "begin", "end", "mutate"]);
    // Begin records carry no inputs, and no type when the URN names it; delete begins carry the id.
    expect(recs[1]).toEqual({ t: "begin", op: 1, kind: "create", urn: urnOf("a"), since: expect.any(String) });
    expect(recs[7]).toMatchObject({ t: "begin", kind: "delete", id: "/tmp/out/b.txt" });
    // An end recording the operation's own resource is short: no URN or type (the begin has them).
    const { urn: _u, type: _t, ...short } = resource("a");
    expect(recs[2]).toEqual({ t: "end", op: 1, r: short });
    // Any other change is written in full.
    expect(recs[8]).toEqual({ t: "end", op: 4, m: [{ kind: "remove", urn: urnOf("b") }] });
  });

  it("reports a begin with no end as pending, and lets the next run end it", async () => {
    const dir = await tempDir();
    const b1 = backendAt(dir);
    const j1 = b1.openJournal((await b1.load()).state);
    const ok = await j1.begin({ kind: "create", urn: urnOf("ok"), type: "local:File" });
    j1.end(ok, [{ kind: "upsert", resource: resource("ok") }]);
    const lost = await j1.begin({ kind: "update", urn: urnOf("ok"), type: "local:File", id: "/tmp/out/ok.txt" });
    await j1.flush();
    // The process "dies" here: no end for `lost`.

    const b2 = backendAt(dir);
    const loaded = await b2.load();
    expect(loaded.pending).toEqual([
      { op: lost, kind: "update", urn: urnOf("ok"), type: "local:File", id: "/tmp/out/ok.txt", since: expect.any(String) },
    ]);
    expect(Object.keys(loaded.state.resources)).toEqual([urnOf("ok")]);

    const j2 = b2.openJournal(loaded.state);
    expect(j2.pending.map((p) => p.op)).toEqual([lost]);
    j2.end(lost, [{ kind: "upsert", resource: resource("ok", { outputs: { size: 99 } }) }]);
    const next = await j2.begin({ kind: "create", urn: urnOf("new"), type: "local:File" });
    expect(next).toBeGreaterThan(lost); // op numbers never repeat within a journal file
    j2.end(next, []);
    await j2.close();

    const again = await backendAt(dir).load();
    expect(again.pending).toEqual([]);
    expect(again.state.resources[urnOf("ok")]!.outputs).toEqual({ size: 99 });
    await j1.close(); // only now: the first run "died" above
  });

  it("refuses to end an operation that is not in progress", async () => {
    const b = backendAt(await tempDir());
    const j = b.openJournal((await b.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(op, []);
    expect(() => j.end(op, [])).toThrow(/operation 1 is not in progress/);
    expect(() => j.abort(42, [])).toThrow(/operation 42 is not in progress/);
    await j.close();
  });

  it("applies each mutation once, in call order, to journal.state", async () => {
    const b = backendAt(await tempDir());
    const j = b.openJournal((await b.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(op, [
      { kind: "upsert", resource: resource("a", { id: "first" }) },
      { kind: "upsert", resource: resource("a", { id: "second" }) },
      { kind: "upsert", resource: resource("z") },
      { kind: "remove", urn: urnOf("z") },
    ]);
    expect(j.state.resources[urnOf("a")]!.id).toBe("second");
    expect(j.state.resources[urnOf("z")]).toBeUndefined();
    await j.close();
    expect((await backendAt(b.files.dir.replace(/\/stacks\/dev$/, "")).load()).state.resources[urnOf("a")]!.id).toBe("second");
  });

  it("does not modify the state object passed to openJournal", async () => {
    const b = backendAt(await tempDir());
    const { state } = await b.load();
    const before = structuredClone(state);
    const j = b.openJournal(state);
    j.mutate([{ kind: "upsert", resource: resource("a") }]);
    expect(state).toEqual(before);
    await j.close();
  });
});

describe("damaged journals", () => {
  async function journalWithTwoResources(dir: string) {
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    for (const n of ["a", "b"]) {
      const op = await j.begin({ kind: "create", urn: urnOf(n), type: "local:File" });
      j.end(op, [{ kind: "upsert", resource: resource(n) }]);
    }
    await j.close();
    return b.files;
  }

  it("ignores a torn (unterminated) last line with a note, and cuts it off before appending", async () => {
    const dir = await tempDir();
    const files = await journalWithTwoResources(dir);
    const good = await readFile(files.journal);
    await appendFile(files.journal, '{"t":"end","op":7,"m":[{"kind":"upse');

    const b = backendAt(dir);
    const loaded = await b.load();
    expect(Object.keys(loaded.state.resources).sort()).toEqual([urnOf("a"), urnOf("b")]);
    expect(loaded.notes).toHaveLength(1);
    expect(loaded.notes[0]).toMatch(/ignored an incomplete last record in .*journal\.ndjson/);

    const j = b.openJournal(loaded.state);
    const op = await j.begin({ kind: "create", urn: urnOf("c"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: resource("c") }]);
    await j.close();
    const after = await readFile(files.journal);
    expect(after.subarray(0, good.length).equals(good)).toBe(true);
    const again = await backendAt(dir).load();
    expect(again.notes).toEqual([]);
    expect(Object.keys(again.state.resources).sort()).toEqual([urnOf("a"), urnOf("b"), urnOf("c")]);
  });

  it("treats an unparsable but terminated LAST line as torn too", async () => {
    const dir = await tempDir();
    const files = await journalWithTwoResources(dir);
    await appendFile(files.journal, "\0\0\0\0\n");
    const loaded = await backendAt(dir).load();
    expect(Object.keys(loaded.state.resources)).toHaveLength(2);
    expect(loaded.notes[0]).toMatch(/ignored a damaged last record/);
  });

  it("refuses a damaged line in the middle, naming file and line, and leaves the file as it was", async () => {
    const dir = await tempDir();
    const files = await journalWithTwoResources(dir);
    const recs = (await readFile(files.journal, "utf8")).split("\n");
    recs[2] = recs[2]!.slice(0, 20); // damage line 3 (the first end record)
    await writeFile(files.journal, recs.join("\n"));
    const bytes = await readFile(files.journal);

    const b = backendAt(dir);
    await expect(b.load()).rejects.toThrow(/journal\.ndjson line 3 is damaged \(not valid JSON\); the file was left untouched/);
    // openJournal cannot be reached without a successful load.
    expect(() => b.openJournal(emptyState("proj", "dev"))).toThrow(/call load\(\) before openJournal\(\)/);
    await expect(b.compact(emptyState("proj", "dev"))).rejects.toThrow(/line 3 is damaged/);
    expect((await readFile(files.journal)).equals(bytes)).toBe(true);
  });

  it("refuses a middle record that is valid JSON but not a journal record", async () => {
    const dir = await tempDir();
    const files = await journalWithTwoResources(dir);
    const recs = (await readFile(files.journal, "utf8")).split("\n");
    recs[2] = JSON.stringify({ t: "end", op: "one" });
    await writeFile(files.journal, recs.join("\n"));
    await expect(backendAt(dir).load()).rejects.toThrow(/line 3 is damaged \(op: /);
  });

  it("reads a version 1 journal (every record in the long form) as earlier Cairns wrote it", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    await mkdir(dirname(b.files.journal), { recursive: true });
    const since = "2026-01-01T00:00:00.000Z";
    const v1 = [
      { t: "head", v: 1, serial: 0 },
      { t: "begin", op: 1, kind: "create", urn: urnOf("a"), type: "local:File", since },
      { t: "end", op: 1, m: [{ kind: "upsert", resource: resource("a") }] },
      { t: "begin", op: 2, kind: "create", urn: urnOf("b"), type: "local:File", since },
    ];
    await writeFile(b.files.journal, v1.map((r) => JSON.stringify(r) + "\n").join(""));
    const loaded = await b.load();
    expect(loaded.state.resources).toEqual({ [urnOf("a")]: resource("a") });
    expect(loaded.pending).toEqual([{ op: 2, kind: "create", urn: urnOf("b"), type: "local:File", since }]);
  });

  it("puts back the outputs a short end left out because they repeat an input, in their place", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const echoing = resource("a", { inputs: { path: "p", content: "c", mode: 1 }, outputs: { path: "p", content: "c", size: 1, mode: 1 } });
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: echoing }]);
    await j.close();
    const recs = await lines(b.files.journal);
    // Only the leading run that repeats inputs is left out; `mode` comes after `size`, so it stays.
    expect(recs[2]).toMatchObject({ t: "end", op, r: { outputs: { size: 1, mode: 1 } }, same: ["path", "content"] });
    const loaded = await backendAt(dir).load();
    expect(loaded.state.resources[urnOf("a")]).toEqual(echoing);
    expect(Object.keys(loaded.state.resources[urnOf("a")]!.outputs)).toEqual(["path", "content", "size", "mode"]);
  });

  it("keeps the type in a begin whose URN names another (and its short end uses it)", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:Other" });
    j.end(op, [{ kind: "upsert", resource: resource("a", { type: "local:Other" }) }]);
    await j.close();
    expect((await lines(b.files.journal))[1]).toMatchObject({ t: "begin", type: "local:Other" });
    expect((await backendAt(dir).load()).state.resources[urnOf("a")]!.type).toBe("local:Other");
  });

  it("refuses a short end record that no begin started, naming the line", async () => {
    const dir = await tempDir();
    const files = await journalWithTwoResources(dir);
    const text = (await readFile(files.journal, "utf8")) + '{"t":"end","op":99,"r":{"id":"x","inputs":{},"outputs":{},"deps":[]}}\n{"t":"mutate","m":[]}\n';
    await writeFile(files.journal, text);
    await expect(backendAt(dir).load()).rejects.toThrow(/line 6 is damaged \(a short end record for operation 99, which no begin record before it started\)/);
  });

  it("refuses a journal from a newer Cairn", async () => {
    const dir = await tempDir();
    const files = await journalWithTwoResources(dir);
    const text = (await readFile(files.journal, "utf8")).replace(`"v":${JOURNAL_FORMAT_VERSION}`, `"v":${JOURNAL_FORMAT_VERSION + 1}`);
    await writeFile(files.journal, text);
    await expect(backendAt(dir).load()).rejects.toThrow(/written by a newer Cairn \(journal format v3, this build reads up to v2\): upgrade cairn/);
    expect(await readFile(files.journal, "utf8")).toBe(text);
  });
});

describe("damaged snapshots", () => {
  async function compacted(dir: string) {
    const b = backendAt(dir);
    const { state } = await b.load();
    const j = b.openJournal(state);
    j.mutate([{ kind: "upsert", resource: resource("a") }]);
    await j.compact();
    await j.close();
    return b.files;
  }

  const cases: [string, (text: string) => string, RegExp][] = [
    ["not JSON", () => "{ this is not json", /state\.json is not valid JSON .*Nothing was changed, and the file was left as it is.*state recover/],
    ["truncated", (t) => t.slice(0, Math.floor(t.length / 2)), /state\.json is not valid JSON .*truncated or damaged/],
    ["empty", () => "", /state\.json is empty/],
    ["schema-invalid", (t) => t.replace('"deps":[]', '"deps":"none"'), /state\.json is not a valid Cairn state file: resources\..*deps: /],
    ["from a newer Cairn", (t) => t.replace('"version": 1', `"version": ${STATE_FORMAT_VERSION + 1}`), /written by a newer Cairn \(format v2, this build reads v1\): upgrade cairn/],
    ["of another project", (t) => t.replace('"project": "proj"', '"project": "other"'), /holds the state of project "other" stack "dev", but this program is project "proj"/],
  ];

  it("ends with a digest of every byte before it; a file edited by hand is checked in full and still loads", async () => {
    const dir = await tempDir();
    const files = await compacted(dir);
    const text = await readFile(files.snapshot, "utf8");
    const at = text.lastIndexOf(',\n "digest": "');
    const digest = `sha256-${createHash("sha256").update(text.slice(0, at)).digest("base64")}`;
    expect(text.endsWith(`"digest": "${digest}"\n}\n`)).toBe(true);
    expect((await backendAt(dir).load()).state.resources[urnOf("a")]).toEqual(resource("a"));

    // A valid edit (the digest no longer matches): validated field by field, and accepted.
    await writeFile(files.snapshot, text.replace('"content":"hello a"', '"content":"edited"'));
    const edited = await backendAt(dir).load();
    expect(edited.state.resources[urnOf("a")]!.inputs.content).toBe("edited");
    expect(edited.state).not.toHaveProperty("digest");
  });

  it("is made in pieces of about 256 KB (never one string), which together are one JSON document", () => {
    const resources = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [urnOf(`r${i}`), resource(`r${i}`)]));
    const state: StackState = { ...emptyState("proj", "dev"), serial: 4, resources };
    const pieces = [...snapshotChunks(state)];
    expect(pieces.length).toBeGreaterThan(3);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(256 * 1024 + 1024);
    const { digest, ...parsed } = JSON.parse(pieces.join("")) as StackState & { digest: string };
    expect(parsed).toEqual(state);
    expect(digest).toMatch(/^sha256-/);
  });

  for (const [name, damage, message] of cases) {
    it(`refuses a snapshot that is ${name} and leaves it byte-identical`, async () => {
      const dir = await tempDir();
      const files = await compacted(dir);
      const text = damage(await readFile(files.snapshot, "utf8"));
      await writeFile(files.snapshot, text);
      const before = await readFile(files.snapshot);
      const journalBefore = await readFile(files.journal);

      const b = backendAt(dir);
      await expect(b.load()).rejects.toThrow(message);
      await expect(b.compact(emptyState("proj", "dev"))).rejects.toThrow(message);
      expect((await readFile(files.snapshot)).equals(before)).toBe(true);
      expect((await readFile(files.journal)).equals(journalBefore)).toBe(true);
    });
  }

  it("refuses a journal that continues a newer snapshot than the one present", async () => {
    const dir = await tempDir();
    const files = await compacted(dir); // snapshot serial 2, journal head 2
    const snap = JSON.parse(await readFile(files.snapshot, "utf8")) as StackState;
    await writeFile(files.snapshot, JSON.stringify({ ...snap, serial: 1 }));
    await expect(backendAt(dir).load()).rejects.toThrow(/state\.json has serial 1, but .*journal\.ndjson continues serial 2: the snapshot was deleted or replaced by an older copy.*state recover/);
  });
});

describe("compaction", () => {
  it("writes the snapshot atomically, starts a fresh journal, and load returns exactly that state", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    for (const n of ["a", "b", "c"]) {
      const op = await j.begin({ kind: "create", urn: urnOf(n), type: "local:File" });
      j.end(op, [{ kind: "upsert", resource: resource(n, { deps: n === "a" ? [] : [urnOf("a")] }) }]);
    }
    j.mutate([{ kind: "outputs", outputs: { count: 3 }, secretOutputs: [] }]);
    const serialBefore = j.state.serial;
    const saved = await j.compact();
    expect(saved.serial).toBe(serialBefore + 1);
    expect(j.state.serial).toBe(saved.serial);

    expect(await lines(b.files.journal)).toEqual([{ t: "head", v: JOURNAL_FORMAT_VERSION, serial: saved.serial }]);
    expect((await backendAt(dir).load()).state).toEqual(saved);

    // The journal keeps working after compaction, on top of the new snapshot.
    const op = await j.begin({ kind: "delete", urn: urnOf("c"), type: "local:File", id: "/tmp/out/c.txt" });
    j.end(op, [{ kind: "remove", urn: urnOf("c") }]);
    await j.close();
    const loaded = await backendAt(dir).load();
    expect(Object.keys(loaded.state.resources).sort()).toEqual([urnOf("a"), urnOf("b")]);
    expect(loaded.state.serial).toBe(saved.serial + 1);
    expect(loaded.state).toEqual(j.state);
  });

  it("keeps operations still pending in the fresh journal", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const open = await j.begin({ kind: "create", urn: urnOf("slow"), type: "local:File" });
    const done = await j.begin({ kind: "create", urn: urnOf("fast"), type: "local:File" });
    j.end(done, [{ kind: "upsert", resource: resource("fast") }]);
    await j.compact();
    const loaded = await backendAt(dir).load();
    expect(loaded.pending.map((p) => [p.op, p.urn])).toEqual([[open, urnOf("slow")]]);
    expect(Object.keys(loaded.state.resources)).toEqual([urnOf("fast")]);
    j.end(open, [{ kind: "upsert", resource: resource("slow") }]);
    await j.close();
    const after = await backendAt(dir).load();
    expect(after.pending).toEqual([]);
    expect(Object.keys(after.state.resources).sort()).toEqual([urnOf("fast"), urnOf("slow")]);
  });

  it("writes a large snapshot in pieces, holding exactly what was recorded before it started, while records keep coming", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const names = Array.from({ length: 3000 }, (_, i) => `r${i}`);
    for (const n of names) j.mutate([{ kind: "upsert", resource: resource(n, { inputs: { path: `out/${n}.txt`, content: "x".repeat(300) } }) }]);
    await j.flush();
    let compacting = true;
    const saved = j.compact().finally(() => (compacting = false));
    // Records made while the snapshot is written: a new resource per turn, and one removed.
    const later: string[] = [];
    j.mutate([{ kind: "remove", urn: urnOf("r0") }]);
    while (compacting) {
      const n = `late${later.length}`;
      later.push(n);
      j.mutate([{ kind: "upsert", resource: resource(n) }]);
      await new Promise((r) => setImmediate(r));
    }
    const snap = await saved;
    expect(later.length).toBeGreaterThan(1);
    const text = await readFile(b.files.snapshot, "utf8");
    const written = JSON.parse(text) as StackState & { digest: string };
    expect(Object.keys(written.resources)).toEqual(names.map(urnOf)); // r0 still there, no late one
    expect(Object.keys(snap.resources)).toEqual(names.map(urnOf));
    const at = text.lastIndexOf(',\n "digest": "');
    expect(written.digest).toBe(`sha256-${createHash("sha256").update(text.slice(0, at)).digest("base64")}`);
    await j.close();
    const loaded = await backendAt(dir).load();
    expect(Object.keys(loaded.state.resources).sort()).toEqual([...names.slice(1), ...later].map(urnOf).sort());
  });

  it("covers begins not yet durable when compaction starts: they resolve once in the fresh journal", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const began = j.begin({ kind: "create", urn: urnOf("racing"), type: "local:File" });
    const saved = j.compact(); // same tick: the begin has not been written yet
    const op = await began;
    await saved;
    const recs = await lines(b.files.journal);
    expect(recs.filter((r) => r.t === "begin").map((r) => r.op)).toEqual([op]); // written once, in the fresh journal
    expect((await backendAt(dir).load()).pending.map((p) => p.op)).toEqual([op]);
    await j.close();
  });

  it("stops the run when a write fails: the waiting begin rejects and later calls throw", async () => {
    const b = backendAt(await tempDir());
    const j = b.openJournal((await b.load()).state, {
      onSync: () => {
        throw new Error("disk on fire");
      },
    });
    await expect(j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" })).rejects.toThrow(/writing .*journal\.ndjson failed \(disk on fire\); the run must stop/);
    expect(() => j.mutate([{ kind: "remove", urn: urnOf("a") }])).toThrow(/disk on fire/);
    await expect(j.begin({ kind: "create", urn: urnOf("b"), type: "local:File" })).rejects.toThrow(/disk on fire/);
    await expect(j.flush()).rejects.toThrow(/disk on fire/);
    await expect(j.close()).rejects.toThrow(/disk on fire/);
  });

  it("what a compaction returns, and a state it was given, stay as written when the journal records more", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    j.mutate([{ kind: "upsert", resource: resource("a") }]);
    const saved = await j.compact();
    // GIVEN a state computed elsewhere, snapshotted as it is
    const given: StackState = { ...saved, resources: { ...saved.resources, [urnOf("b")]: resource("b") } };
    const again = await j.compact(given);
    // WHEN the journal records changes after both
    j.mutate([{ kind: "remove", urn: urnOf("a") }, { kind: "upsert", resource: resource("c") }]);
    // THEN neither snapshot nor the given state changed; the journal's state did
    expect(Object.keys(saved.resources)).toEqual([urnOf("a")]);
    expect(Object.keys(again.resources)).toEqual([urnOf("a"), urnOf("b")]);
    expect(Object.keys(given.resources)).toEqual([urnOf("a"), urnOf("b")]);
    expect(Object.keys(j.state.resources)).toEqual([urnOf("b"), urnOf("c")]);
    await j.close();
    expect(Object.keys((await backendAt(dir).load()).state.resources)).toEqual([urnOf("b"), urnOf("c")]);
  });

  it("backend.compact(state) snapshots a state computed elsewhere", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const { state } = await b.load();
    const next: StackState = { ...state, resources: { [urnOf("x")]: resource("x") } };
    const saved = await b.compact(next);
    expect(saved.serial).toBe(1);
    expect((await backendAt(dir).load()).state).toEqual(saved);
  });

  it("after an interrupted compaction (snapshot written, journal not replaced) uses only the old journal's pending operations", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: resource("a") }]);
    const pendingOp = await j.begin({ kind: "delete", urn: urnOf("a"), type: "local:File", id: "/tmp/out/a.txt" });
    await j.close();
    const oldJournal = await readFile(b.files.journal);
    // Simulate the crash: a snapshot with the changes, but the journal still the old one.
    const loaded = await backendAt(dir).load();
    await backendAt(dir).compact(loaded.state);
    await writeFile(b.files.journal, oldJournal);

    const b2 = backendAt(dir);
    const again = await b2.load();
    expect(again.notes.join("\n")).toMatch(/predates .*state\.json \(an interrupted compaction\)/);
    expect(again.pending.map((p) => p.op)).toEqual([pendingOp]);
    expect(again.state.serial).toBe(loaded.state.serial + 1); // the journal's changes were not applied twice
    // The next journal replaces the stale one and keeps the pending operation.
    const j2 = b2.openJournal(again.state);
    await j2.flush();
    j2.end(pendingOp, [{ kind: "remove", urn: urnOf("a") }]);
    await j2.close();
    const last = await backendAt(dir).load();
    expect(last.pending).toEqual([]);
    expect(last.state.resources).toEqual({});
  });

  it("a second openJournal continues the first (closing it), without a load in between", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j1 = b.openJournal((await b.load()).state);
    const op1 = await j1.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j1.end(op1, [{ kind: "upsert", resource: resource("a") }]);
    const saved = await j1.compact();
    const j2 = b.openJournal(saved);
    expect(j1.closed).toBe(true);
    const op2 = await j2.begin({ kind: "create", urn: urnOf("b"), type: "local:File" });
    expect(op2).toBe(op1 + 1);
    j2.end(op2, [{ kind: "upsert", resource: resource("b") }]);
    await j2.close();
    expect(Object.keys((await backendAt(dir).load()).state.resources).sort()).toEqual([urnOf("a"), urnOf("b")]);
  });
});

describe("group commit", () => {
  it("writes 1,000 concurrent begins with a handful of fsyncs", async () => {
    const b = backendAt(await tempDir());
    const syncs: number[] = [];
    const j = b.openJournal((await b.load()).state, { onSync: (i) => void syncs.push(i.records) });
    const ops = await Promise.all(Array.from({ length: 1000 }, (_, i) => j.begin({ kind: "create", urn: urnOf(`r${i}`), type: "local:File" })));
    expect(new Set(ops).size).toBe(1000);
    expect(j.syncs).toBe(syncs.length);
    expect(j.syncs).toBeLessThanOrEqual(3);
    expect(syncs.reduce((a, n) => a + n, 0)).toBe(1000);
    await j.close();
    expect((await backendAt(b.files.dir.replace(/\/stacks\/dev$/, "")).load()).pending).toHaveLength(1000);
  });

  it("batches records that arrive while a write is in flight into the next single write", async () => {
    const b = backendAt(await tempDir());
    const batches: number[] = [];
    // A slow disk: each fsync takes 20 ms.
    const j = b.openJournal((await b.load()).state, {
      onSync: async (i) => {
        batches.push(i.records);
        await new Promise((r) => setTimeout(r, 20));
      },
    });
    const first = j.begin({ kind: "create", urn: urnOf("first"), type: "local:File" });
    await new Promise((r) => setImmediate(r)); // the first write is now in flight
    const rest: Promise<number>[] = [];
    for (let i = 0; i < 50; i++) {
      rest.push(j.begin({ kind: "create", urn: urnOf(`r${i}`), type: "local:File" }));
      await new Promise((r) => setImmediate(r)); // each begin arrives in its own event-loop turn
    }
    await Promise.all([first, ...rest]);
    expect(batches[0]).toBe(1);
    expect(batches.length).toBeLessThanOrEqual(4);
    expect(batches.reduce((a, n) => a + n, 0)).toBe(51);
    await j.close();
  });

  it("after a quick write, writes half of a large batch of begins at a time, so calls proceed while the rest syncs", async () => {
    const b = backendAt(await tempDir());
    const batches: number[] = [];
    let synced = 0;
    // Quick writes: under 1 s counts as quick here, so a busy machine's slow sync does not change the test.
    const j = b.openJournal((await b.load()).state, { onSync: (i) => void (batches.push(i.records), synced++), pipelineBelowMs: 1000 });
    await j.begin({ kind: "create", urn: urnOf("first"), type: "local:File" }); // a quick write: the journal learns its speed
    // WHEN 200 begins arrive in one turn (a fast provider's staged calls)
    const syncedWhenResolved: number[] = [];
    const ops = Array.from({ length: 200 }, (_, i) => j.begin({ kind: "create", urn: urnOf(`r${i}`), type: "local:File" }).then(() => syncedWhenResolved.push(synced)));
    await Promise.all(ops);
    // THEN each write carries half of the begins waiting when it starts (down to 64): the first half's calls
    // may start once their write is durable, while the rest sync
    expect(batches).toEqual([1, 100, 50, 50]);
    expect(syncedWhenResolved.filter((n) => n === 2)).toHaveLength(100);
    expect(syncedWhenResolved.filter((n) => n === 3)).toHaveLength(50);
    expect(syncedWhenResolved.filter((n) => n === 4)).toHaveLength(50);
    await j.close();
    expect((await backendAt(b.files.dir.replace(/\/stacks\/dev$/, "")).load()).pending).toHaveLength(201);
  });

  it("a slow store's writes carry every waiting begin (halves would only make more rounds)", async () => {
    const b = backendAt(await tempDir());
    const batches: number[] = [];
    const j = b.openJournal((await b.load()).state, {
      onSync: async (i) => {
        batches.push(i.records);
        await new Promise((r) => setTimeout(r, 10)); // slower than the default pipelining bound (5 ms)
      },
    });
    await j.begin({ kind: "create", urn: urnOf("first"), type: "local:File" });
    const mutated = (j.mutate([{ kind: "upsert", resource: resource("kept") }]), j.flush());
    await Promise.all([mutated, ...Array.from({ length: 200 }, (_, i) => j.begin({ kind: "create", urn: urnOf(`r${i}`), type: "local:File" }))]);
    expect(batches).toEqual([1, 201]);
    await j.close();
  });

  it("a flush waits for every record before it, also when they go in two writes", async () => {
    const b = backendAt(await tempDir());
    let synced = 0;
    const j = b.openJournal((await b.load()).state, { onSync: () => void synced++, pipelineBelowMs: 1000 });
    await j.begin({ kind: "create", urn: urnOf("first"), type: "local:File" });
    const begins = Array.from({ length: 100 }, (_, i) => j.begin({ kind: "create", urn: urnOf(`r${i}`), type: "local:File" }));
    await j.flush();
    expect(synced).toBe(3); // 1, then 50 and 50: the flush settled only after the second half was written
    await Promise.all(begins);
    await j.close();
  });

  it("does not resolve begin before its record is durable", async () => {
    const b = backendAt(await tempDir());
    let synced = 0;
    const j = b.openJournal((await b.load()).state, { onSync: () => void synced++ });
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    expect(synced).toBe(1);
    const onDisk = await readFile(b.files.journal, "utf8");
    expect(onDisk).toContain(`"op":${op},"kind":"create"`);
    await j.close();
  });

  it("buffers end records and writes them with the next write, or after flushDelayMs when idle", async () => {
    const b = backendAt(await tempDir());
    // Time is the fake clock's: under load a real 30 ms passes while the file is read, and the end record
    // would be written before the test looked. Only timers are faked: writes and setImmediate stay real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let wrote!: () => void;
      const endWritten = new Promise<void>((r) => (wrote = r));
      const j = b.openJournal((await b.load()).state, { flushDelayMs: 30, onSync: () => void (j.pending.length === 0 && wrote()) });
      const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
      const syncsAfterBegin = j.syncs;
      j.end(op, [{ kind: "upsert", resource: resource("a") }]);
      expect(j.syncs).toBe(syncsAfterBegin);
      vi.advanceTimersByTime(29);
      await new Promise((r) => setImmediate(r)); // a write the timer started would be under way now
      expect(await readFile(b.files.journal, "utf8")).not.toContain('"t":"end"');
      expect(j.syncs).toBe(syncsAfterBegin);
      vi.advanceTimersByTime(1);
      await endWritten;
      expect(j.syncs).toBe(syncsAfterBegin + 1);
      expect(await readFile(b.files.journal, "utf8")).toContain('"t":"end"');
      await j.close();
    } finally {
      vi.useRealTimers();
    }
  });

  // Timings are the bench's business (npm run bench); this asserts the behaviour: grouped syncs, bounded bytes.
  it("journals 10,000 resources with grouped fsyncs, writing at most 3x the final snapshot", { timeout: 60_000 }, async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    const N = 10_000;
    let next = 0;
    // Ten workers, like the engine's default parallelism: begin (durable), "provider call", end.
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < N) {
          const i = next++;
          const urn = urnOf(`file-${i}`);
          const op = await j.begin({ kind: "create", urn, type: "local:File" });
          await new Promise((r) => setImmediate(r));
          j.end(op, [{ kind: "upsert", resource: resource(`file-${i}`, { deps: i ? [urnOf(`file-${i - 1}`)] : [] }) }]);
        }
      }),
    );
    await j.compact();
    await j.close();
    const snapshotBytes = (await stat(b.files.snapshot)).size;
    expect(Object.keys(j.state.resources)).toHaveLength(N);
    expect(j.bytesWritten).toBeLessThanOrEqual(3 * snapshotBytes);
    expect(j.syncs).toBeLessThan(N / 2); // grouped: ten workers share each fsync
    const loaded = await backendAt(dir).load();
    expect(loaded.state).toEqual(j.state);
  });
});

describe("stack names", () => {
  it("accepts letters, digits, -, _ and . and refuses anything else", async () => {
    const dir = await tempDir();
    for (const ok of ["dev", "prod-eu.1", "a_b"]) expect(() => backendAt(dir, { stack: ok })).not.toThrow();
    for (const bad of ["", "..", ".hidden", "a/b", "a b", "é"]) {
      expect(() => backendAt(dir, { stack: bad })).toThrow(/invalid stack name .*use 1-100 letters, digits/);
    }
  });

  it("keeps each stack in its own directory", async () => {
    const dir = await tempDir();
    const dev = backendAt(dir);
    await dev.compact({ ...(await dev.load()).state, resources: { [urnOf("a")]: resource("a") } });
    const prod = backendAt(dir, { stack: "prod" });
    expect((await prod.load()).state.resources).toEqual({});
    await mkdir(prod.files.dir, { recursive: true });
    expect(prod.files.snapshot).toMatch(/stacks\/prod\/state\.json$/);
  });
});

describe("reading a large stack's outputs and size", () => {
  it("reads the outputs and counts the resources of a snapshot as written without parsing its records", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const resources = Object.fromEntries(["a", "b", "c"].map((n) => [urnOf(n), resource(n)]));
    await b.compact({ ...(await b.load()).state, outputs: { url: "https://x" }, resources });
    // The records made unreadable, the digest made again over them: only a reader that never parses
    // the records (but checks every byte) still reads this file.
    const text = await readFile(b.files.snapshot, "utf8");
    const at = text.lastIndexOf(',\n "digest": "');
    const broken = text.slice(0, at).replaceAll('"inputs":', '"inputs" x');
    await writeFile(b.files.snapshot, `${broken},\n "digest": "sha256-${createHash("sha256").update(broken).digest("base64")}"\n}\n`);
    const again = backendAt(dir);
    expect(await again.readOutputs()).toEqual({ exists: true, project: "proj", outputs: { url: "https://x" }, secretOutputs: [] });
    expect((await again.summary()).resources).toBe(3);
    expect((await again.history()).filter((h) => h.current).map((h) => h.version)).toEqual([1]);
    await expect(again.load()).rejects.toThrow(/not valid JSON/);
  });
});
