import { describe, expect, it } from "vitest";
import { beginLine, finishLine } from "../../src/state/journal-format.js";
import { encodeResource } from "../../src/state/secret-encoding.js";
import type { PendingOperation, ResourceState } from "../../src/state/types.js";
import { typeOf, type Urn } from "../../src/core/urn.js";

/** The begin line as one object stringified: what every begin line must equal byte for byte. */
function generic(p: PendingOperation): string {
  const type = (typeOf(p.urn) || undefined) === p.type ? undefined : p.type;
  return JSON.stringify({ t: "begin", op: p.op, kind: p.kind, urn: p.urn, type, id: p.id, since: p.since, note: p.note }) + "\n";
}

const urn = (type: string, name: string) => `urn:cairn:dev::app::${type}::${name}` as Urn;
const since = "2026-11-28T05:00:00.000Z";

describe("beginLine", () => {
  it("writes the same bytes as the record stringified whole, for creates, deletes and odd ids and names", () => {
    const cases: PendingOperation[] = [
      { op: 1, kind: "create", urn: urn("aws:s3:Bucket", "logs"), type: "aws:s3:Bucket", since },
      { op: 2, kind: "delete", urn: urn("aws:s3:Bucket", "logs"), type: "aws:s3:Bucket", id: "logs-1234", since },
      { op: 3, kind: "update", urn: urn("local:File", 'quo"te\\back'), type: "local:File", id: 'a "quoted"\nid — ünïcödé 🪨', since },
      { op: 4, kind: "replace-create", urn: urn("my:Comp$local:File", "nested"), type: "local:File", since },
      { op: 5, kind: "delete-deposed", urn: urn("aws:s3:Bucket", "x"), type: "aws:s3:Bucket", id: "", since },
      { op: 6, kind: "create", urn: urn("aws:s3:Bucket", "other-type"), type: "aws:s3:Object", since },
      { op: 7, kind: "create", urn: urn("aws:s3:Bucket", "noted"), type: "aws:s3:Bucket", since, note: { requestToken: "r-1" } },
      { op: 8, kind: "create", urn: "not a urn" as Urn, type: "aws:s3:Bucket", since },
    ];
    for (const p of cases) {
      const line = beginLine(p);
      expect(line, `op ${p.op}`).toBe(generic(p));
      expect(JSON.parse(line)).toMatchObject({ t: "begin", op: p.op, kind: p.kind, urn: p.urn, since });
    }
  });
});

/** The short end line as one object stringified (the form before it was written out field by field). */
function genericEnd(op: number, rec: ResourceState): string {
  const keys = Object.keys(rec.outputs);
  let n = 0;
  while (n < keys.length && Object.hasOwn(rec.inputs, keys[n]!) && JSON.stringify(rec.outputs[keys[n]!]) === JSON.stringify(rec.inputs[keys[n]!]) && rec.outputs[keys[n]!] !== undefined) n++;
  const rest = Object.fromEntries(keys.slice(n).map((k) => [k, rec.outputs[k]]));
  const r = Object.fromEntries(Object.entries(rec).filter(([k]) => k !== "urn" && k !== "type").map(([k, v]) => [k, k === "outputs" && n ? rest : v]));
  return JSON.stringify(n ? { t: "end", op, r, same: keys.slice(0, n) } : { t: "end", op, r }) + "\n";
}

describe("finishLine", () => {
  const base = (name: string): ResourceState => ({ urn: urn("local:File", name), type: "local:File", id: `${name}.txt`, inputs: {}, outputs: {}, deps: [] });
  const cases: ResourceState[] = [
    { ...base("plain"), inputs: { path: "a", content: "hi" }, outputs: { path: "a", content: "hi", size: 2 } },
    { ...base("all-same"), inputs: { name: "x", value: "y" }, outputs: { name: "x", value: "y" } },
    { ...base("none-same"), inputs: { a: 1 }, outputs: { size: 2, a: 1 } },
    { ...base("objects"), inputs: { tags: { a: "1" }, list: [1, 2] }, outputs: { tags: { a: "1" }, list: [1, 3], more: null } },
    { ...base('quo"te\\back'), id: 'a "quoted"\nid — ünïcödé 🪨', inputs: { "odd key\"": "\u0001" }, outputs: { "odd key\"": "\u0001" } },
    { ...base("options"), deps: [urn("local:File", "plain")], secretKeys: ["content"], inputs: { content: { $secret: "v1:abc" } }, outputs: { content: { $secret: "v1:abc" } }, protect: true, retainOnDelete: true, timeouts: { create: 1000 }, triggers: "h1", parent: urn("my:Comp", "c"), provider: { name: "eu", settings: { region: "eu-west-1" } }, tainted: true, declaredIn: { on: [], waitsFor: "value" } },
    { ...base("deposed"), deposed: [{ id: "old", inputs: { a: 1 }, outputs: {}, deps: [] }] },
    { ...base("undefined-field"), outputs: { a: undefined, b: 1 } as never, protect: undefined as never },
  ];

  // Encrypts as `secret:<JSON>`: what matters here is that the line holds the encrypted record.
  const crypter = { encrypt: (v: unknown) => `secret:${JSON.stringify(v)}`, decrypt: () => undefined };

  it("writes a short end record with the same bytes as the record's object stringified, whatever it holds", () => {
    for (const [op, rec] of cases.entries()) {
      const line = finishLine("end", op, [{ kind: "upsert", resource: rec }], crypter, { urn: rec.urn, type: rec.type });
      expect(line, rec.urn).toBe(genericEnd(op, encodeResource(rec, crypter)));
    }
    const secret = finishLine("end", 9, [{ kind: "upsert", resource: cases[5]! }], crypter, cases[5]!);
    expect(JSON.parse(secret).r.inputs).toEqual({ content: { $secret: 'secret:{"$secret":"v1:abc"}' } });
  });

  it("writes the long form for another resource's record, a removal, or several changes", () => {
    const a = cases[0]!;
    const other = finishLine("end", 1, [{ kind: "upsert", resource: a }], undefined, { urn: urn("local:File", "b"), type: "local:File" });
    expect(JSON.parse(other)).toEqual({ t: "end", op: 1, m: [{ kind: "upsert", resource: a }] });
    expect(JSON.parse(finishLine("end", 2, [{ kind: "remove", urn: a.urn }], undefined, a))).toEqual({ t: "end", op: 2, m: [{ kind: "remove", urn: a.urn }] });
    const two = finishLine("end", 3, [{ kind: "remove", urn: urn("local:File", "old") }, { kind: "upsert", resource: a }], undefined, a);
    expect(JSON.parse(two).m).toHaveLength(2);
    expect(finishLine("abort", 4, [], undefined, a)).toBe('{"t":"abort","op":4}\n');
  });
});
