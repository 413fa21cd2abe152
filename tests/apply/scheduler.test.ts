import { describe, expect, it } from "vitest";
import { Cancelled, Scheduler } from "../../src/apply/scheduler.js";

const job = (id: string, slot = true) => ({ id, slot });
const slot = (j: { slot: boolean }) => j.slot;
const tick = () => new Promise((r) => setTimeout(r, 5));
/** Dependencies named by id, as the scheduler takes them: by index in `jobs`. */
const indexed = (jobs: readonly { id: string }[], deps: ReadonlyMap<string, string[]>) => jobs.map((j) => (deps.get(j.id) ?? []).map((d) => jobs.findIndex((x) => x.id === d)));

describe("the scheduler", () => {
  it("refuses a dependency on a job that does not exist, naming the job", () => {
    expect(() => new Scheduler([job("a"), job("b")], [[], [5]], { parallel: 1, slot })).toThrow("job b depends on job 5, which does not exist");
  });

  it("runs jobs in dependency order, at most `parallel` with a slot at once", async () => {
    let running = 0;
    let peak = 0;
    const log: string[] = [];
    const jobs = ["a", "b", "c", "d"].map((id) => job(id));
    const deps = new Map([["d", ["a", "b", "c"]]]);
    await new Scheduler(jobs, indexed(jobs, deps), { parallel: 2, slot }).run({
      run: async (j) => {
        peak = Math.max(peak, ++running);
        await tick();
        running--;
        log.push(j.id);
      },
    });
    expect(peak).toBe(2);
    expect(log.at(-1)).toBe("d");
  });

  it("asks a `parallel` function again each time jobs start, so the limit can grow during the walk", async () => {
    let running = 0;
    const peaks: number[] = [];
    let limit = 1;
    const jobs = Array.from({ length: 12 }, (_, i) => job(`j${i}`));
    await new Scheduler(jobs, [], { parallel: () => limit, slot }).run({
      run: async () => {
        peaks.push(++running);
        await tick();
        running--;
        limit = 3; // learned during the first job
      },
    });
    expect(peaks[0]).toBe(1);
    expect(Math.max(...peaks)).toBe(3);
  });

  it("a failure skips only its dependents", async () => {
    const skipped: string[] = [];
    const done: string[] = [];
    await new Scheduler([job("a"), job("b"), job("c")], [[], [0], []], { parallel: 5, slot }).run({
      run: async (j) => {
        if (j.id === "a") throw new Error("boom");
      },
      succeeded: (j) => done.push(j.id),
      skipped: (j, r) => skipped.push(`${j.id}:${r.kind}`),
    });
    expect(done).toEqual(["c"]);
    expect(skipped).toEqual(["b:dependency-failed"]);
  });

  it("once stopStarting aborts nothing new starts, and a job that stops because of it counts as skipped", async () => {
    const cancel = new AbortController();
    const seen: string[] = [];
    await new Scheduler([job("a"), job("b")], [[], [0]], { parallel: 1, slot, stopStarting: cancel.signal }).run({
      run: async () => {
        cancel.abort();
        throw new Cancelled();
      },
      failed: (j) => seen.push(`failed ${j.id}`),
      skipped: (j, r) => seen.push(`skipped ${j.id} ${r.kind}`),
    });
    expect(seen).toEqual(["skipped a cancelled", "skipped b cancelled"]);
  });

  it("reports a stall when every running job is blocked, and fail() ends them", async () => {
    const blocked = new Set(["a", "b"]);
    const failed: string[] = [];
    const s = new Scheduler([job("a"), job("b")], [], { parallel: 5, slot });
    await s.run({
      run: () => new Promise(() => {}),
      blocked: (j) => blocked.has(j.id),
      stalled: (running) => {
        for (const j of running) s.fail(j.id, new Error("stuck"));
      },
      failed: (j, e) => failed.push(`${j.id}: ${(e as Error).message}`),
    });
    expect(failed.sort()).toEqual(["a: stuck", "b: stuck"]);
  });
});

describe("which ready job takes a free slot (no head-of-line blocking)", () => {
  /** Runs `jobs` one slot at a time, each finishing at once, and answers the order slot jobs started in. */
  async function startOrder(jobs: { id: string; slot: boolean }[], deps: Map<string, string[]>): Promise<string[]> {
    const started: string[] = [];
    await new Scheduler(jobs, indexed(jobs, deps), { parallel: 1, slot }).run({ started: (j) => j.slot && started.push(j.id), run: async () => {} });
    return started;
  }

  it("a step that unblocks a wait runs before independent siblings: each certificate's record follows it at once", async () => {
    // GIVEN 4 certificates, a validation record each, and a wait on each certificate and its record
    const jobs = [0, 1, 2, 3].flatMap((i) => [job(`cert-${i}`), job(`record-${i}`), job(`wait-${i}`, false)]);
    const deps = new Map([0, 1, 2, 3].flatMap((i) => [[`record-${i}`, [`cert-${i}`]], [`wait-${i}`, [`cert-${i}`, `record-${i}`]]] as [string, string[]][]));
    // THEN with one slot, record-0 does not queue behind cert-1…cert-3 (first-come order would run all certificates first)
    expect(await startOrder(jobs, deps)).toEqual(["cert-0", "record-0", "cert-1", "record-1", "cert-2", "record-2", "cert-3", "record-3"]);
  });

  it("a step others depend on starts before a ready sibling nothing depends on", async () => {
    const jobs = [job("leaf-a"), job("leaf-b"), job("base"), job("user")];
    expect(await startOrder(jobs, new Map([["user", ["base"]]]))).toEqual(["base", "leaf-a", "leaf-b", "user"]);
  });

  it("a ready step moves ahead once it becomes the last thing a wait lacks", async () => {
    // GIVEN x, then y: the wait needs both; z is ready too, and something depends on it
    const jobs = [job("y"), job("z"), job("x"), job("after-z"), job("wait", false)];
    const deps = new Map([["wait", ["x", "y"]], ["after-z", ["z"]]]);
    // x and y both unblock only together, so the first is ranked like z (first come); once y is done,
    // x is all the wait lacks and goes before z, although z became ready first
    expect(await startOrder(jobs, deps)).toEqual(["y", "x", "z", "after-z"]);
  });
});
