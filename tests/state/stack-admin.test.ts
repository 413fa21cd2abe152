import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import type { StackExport, StackSummary, StateBackend } from "../../src/state/backend.js";
import { StackLockedError } from "../../src/state/lock-holder.js";
import { openBackend } from "../../src/state/open-backend.js";
import { fakeS3 } from "./fake-s3.js";
import { resource, tempDir, urnOf } from "./helpers.js";
import { startPostgres, type PgServer } from "./pg-server.js";

// `stack ls` and `stack rm` need two things of every backend: a summary read without the passphrase, and
// the removal of a whole stack under its lock. Checked against files, memory, PostgreSQL and fake S3.
const kinds = ["file", "memory", "postgres", "s3"] as const;
type Kind = (typeof kinds)[number];

let server: PgServer | string | undefined;
let pgUrl = "";
let s3: ReturnType<typeof fakeS3>;
let n = 0;

beforeAll(async () => {
  s3 = fakeS3({ pageSize: 3 });
  server = await startPostgres();
  if (typeof server === "string") console.warn(`PostgreSQL backend tests skipped: ${server}`);
  else pgUrl = await server.database("admin");
}, 120_000);

afterAll(async () => {
  s3?.restore();
  if (typeof server === "object") await server.stop();
});

/** A fresh place for stacks of one project; `open(stack)` opens one of them as a separate run would. */
async function place(kind: Kind, ctx: TestContext) {
  if (kind === "postgres" && typeof server === "string") ctx.skip(server);
  const project = `admin${++n}`;
  const url = kind === "file" ? `file://${await tempDir()}` : kind === "memory" ? `memory://admin-${project}` : kind === "postgres" ? pgUrl : `s3://state-bucket/admin?region=eu-west-1&lease=30`;
  return (stack = "dev", passphrase?: string) => openBackend({ backend: url, stack, project, ...(passphrase ? { passphrase } : {}) });
}

/** A run that records `names` (and a secret attribute on each) and compacts. */
async function apply(b: StateBackend, names: string[]) {
  const lock = await b.lock({ command: "up" });
  try {
    const j = b.openJournal((await b.load()).state);
    for (const name of names) {
      const op = await j.begin({ kind: "create", urn: urnOf(name), type: "local:File" });
      j.end(op, [{ kind: "upsert", resource: resource(name, { inputs: { path: `out/${name}`, content: "pw" }, secretKeys: ["content"] }) }]);
    }
    await j.compact();
    await j.close();
  } finally {
    await lock.release();
  }
}

describe.each(kinds)("the %s backend", (kind) => {
  it("summarises a stack without the passphrase: resources (journal included), pending operations, last update, lock holder", async (ctx) => {
    const open = await place(kind, ctx);
    expect(await open().summary()).toEqual({ stack: "dev", exists: false, resources: 0, pending: 0 });
    await apply(open("dev", "pw"), ["a", "b"]);
    const s = await open().summary();
    expect(s).toMatchObject({ stack: "dev", exists: true, resources: 2, pending: 0 });
    expect(Date.parse(s.lastUpdate!)).toBeGreaterThan(Date.now() - 60_000);

    // A run that dies after one create and during another: the journal holds both, never compacted.
    const crashed = open("dev", "pw");
    const lock = await crashed.lock({ command: "up" });
    const j = crashed.openJournal((await crashed.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("c"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: resource("c") }]);
    await j.begin({ kind: "create", urn: urnOf("d"), type: "local:File" });
    await j.flush();
    const held = await open().summary();
    expect(held).toMatchObject({ resources: 3, pending: 1, lockHolder: { pid: process.pid, command: "up" } });
    await lock.release();
    expect((await open().summary()).lockHolder).toBeUndefined();
  });

  it("removes a whole stack under its lock after decide agreed and keep got a copy; importStack brings it back", async (ctx) => {
    const open = await place(kind, ctx);
    await apply(open("dev", "pw"), ["a"]);
    await apply(open("dev", "pw"), ["b"]);
    await open("dev", "pw").setConfig("token", "t0ken", { secret: true });
    await apply(open("prod", "pw"), ["p"]);
    const before = await open("dev", "pw").load();

    let seen: Omit<StackSummary, "lockHolder"> | undefined;
    expect(await open().removeStack({ decide: async (s) => ((seen = s), false) })).toBe(false);
    expect(seen).toMatchObject({ exists: true, resources: 2, pending: 0 });
    expect((await open().summary()).exists).toBe(true);

    let kept: StackExport | undefined;
    expect(await open().removeStack({ decide: async () => true, keep: async (d) => void (kept = d) })).toBe(true);
    expect(kept!.history.length).toBe(2);
    expect(kept!.config.token).toEqual({ $secret: expect.any(String) });
    expect(await open().summary()).toEqual({ stack: "dev", exists: false, resources: 0, pending: 0 });
    expect(await open().listStacks()).toEqual(["prod"]);
    expect(await open().history()).toEqual([]);
    expect(await open().readConfig()).toEqual({});
    expect((await open("prod").summary()).resources).toBe(1); // the other stack is untouched

    const back = open("dev", "pw");
    const lock = await back.lock({ command: "stack restore" });
    await back.importStack(kept!);
    await lock.release();
    const restored = await open("dev", "pw").load();
    expect(restored.state).toEqual(before.state);
    expect((await open("dev", "pw").readConfig()).token).toEqual({ value: "t0ken", secret: true });
  });

  it("refuses to remove a stack another run holds, removing nothing", async (ctx) => {
    const open = await place(kind, ctx);
    await apply(open("dev", "pw"), ["a"]);
    const holder = await open().lock({ command: "up" });
    await expect(open().removeStack({ decide: async () => true })).rejects.toThrow(StackLockedError);
    await holder.release();
    expect((await open().summary()).resources).toBe(1);
  });
});
