import { spawn } from "node:child_process";
import { mkdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { forceUnlock, LockCompromisedError, LockHeldError, lockStack, readLockHolder, StackLockedError } from "../../src/state/lock.js";
import { machineId } from "../../src/state/process-identity.js";
import { tempDir } from "./helpers.js";

const exists = (p: string) => stat(p).then(() => true, () => false);

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.on("exit", r));
  return child.pid!;
}

/** Starts a child process holding the lock of `stackDir`; resolves once it holds it. */
async function childHoldingLock(stackDir: string, args: string[] = []) {
  const script = fileURLToPath(new URL("./fixtures/hold-lock.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, stackDir, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
    child.on("exit", (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
  return child;
}

describe("stack lock", () => {
  it("records the holder in lock.json and removes it on release", async () => {
    const dir = join(await tempDir(), "stacks", "dev");
    const lock = await lockStack(dir, { stack: "dev", command: "up" });
    expect(lock.notes).toEqual([]);
    const holder = JSON.parse(await readFile(join(dir, "lock.json"), "utf8")) as unknown;
    expect(holder).toEqual({ pid: process.pid, host: hostname(), started: expect.any(Number), machine: expect.any(String), since: lock.holder.since, command: "up", leaseMs: 60_000 });
    expect(Number.isNaN(Date.parse(lock.holder.since))).toBe(false);
    expect(await exists(join(dir, "lock"))).toBe(true);
    await lock.release();
    expect(await exists(join(dir, "lock"))).toBe(false);
    expect(await exists(join(dir, "lock.json"))).toBe(false);
    await lock.release(); // twice is fine
  });

  it("refuses a second lock in the same process, naming the holder and how to unlock", async () => {
    const dir = await tempDir();
    const first = await lockStack(dir, { stack: "dev", command: "up" });
    const err = await lockStack(dir, { stack: "dev", command: "destroy" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StackLockedError);
    const locked = err as StackLockedError;
    expect(locked.holder).toEqual(first.holder);
    expect(locked.message).toMatch(/^stack dev is locked by pid \d+ on .* since \S+ \(for \d+s; command: up\): /);
    expect(locked.message).toBe(
      `stack dev is locked by pid ${process.pid} on ${hostname()} since ${first.holder.since} (for 0s; command: up): ` +
        "wait for that run to finish, or if that run is no longer active, remove the lock with `npx tsx infra.ts unlock --stack dev`",
    );
    await first.release();
    const again = await lockStack(dir, { stack: "dev" });
    await again.release();
  });

  it("names the program given as hint", async () => {
    const dir = await tempDir();
    const first = await lockStack(dir, { stack: "prod" });
    await expect(lockStack(dir, { stack: "prod", programHint: "node deploy/app.ts" })).rejects.toThrow(
      "remove the lock with `node deploy/app.ts unlock --stack prod`",
    );
    await first.release();
  });

  it("lets exactly one of two concurrent lock calls win", async () => {
    const dir = await tempDir();
    const results = await Promise.allSettled([lockStack(dir, { stack: "dev" }), lockStack(dir, { stack: "dev" })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected");
    expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(StackLockedError);
    await (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<Awaited<ReturnType<typeof lockStack>>>).value.release();
  });

  it("takes over a lock left by a process of this host that is no longer running", async () => {
    const dir = await tempDir();
    const pid = await deadPid();
    await mkdir(join(dir, "lock"));
    await writeFile(join(dir, "lock.json"), JSON.stringify({ pid, host: hostname(), since: "2025-01-01T00:00:00.000Z", command: "up" }));
    // Two runs find the stale lock at once: one takes it over, the other is told who holds it now.
    const results = await Promise.allSettled([lockStack(dir, { stack: "dev" }), lockStack(dir, { stack: "dev" })]);
    const won = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof lockStack>>>).value);
    expect(won).toHaveLength(1);
    expect(won[0]!.notes).toEqual([`removed a stale lock left by pid ${pid} on ${hostname()}: pid ${pid} is no longer running`]);
    expect((await readLockHolder(dir))?.pid).toBe(process.pid);
    const lost = (results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason as StackLockedError;
    expect(lost.holder?.pid).toBe(process.pid);
    await won[0]!.release();
  });

  it("does not take over a lock held on another host, even if that pid is not running here", async () => {
    const dir = await tempDir();
    const pid = await deadPid();
    await mkdir(join(dir, "lock"));
    const holder = { pid, host: `${hostname()}-elsewhere`, since: "2025-01-01T00:00:00.000Z", command: "up" };
    await writeFile(join(dir, "lock.json"), JSON.stringify(holder));
    const err = (await lockStack(dir, { stack: "dev" }).catch((e: unknown) => e)) as StackLockedError;
    expect(err).toBeInstanceOf(StackLockedError);
    expect(err.holder).toEqual(holder);
    expect(err.message).toMatch(new RegExp(`locked by pid ${pid} on ${holder.host} since 2025-01-01T00:00:00.000Z \\(for \\d+d \\d+h; command: up\\)`));
  });

  it("reports a lock without lock.json as held by an unknown run", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "lock"));
    const err = (await lockStack(dir, { stack: "dev" }).catch((e: unknown) => e)) as StackLockedError;
    expect(err).toBeInstanceOf(StackLockedError);
    expect(err.holder).toBeUndefined();
    expect(err.message).toMatch(/\(.*lock\) by a run that has not recorded itself yet.*unlock --stack dev/);
  });

  it("is held across processes, and taken over after the holder is killed with SIGKILL", async () => {
    const dir = await tempDir();
    const child = await childHoldingLock(dir);
    try {
      const err = (await lockStack(dir, { stack: "dev" }).catch((e: unknown) => e)) as StackLockedError;
      expect(err).toBeInstanceOf(StackLockedError);
      expect(err.holder).toMatchObject({ pid: child.pid, host: hostname(), command: "up (child)" });
      expect(err.message).toContain(`locked by pid ${child.pid} on ${hostname()}`);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.on("exit", r));
    }
    expect(await exists(join(dir, "lock"))).toBe(true); // kill -9 leaves the lock behind
    const lock = await lockStack(dir, { stack: "dev" });
    expect(lock.notes).toEqual([`removed a stale lock left by pid ${child.pid} on ${hostname()}: pid ${child.pid} is no longer running`]);
    await lock.release();
  });

  it("unlock refuses while the holder still runs on this host, and --force removes it with a warning naming holder and age", async () => {
    const dir = join(await tempDir(), "dev");
    const child = await childHoldingLock(dir);
    try {
      const refused = (await forceUnlock(dir, { programHint: "npx tsx app.ts" }).catch((e: unknown) => e)) as LockHeldError;
      expect(refused).toBeInstanceOf(LockHeldError);
      expect(refused.message).toMatch(
        new RegExp(`^stack dev is locked by pid ${child.pid} on ${hostname()} since \\S+ \\(for \\d+s; command: up \\(child\\)\\), which is still running on this host: the lock was left in place`),
      );
      expect(refused.message).toContain("`npx tsx app.ts unlock --stack dev --force` removes the lock anyway");
      expect(await exists(join(dir, "lock"))).toBe(true);
      expect(await readLockHolder(dir)).toMatchObject({ pid: child.pid });

      const res = await forceUnlock(dir, { force: true });
      expect(res.removed).toBe(true);
      expect(res.holder).toMatchObject({ pid: child.pid, command: "up (child)" });
      expect(res.warning).toMatch(new RegExp(`removed the lock of stack dev held by pid ${child.pid} on ${hostname()} since \\S+ \\(for \\d+s; command: up \\(child\\)\\), which is still running on this host: if that run is still active, it and the next run may both write the stack`));
      expect(await exists(join(dir, "lock"))).toBe(false);
      expect(await exists(join(dir, "lock.json"))).toBe(false);
      const lock = await lockStack(dir, { stack: "dev" });
      expect(lock.notes).toEqual([]);
      await lock.release();
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.on("exit", r));
    }
    expect(await forceUnlock(dir)).toEqual({ removed: false });
    expect(await forceUnlock(join(dir, "no-such-stack"))).toEqual({ removed: false });
  });

  it("unlock removes, without --force, a lock whose holder died on this host", async () => {
    const dir = await tempDir();
    const child = await childHoldingLock(dir);
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    const res = await forceUnlock(dir);
    expect(res).toEqual({ removed: true, holder: expect.objectContaining({ pid: child.pid }) });
    expect(await exists(join(dir, "lock"))).toBe(false);
  });

  it("judges a lock from another host by its age: refreshed within a minute it stays, older it goes", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "lock"));
    const holder = { pid: 4242, host: `${hostname()}-elsewhere`, since: new Date(Date.now() - 600_000).toISOString(), command: "up" };
    await writeFile(join(dir, "lock.json"), JSON.stringify(holder));
    const refused = (await forceUnlock(dir, { stack: "dev" }).catch((e: unknown) => e)) as LockHeldError;
    expect(refused).toBeInstanceOf(LockHeldError);
    expect(refused.message).toMatch(/locked by pid 4242 on .*-elsewhere since \S+ \(for 10m 0\ds; command: up\), which renewed its lock \ds ago from another host \(a lock not renewed for 1m 00s is stale\)/);

    const old = new Date(Date.now() - 5 * 60_000);
    await utimes(join(dir, "lock"), old, old);
    const res = await forceUnlock(dir, { stack: "dev" });
    expect(res).toEqual({ removed: true, holder });
  });

  it("records a lost lock instead of crashing, and refuses to go on", async () => {
    const dir = await tempDir();
    const seen: Error[] = [];
    const lock = await lockStack(dir, { stack: "dev", staleMs: 2000, onCompromised: (e) => void seen.push(e) });
    expect(() => lock.assertHeld()).not.toThrow();
    await forceUnlock(dir, { force: true }); // someone ran `unlock --force` while this run was active
    for (let i = 0; i < 40 && !lock.compromised; i++) await new Promise((r) => setTimeout(r, 100));
    expect(lock.compromised).toBeInstanceOf(LockCompromisedError);
    expect(seen).toEqual([lock.compromised]);
    expect(() => lock.assertHeld()).toThrow(/the lock on stack dev \(.*lock\) was lost while this run held it/);
    await lock.release();
    const next = await lockStack(dir, { stack: "dev" });
    await next.release();
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const callsIn = async (file: string) => (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
const exited = (child: ReturnType<typeof spawn>) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.on("exit", (code) => r(code))));

describe("stack lock: a holder is gone only when that is provable", () => {
  it("keeps the lock of a holder suspended (SIGSTOP) for longer than its lease: this host sees its pid still runs", async () => {
    const dir = await tempDir();
    const calls = join(dir, "calls.log");
    const child = await childHoldingLock(dir, ["--stale", "1000", "--calls", calls]);
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    try {
      child.kill("SIGSTOP");
      await sleep(2500); // 2.5 leases without a renewal
      const err = (await lockStack(dir, { stack: "dev", staleMs: 1000 }).catch((e: unknown) => e)) as StackLockedError;
      expect(err).toBeInstanceOf(StackLockedError);
      expect(err.holder?.pid).toBe(child.pid);
      await expect(forceUnlock(dir, { staleMs: 1000 })).rejects.toThrow(/which is still running on this host: the lock was left in place/);

      // WHEN it resumes THEN it still holds its lock and goes on making calls
      const before = await callsIn(calls);
      child.kill("SIGCONT");
      await sleep(600);
      expect(await callsIn(calls)).toBeGreaterThan(before + 3);
      expect(output).not.toContain("stopped");
      expect((await readLockHolder(dir))?.pid).toBe(child.pid);
    } finally {
      child.kill("SIGKILL");
      await exited(child);
    }
  });

  it("lets another host's holder lose a lease it did not renew, and that holder stops before its next call, saying so", async () => {
    const dir = await tempDir();
    const calls = join(dir, "calls.log");
    const child = await childHoldingLock(dir, ["--stale", "1000", "--calls", calls, "--host", "laptop-elsewhere"]);
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    try {
      // WHILE the holder sleeps past its lease, another run takes the lock over
      child.kill("SIGSTOP");
      await sleep(1500);
      const made = await callsIn(calls);
      const lock = await lockStack(dir, { stack: "dev", command: "up (second)" });
      expect(lock.notes).toEqual([expect.stringMatching(new RegExp(`^removed a stale lock left by pid ${child.pid} on laptop-elsewhere: its lease ran out: not renewed for \\ds \\(from another host\\)$`))]);

      // WHEN the holder resumes THEN it makes no further call (at most the one it was in) and says why
      child.kill("SIGCONT");
      expect(await exited(child)).toBe(3);
      expect(output).toMatch(/stopped before call \d+: the lock on stack dev \(.*lock\) was lost while this run held it \(lock\.json now names pid \d+ on /);
      expect(await callsIn(calls)).toBeLessThanOrEqual(made + 1);
      expect(await readLockHolder(dir)).toMatchObject({ pid: process.pid, command: "up (second)" });
      await lock.verify!();
      await lock.release();
    } finally {
      child.kill("SIGKILL");
      await exited(child);
    }
  });

  it("takes over a lock whose pid now belongs to another process (judged by the process start time)", async () => {
    const dir = await tempDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      await mkdir(join(dir, "lock"));
      const holder = { pid: other.pid!, host: hostname(), machine: machineId(), started: 1, since: "2025-01-01T00:00:00.000Z", command: "up" };
      await writeFile(join(dir, "lock.json"), JSON.stringify(holder));
      const lock = await lockStack(dir, { stack: "dev" });
      expect(lock.notes).toEqual([expect.stringMatching(new RegExp(`^removed a stale lock left by pid ${other.pid} on .*: pid ${other.pid} now belongs to another process \\(started at tick \\d+, the holder at 1\\)$`))]);
      await lock.release();
    } finally {
      other.kill("SIGKILL");
      await exited(other);
    }
  });
});
