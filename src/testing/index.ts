/**
 * Helpers for testing Cairn programs and providers without a cloud or real time.
 *
 * @example
 * import { FakeClock } from "cairn/testing";
 * const clock = new FakeClock({ auto: true });
 * const stack = myProgram.stack({ stack: "test", stateDir: tmp, clock });
 * await stack.up(); // a 75-minute wait completes in milliseconds
 */
export { FakeClock } from "./fake-clock.js";
