import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordLines, type RecordLines } from "../../src/state/record-lines.js";
import { parseSnapshot, snapshotChunks } from "../../src/state/snapshot.js";
import { emptyState, type ResourceState, type StackState } from "../../src/state/types.js";
import type { Urn } from "../../src/core/urn.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-lines-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const urn = (name: string) => `urn:cairn:dev::p::t:Thing::${name}` as Urn;
function record(name: string, i: number): ResourceState {
  const r: ResourceState = { urn: urn(name), type: "t:Thing", id: `id-${i}`, inputs: { n: name, size: i, tags: { a: "x".repeat(i % 50) } }, outputs: { n: name, arn: `arn:${i}` }, deps: i ? [urn(`r${i - 1}`)] : [] };
  if (i % 7 === 0) r.protect = true;
  return r;
}
function stateOf(n: number): StackState {
  return { ...emptyState("p", "dev"), serial: 3, resources: Object.fromEntries(Array.from({ length: n }, (_, i) => [urn(`r${i}`), record(`r${i}`, i)])) };
}
const text = (s: StackState, lines?: RecordLines) => [...snapshotChunks(s, lines)].join("");
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A state written to a file and read back, with the lines of its records. */
async function written(s: StackState): Promise<{ path: string; state: StackState; lines: RecordLines | undefined }> {
  const path = join(dir, "state.json");
  await writeFile(path, text(s));
  const read = await readFile(path, "utf8");
  const st = await stat(path);
  const state = parseSnapshot(read, path, { project: "p", stack: "dev" });
  return { path, state, lines: recordLines(read, state.resources, { path, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs }) };
}

/** Makes stringifying any of `records` throw (until `untrap`): a snapshot that copies their bytes never stringifies them. */
function trap(records: ResourceState[]): void {
  for (const r of records) Object.defineProperty(r, "toJSON", { configurable: true, value: () => { throw new Error(`${r.urn} was stringified`); } });
}
function untrap(records: ResourceState[]): void {
  for (const r of records) delete (r as { toJSON?: unknown }).toJSON;
}

describe("a snapshot written from the lines of the one it was read from", () => {
  it("is the same text as one stringified whole, its unchanged records copied (never stringified)", async () => {
    const { state, lines } = await written(stateOf(3000));
    expect(lines?.urns).toHaveLength(3000);
    const expected = text(copy(state));
    trap(Object.values(state.resources));
    expect(text(state, lines)).toBe(expected);
  });

  it("is the same text after records were replaced, removed (first, last, runs of them) and added", async () => {
    const { state, lines } = await written(stateOf(3000));
    const next: StackState = { ...state, serial: 4, resources: { ...state.resources } };
    for (const i of [0, 5, 6, 7, 1500, 2999]) delete next.resources[urn(`r${i}`)];
    for (let i = 100; i < 180; i++) delete next.resources[urn(`r${i}`)];
    for (const i of [1, 8, 999, 2998]) next.resources[urn(`r${i}`)] = { ...record(`r${i}`, i), id: `new-${i}` };
    for (let i = 0; i < 25; i++) next.resources[urn(`added-${i}`)] = record(`added-${i}`, i + 5000);
    const expected = text(copy(next));
    trap(Object.values(state.resources).filter((r) => next.resources[r.urn] === r));
    expect(text(next, lines)).toBe(expected);
  });

  it("still copies the records after a gap longer than it looks ahead (300 removed in a row)", async () => {
    const { state, lines } = await written(stateOf(1000));
    const next: StackState = { ...state, serial: 4, resources: { ...state.resources } };
    for (let i = 200; i < 500; i++) delete next.resources[urn(`r${i}`)];
    next.resources[urn("added")] = record("added", 7000);
    const expected = text(copy(next));
    trap(Object.values(next.resources).filter((r) => r.urn !== urn("added")));
    expect(text(next, lines)).toBe(expected);
  });

  it("stringifies everything again once the file changed since it was read (another inode, size or time)", async () => {
    const { path, state, lines } = await written(stateOf(50));
    const expected = text(copy(state));
    await writeFile(path, (await readFile(path, "utf8")).replace('"id-3"', '"id-33"'));
    expect(text(state, lines)).toBe(expected);
  });

  it("keeps no lines of a file that is not ASCII, or whose URNs JSON escapes", async () => {
    const s = stateOf(20);
    s.resources[urn("r3")]!.outputs.note = "ünïcödé";
    expect((await written(s)).lines).toBeUndefined();
    const q = stateOf(5);
    const odd = `urn:cairn:dev::p::t:Thing::quo"te` as Urn;
    q.resources[odd] = { ...record("x", 9), urn: odd };
    expect((await written(q)).lines).toBeUndefined();
    expect((await written(stateOf(5))).lines?.urns).toHaveLength(5);
  });
});

describe("a file backend's compaction after a load", () => {
  it("copies the records that did not change from the loaded file, and writes a snapshot that reads back as written", async () => {
    const { backendAt, resource, urnOf } = await import("./helpers.js");
    const first = backendAt(dir);
    await first.load();
    const j1 = first.openJournal((await first.load()).state);
    j1.mutate(Array.from({ length: 400 }, (_, i) => ({ kind: "upsert" as const, resource: resource(`f${i}`) })));
    await j1.compact();
    await j1.close();

    // A later run: it loads the file, changes two records and removes one, and compacts.
    const later = backendAt(dir);
    const { state } = await later.load();
    const unchanged = Object.values(state.resources).filter((r) => ![urnOf("f3"), urnOf("f200"), urnOf("f399")].includes(r.urn));
    trap(unchanged); // copied from the file, never stringified
    const j2 = later.openJournal(state);
    j2.mutate([{ kind: "upsert", resource: { ...resource("f3"), id: "changed" } }, { kind: "upsert", resource: resource("f200", { protect: true }) }, { kind: "remove", urn: urnOf("f399") }]);
    const saved = await j2.compact();
    await j2.close();
    untrap(unchanged);

    const text = await readFile(join(dir, "stacks", "dev", "state.json"), "utf8");
    const expected = [...snapshotChunks(copy(saved))].join("");
    expect(text).toBe(expected);
    const again = await backendAt(dir).load();
    expect(Object.keys(again.state.resources)).toHaveLength(399);
    expect(again.state.resources[urnOf("f3")]?.id).toBe("changed");
  });
});
