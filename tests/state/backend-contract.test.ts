import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import type { StateBackend } from "../../src/state/backend.js";
import { LockCompromisedError, LockHeldError, StackLockedError } from "../../src/state/lock-holder.js";
import { migrateStack } from "../../src/state/migrate.js";
import { openBackend } from "../../src/state/open-backend.js";
import { fakeS3 } from "./fake-s3.js";
import { resource, tempDir, urnOf } from "./helpers.js";
import { startPostgres, type PgServer } from "./pg-server.js";

// The same behaviour, checked against every backend: files, memory, a real PostgreSQL server, and S3
// (a stateful fake bucket that honours conditional writes).
const kinds = ["file", "memory", "postgres", "s3"] as const;
type Kind = (typeof kinds)[number];

let server: PgServer | string | undefined;
let pgUrl = "";
let s3: ReturnType<typeof fakeS3>;
let n = 0;

beforeAll(async () => {
  s3 = fakeS3({ pageSize: 3 }); // small pages: listing must follow continuation tokens
  server = await startPostgres();
  if (typeof server === "string") console.warn(`PostgreSQL backend tests skipped: ${server}`);
  else pgUrl = await server.database("contract");
}, 120_000);

afterAll(async () => {
  s3?.restore();
  if (typeof server === "object") await server.stop();
});

/**
 * A place for one test's stack, and a way to open it as often as separate runs would. `tag` makes a
 * second, separate place of the same kind (another directory, space, schema or prefix).
 */
async function place(kind: Kind, ctx: TestContext, project = `proj${++n}`, tag = "") {
  if (kind === "postgres" && typeof server === "string") ctx.skip(server);
  const url =
    kind === "file"
      ? `file://${await tempDir()}`
      : kind === "memory"
        ? `memory://contract-${project}${tag}`
        : kind === "postgres"
          ? `${pgUrl}${tag ? `?schema=${tag}` : ""}`
          : `s3://state-bucket/teams/a${tag}?region=eu-west-1&lease=30`;
  const open = (opts: { passphrase?: string } = {}) => openBackend({ backend: url, stack: "dev", project, ...opts });
  return Object.assign(open, { project });
}

/** A run that creates `names` and compacts; returns the saved state. */
async function apply(b: StateBackend, names: string[], command = "up") {
  const lock = await b.lock({ command });
  try {
    const { state } = await b.load();
    const j = b.openJournal(state);
    for (const name of names) {
      const op = await j.begin({ kind: "create", urn: urnOf(name), type: "local:File" });
      j.end(op, [{ kind: "upsert", resource: resource(name) }]);
    }
    const saved = await j.compact();
    await j.close();
    return saved;
  } finally {
    await lock.release();
  }
}

const urns = (s: { resources: object }) => Object.keys(s.resources).sort();

describe.each(kinds)("the %s backend", (kind) => {
  it("journals, compacts and loads back exactly what was recorded; history lists every version", async (ctx) => {
    const open = await place(kind, ctx);
    expect((await open().load()).state.serial).toBe(0);
    const v1 = await apply(open(), ["a", "b"]);
    const v2 = await apply(open(), ["c"]);
    const loaded = await open().load();
    expect(urns(loaded.state)).toEqual([urnOf("a"), urnOf("b"), urnOf("c")]);
    expect(loaded.state).toEqual(v2);
    expect(loaded.pending).toEqual([]);
    const history = await open().history();
    expect(history.map((h) => [h.version, h.current])).toEqual([
      [v1.serial, false],
      [v2.serial, true],
    ]);
    expect(history.every((h) => h.bytes > 0)).toBe(true);
    expect(await open().listStacks()).toEqual(["dev"]);
  });

  it("reads the committed outputs alone: the snapshot's, then the journal's, secret ones decrypted", async (ctx) => {
    const open = await place(kind, ctx);
    expect(await open().readOutputs()).toEqual({ exists: false, project: open.project, outputs: {}, secretOutputs: [] });
    const first = open({ passphrase: "pw" });
    const lock = await first.lock({ command: "up" });
    try {
      const { state } = await first.load();
      const j = first.openJournal(state);
      const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
      j.end(op, [{ kind: "upsert", resource: resource("a") }]);
      j.mutate([{ kind: "outputs", outputs: { url: "https://a", token: "s3cret" }, secretOutputs: ["token"] }]);
      await j.compact();
      // A later change to the outputs, in the journal only (as a crashed run leaves it).
      j.mutate([{ kind: "outputs", outputs: { url: "https://b", token: "n3w" }, secretOutputs: ["token"] }]);
      await j.close();
    } finally {
      await lock.release();
    }
    const read = await open({ passphrase: "pw" }).readOutputs();
    expect(read).toEqual({ exists: true, project: open.project, outputs: { url: "https://b", token: "n3w" }, secretOutputs: ["token"] });
    const loaded = (await open({ passphrase: "pw" }).load()).state;
    expect([loaded.outputs, loaded.secretOutputs]).toEqual([read.outputs, read.secretOutputs]);
    await expect(open().readOutputs()).rejects.toThrow(/passphrase/i);
  });

  it("counts a stack's resources in its summary, from the snapshot's lines or, after changes only journaled, from every record", async (ctx) => {
    const open = await place(kind, ctx);
    expect((await open().summary()).resources).toBe(0);
    await apply(open(), ["a", "b"]);
    expect(await open().summary()).toMatchObject({ exists: true, resources: 2, pending: 0 });
    // A run that journaled a create and a removal, then crashed before compacting, with one call still open.
    const b = open();
    const lock = await b.lock({ command: "up" });
    const { state } = await b.load();
    const j = b.openJournal(state);
    const op = await j.begin({ kind: "create", urn: urnOf("c"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: resource("c") }]);
    j.mutate([{ kind: "remove", urn: urnOf("a") }]);
    await j.begin({ kind: "create", urn: urnOf("d"), type: "local:File" });
    await j.flush();
    await lock.release();
    expect(await open().summary()).toMatchObject({ resources: 2, pending: 1 });
  });

  it("refuses a second run naming the holder; unlock refuses a live holder, --force warns, and the first run can then write nothing", async (ctx) => {
    const open = await place(kind, ctx);
    const first = open();
    const lock = await first.lock({ command: "up" });
    const journal = first.openJournal((await first.load()).state);

    const refused = (await open().lock({ command: "preview" }).catch((e: unknown) => e)) as StackLockedError;
    expect(refused).toBeInstanceOf(StackLockedError);
    expect(refused.holder).toMatchObject({ pid: process.pid, command: "up" });
    expect(refused.message).toMatch(new RegExp(`^stack dev is locked by pid ${process.pid} on \\S+ since \\S+ \\(for \\d+s; command: up`));

    await expect(open().forceUnlock()).rejects.toThrow(LockHeldError);
    const forced = await open().forceUnlock({ force: true });
    expect(forced).toMatchObject({ removed: true, holder: { pid: process.pid, command: "up" } });
    expect(forced.warning).toMatch(/^removed the lock of stack dev held by pid \d+ .*: if that run is still active, it and the next run may both write the stack$/);

    const second = await open().lock({ command: "up" }); // the stack is free again
    await expect(journal.begin({ kind: "create", urn: urnOf("x"), type: "local:File" })).rejects.toThrow(LockCompromisedError);
    await second.release();
    await lock.release();
    expect(urns((await open().load()).state)).toEqual([]);
  });

  it("brings a crashed run's begun operations back as pending, for the next run to resolve", async (ctx) => {
    const open = await place(kind, ctx);
    await apply(open(), ["a"]);
    const crashed = open();
    const lock = await crashed.lock({ command: "up" });
    const j = crashed.openJournal((await crashed.load()).state);
    const done = await j.begin({ kind: "create", urn: urnOf("b"), type: "local:File" });
    j.end(done, [{ kind: "upsert", resource: resource("b") }]);
    const lost = await j.begin({ kind: "delete", urn: urnOf("a"), type: "local:File", id: "/tmp/out/a.txt" });
    await j.flush();
    // The process dies here: its journal is never compacted and its lock is never released.
    await lock.release().catch(() => {});

    const next = open();
    const loaded = await next.load();
    expect(loaded.pending).toEqual([{ op: lost, kind: "delete", urn: urnOf("a"), type: "local:File", id: "/tmp/out/a.txt", since: expect.any(String) }]);
    expect(urns(loaded.state)).toEqual([urnOf("a"), urnOf("b")]);
    const nextLock = await next.lock({ command: "up" });
    const j2 = next.openJournal(loaded.state);
    j2.end(lost, [{ kind: "remove", urn: urnOf("a") }]);
    await j2.compact();
    await j2.close();
    await nextLock.release();
    const after = await open().load();
    expect(after.pending).toEqual([]);
    expect(urns(after.state)).toEqual([urnOf("b")]);
  });

  it("rolls back to a stored version as a new version, refusing while another run holds the lock", async (ctx) => {
    const open = await place(kind, ctx);
    const v1 = await apply(open(), ["a"]);
    const v2 = await apply(open(), ["b", "c"]);
    const holder = await open().lock({ command: "up" });
    await expect(open().rollback(v1.serial)).rejects.toThrow(/^stack dev is locked by pid \d+/);
    await holder.release();
    await expect(open().rollback(999)).rejects.toThrow(`stack dev has no stored version 999 in`);

    const r = await open().rollback(v1.serial);
    expect(r).toEqual({ from: v1.serial, version: v2.serial + 1, resources: 1 });
    const loaded = await open().load();
    expect(urns(loaded.state)).toEqual([urnOf("a")]);
    expect(loaded.state.serial).toBe(v2.serial + 1);
    expect((await open().history()).map((h) => h.version)).toEqual([v1.serial, v2.serial, v2.serial + 1]);
    // The rollback is itself a version: rolling forward again restores b and c.
    await open().rollback(v2.serial);
    expect(urns((await open().load()).state)).toEqual([urnOf("a"), urnOf("b"), urnOf("c")]);
  });

  it("keeps every key of concurrent config writers, refuses reserved keys, and stores secrets encrypted", async (ctx) => {
    const open = await place(kind, ctx);
    const keys = Array.from({ length: 8 }, (_, i) => `key${i}`);
    await Promise.all(keys.map((k) => open().setConfig(k, `value of ${k}`)));
    const cfg = await open().readConfig();
    expect(Object.keys(cfg).sort()).toEqual(keys);
    for (const bad of ["__proto__", "constructor", ""]) await expect(open().setConfig(bad, "x")).rejects.toThrow(/config key .* \(.*\): choose another key/);
    expect(Object.getPrototypeOf(await open().readConfig())).toBe(Object.prototype);

    await open({ passphrase: "pw" }).setConfig("dbPassword", "hunter2", { secret: true });
    expect((await open({ passphrase: "pw" }).readConfig()).dbPassword).toEqual({ value: "hunter2", secret: true });
    const b = open();
    const lock = await b.lock({ command: "inspect" });
    const stored = await b.exportStack();
    await lock.release();
    expect(stored.config.dbPassword).toEqual({ $secret: expect.any(String) });
    expect(JSON.stringify(stored)).not.toContain("hunter2");
    expect(Object.keys(JSON.parse(stored.encryption!) as object).sort()).toEqual(["check", "cipher", "kdf", "salt", "scrypt", "version"]);
    expect(await open().removeConfig("key0")).toBe(true);
    expect(await open().removeConfig("key0")).toBe(false);
  });

  it("is copied exactly by state migrate, to memory and back into a fresh place of its kind", async (ctx) => {
    const open = await place(kind, ctx);
    await apply(open(), ["a"]);
    await apply(open(), ["b"]);
    await open({ passphrase: "pw" }).setConfig("token", "t0ken", { secret: true });
    const crashed = open();
    const lock = await crashed.lock({ command: "up" });
    const j = crashed.openJournal((await crashed.load()).state);
    await j.begin({ kind: "create", urn: urnOf("c"), type: "local:File" });
    await j.flush();
    await lock.release().catch(() => {});

    const source = await open().load();
    const mem = openBackend({ backend: `memory://migrate-${open.project}`, stack: "dev", project: open.project, passphrase: "pw" });
    const r = await migrateStack(open(), mem);
    expect(r).toMatchObject({ version: source.state.serial, resources: 2, versions: 2, journalRecords: 1, configKeys: 1 });

    const copy = await place(kind, ctx, open.project, "copy");
    const target = copy({ passphrase: "pw" });
    await migrateStack(mem, target);
    const copied = await copy().load();
    expect(copied.state).toEqual(source.state);
    expect(copied.pending).toEqual(source.pending);
    expect((await copy().history()).map((h) => h.version)).toEqual((await open().history()).map((h) => h.version));
    expect((await copy({ passphrase: "pw" }).readConfig()).token).toEqual({ value: "t0ken", secret: true });
    await expect(migrateStack(mem, target)).rejects.toThrow(/already holds state for stack dev/);
  });
});
