import { describe, expect, it } from "vitest";
import { WaitPoller, type WaitRun } from "../../src/wait/waiter.js";
import { describeWaitOutcome } from "../../src/wait/outcome.js";
import type { OpContext, Provider } from "../../src/provider/provider.js";
import type { Urn } from "../../src/core/urn.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { seconds } from "../../src/core/duration.js";
import { TransientError } from "../../src/core/errors.js";

type Props = Record<string, unknown>;
const TIMEOUT = seconds(3);

/**
 * A poller on a fake clock whose round context is aborted with a TimeoutError, as `AbortSignal.timeout`
 * does, when the round starts at the wait's deadline; `read(n, signal)` answers the n-th read.
 */
function setup(read: (n: number, signal: AbortSignal) => Promise<Props>) {
  const clock = new FakeClock({ auto: true });
  const deadline = clock.now() + TIMEOUT;
  let n = 0;
  const provider: Provider<Props, Props> = {
    async create() {
      throw new Error("unused");
    },
    read: ({ ctx }) => read(++n, ctx.signal),
    async delete() {},
  };
  const opContext = (): OpContext => {
    const c = new AbortController();
    if (clock.now() >= deadline) setImmediate(() => c.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")));
    return { signal: c.signal, log: { info() {}, warn() {} }, clock, workDir: "." };
  };
  const poller = new WaitPoller({ clock, opContext, random: () => 0.5 });
  const run: WaitRun = {
    urn: "urn:w" as Urn, subject: "server", target: { urn: "urn:t" as Urn, id: "t", inputs: {}, outputs: {} }, provider,
    until: { op: "eq", path: ["status"], value: "ready" }, timeoutMs: TIMEOUT, intervalMs: seconds(1), secret: new Set(),
  };
  const label = { label: 'wait "healthy"', subject: "server", until: 'server.status == "ready"', timeoutMs: TIMEOUT };
  return { poller, run, label, reads: () => n };
}

describe("wait timeouts are timeouts", () => {
  it("a read cut short by the wait's own deadline ends it timed out, naming the predicate, the time and the last value seen", async () => {
    const { poller, run, label } = setup((_n, signal) => readOrHang(signal));
    const { outcome } = await poller.wait(run);
    expect(outcome).toMatchObject({ kind: "timed-out", elapsedMs: TIMEOUT, observed: [{ path: "status", value: "starting" }] });
    const message = describeWaitOutcome(label, outcome);
    expect(message).toMatch(/^wait "healthy" timed out after 3s: server\.status == "ready" never held; last observed status = "starting" \(\d+ reads\)\. Raise its timeout/);
    expect(message).not.toMatch(/kept failing|throttling|TimeoutError/);
  });

  it("a read failing for a moment at the deadline, after reads that saw the target, is a timeout too", async () => {
    let failing = false;
    const { poller, run } = setup(async () => {
      if (failing) throw new TransientError("ThrottlingException: Rate exceeded");
      return { status: "starting" };
    });
    const p = poller.wait({ ...run, onPoll: (poll) => (failing = poll.elapsedMs >= 2000) });
    expect((await p).outcome).toMatchObject({ kind: "timed-out", observed: [{ path: "status", value: "starting" }] });
  });

  it("reads that kept failing keep their own message: a read error, not a timeout", async () => {
    const { poller, run, label } = setup(async () => {
      throw new TransientError("ThrottlingException: Rate exceeded");
    });
    const { outcome } = await poller.wait(run);
    expect(outcome).toMatchObject({ kind: "read-error", transient: true });
    expect(describeWaitOutcome(label, outcome)).toContain("reading server kept failing (TransientError: ThrottlingException: Rate exceeded");
  });

  it("a read that fails for good stops the wait at once with the provider's message", async () => {
    const { poller, run, label, reads } = setup(async () => {
      throw new Error("AccessDeniedException: not authorized to read");
    });
    const { outcome } = await poller.wait(run);
    expect(reads()).toBe(1);
    expect(describeWaitOutcome(label, outcome)).toBe(
      'wait "healthy": reading server failed: AccessDeniedException: not authorized to read. This error does not go away by waiting (check permissions and the target\'s id), so the wait stopped at once.',
    );
  });
});

/** Answers "starting" a moment later, unless the round was cut short by then (as a read at the deadline is). */
function readOrHang(signal: AbortSignal): Promise<Props> {
  return new Promise((resolve, reject) => {
    setImmediate(() => (signal.aborted ? reject(signal.reason) : resolve({ status: "starting" })));
  });
}
