/**
 * Cairn's matchers for vitest: `import "cairn-iac/testing/vitest"` (in a test file or a `setupFiles` entry)
 * adds `toHaveStep`, `toHaveWaitOutcome` and `toHaveFailed` to `expect`, with their types. Optional: plain
 * objects and `toMatchObject` work without it.
 *
 * @example
 * import "cairn-iac/testing/vitest";
 * expect(await run.preview()).toHaveStep("cert", "create");
 * expect(await run.up()).toHaveWaitOutcome("issued", "satisfied");
 *
 * @module cairn-iac/testing/vitest
 */
import { expect } from "vitest";
import { cairnMatchers, type CairnMatchers } from "./matchers.js";

expect.extend(cairnMatchers);

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends CairnMatchers<T> {}
}

export { cairnMatchers, type CairnMatchers };
