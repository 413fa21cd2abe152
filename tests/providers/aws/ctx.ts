import type { OpContext } from "../../../src/provider/provider.js";
import { FakeClock } from "../../../src/testing/fake-clock.js";

/**
 * An OpContext for provider tests: a FakeClock in auto mode (waits and retry backoff take no real time),
 * a fresh AbortSignal and a logger that keeps its messages.
 *
 * @example
 * const ctx = testCtx();
 * await provider.create({ urn, inputs, ctx });
 * ctx.clock.now(); // how much fake time passed
 */
export function testCtx(overrides: Partial<OpContext> = {}): OpContext & { clock: FakeClock; logs: string[] } {
  const logs: string[] = [];
  return {
    signal: new AbortController().signal,
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(`warn: ${m}`) },
    workDir: ".",
    ...overrides,
    clock: overrides.clock instanceof FakeClock ? overrides.clock : new FakeClock({ auto: true }),
    logs,
  };
}
