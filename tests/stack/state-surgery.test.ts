import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/entry/program.js";
import { hasChanges } from "../../src/plan/plan.js";
import { openBackend } from "../../src/state/open-backend.js";
import { asUrn } from "../../src/core/urn.js";
import { memoryType } from "../helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-surgery-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("state surgery through the Stack API", () => {
  it("first stores a state that only the journal holds as a version, so rollback brings back exactly it", async () => {
    const m = memoryType<{ n: number }>("test:surgery:Thing", { inputs: { n: {} }, outputs: { n: {} } });
    const prog = program("surgery", () => {
      new m.Type("one", { n: 1 });
      new m.Type("two", { n: 2 });
    });
    const stack = prog.stack({ stateDir: dir, passphrase: "pw" });
    await stack.up();
    // A run that recorded a change and died before compacting: the journal holds it, no snapshot does.
    const backend = openBackend({ stateDir: dir, stack: "dev", project: "surgery", passphrase: "pw" });
    const lock = await backend.lock({ command: "up" });
    const journal = backend.openJournal((await backend.load()).state);
    const two = (await backend.load()).state.resources["urn:cairn:dev::surgery::test:surgery:Thing::two"]!;
    journal.mutate([{ kind: "upsert", resource: { ...two, outputs: { n: 22 } } }]);
    await journal.close();
    await lock.release();

    const r = await stack.forget(["one"]);
    expect(r.applied).toBe(true);
    expect((await stack.history()).map((h) => h.version)).toContain(r.previousVersion);
    await stack.rollback(r.previousVersion!);
    const back = Object.fromEntries((await stack.resources()).map((x) => [x.urn.split("::").pop(), x.outputs]));
    expect(back).toEqual({ one: { n: 1 }, two: { n: 22 } });
  });

  it("imports into a new stack a type without input schema: inputs under the names the program declares, secrets encrypted", async () => {
    const m = memoryType<{ name: string; size: number }, { name: string; size: number; token: string }>("test:surgery:Key", { outputs: { token: { secret: true } } });
    m.objects.set("key-7", { name: "deploy", size: 2048, token: "tok-123456" });
    const prog = program("surgery", () => void new m.Type("deploy", { name: "deploy", size: 2048 }));
    const stack = prog.stack({ stateDir: dir, passphrase: "pw" });
    const confirmed: string[] = [];
    const r = await stack.importResource("test:surgery:Key", "deploy", "key-7", { confirm: async (p) => (confirmed.push(p.record.urn), true) });
    expect(confirmed).toEqual(["urn:cairn:dev::surgery::test:surgery:Key::deploy"]);
    expect(r).toMatchObject({ applied: true, previousVersion: 1, record: { id: "key-7", inputs: { name: "deploy", size: 2048 }, secretKeys: ["token"] } });
    expect(await readFile(join(dir, "stacks/dev/state.json"), "utf8")).not.toContain("tok-123456");
    expect(hasChanges(await stack.preview())).toBe(false);
    expect(m.calls.map((c) => c.op)).toEqual(["read"]); // read, never created
  });

  it("does nothing when confirm says no", async () => {
    const m = memoryType<{ n: number }>("test:surgery:Kept", { inputs: { n: {} }, outputs: { n: {} } });
    const prog = program("surgery", () => void new m.Type("kept", { n: 1 }, { protect: true }));
    const stack = prog.stack({ stateDir: dir, passphrase: "pw" });
    await stack.up();
    const versions = await stack.history();
    for (const r of [
      await stack.unprotect("kept", { confirm: async () => false }),
      await stack.rename("kept", "renamed", { confirm: async () => false }),
      await stack.forget(["kept"], { force: true, confirm: async () => false }),
    ]) expect(r.applied).toBe(false);
    expect(await stack.history()).toEqual(versions);
    expect((await stack.showResource(asUrn("urn:cairn:dev::surgery::test:surgery:Kept::kept"))).resource.protect).toBe(true);
  });
});
