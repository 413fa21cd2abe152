import { describe, expect, it } from "vitest";
import { beginLine } from "../../src/state/journal-format.js";
import type { PendingOperation } from "../../src/state/types.js";
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
