import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { StackLockedError } from "../../src/state/lock.js";
import { backendAt, resource, tempDir, urnOf } from "./helpers.js";

describe("file backend and its lock", () => {
  it("locks per stack, and a second run of the same stack is refused", async () => {
    const dir = await tempDir();
    const lock = await backendAt(dir, { programHint: "npx tsx infra/main.ts" }).lock("up");
    await expect(backendAt(dir, { programHint: "npx tsx infra/main.ts" }).lock({ command: "preview" })).rejects.toThrow(StackLockedError);
    await expect(backendAt(dir, { programHint: "npx tsx infra/main.ts" }).lock("preview")).rejects.toThrow(
      /\(for \d+s; command: up\).*`npx tsx infra\/main\.ts unlock --stack dev`/,
    );
    const other = await backendAt(dir, { stack: "prod" }).lock("up"); // other stacks are independent
    await other.release();
    await lock.release();
  });

  it("closes the open journal, writing what it buffered, when the lock is released", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const lock = await b.lock("up");
    const j = b.openJournal((await b.load()).state, { flushDelayMs: -1 });
    const op = await j.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: resource("a") }]);
    expect(await readFile(b.files.journal, "utf8")).not.toContain('"t":"end"');
    await lock.release();
    expect(j.closed).toBe(true);
    expect(await readFile(b.files.journal, "utf8")).toContain('"t":"end"');
    expect(() => j.mutate([{ kind: "remove", urn: urnOf("a") }])).toThrow(/is closed/);
    expect(Object.keys((await backendAt(dir).load()).state.resources)).toEqual([urnOf("a")]);
  });

  it("unlock through the backend refuses a live holder and removes it with force", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const lock = await b.lock("up");
    await expect(backendAt(dir).forceUnlock()).rejects.toThrow(/which is this very process: the lock was left in place/);
    expect(await backendAt(dir).forceUnlock({ force: true })).toMatchObject({ removed: true, holder: { pid: process.pid, command: "up" }, warning: expect.stringContaining("removed the lock of stack dev") });
    await lock.release();
  });
});
