import { describe, expect, it } from "vitest";
import { globalShadowError } from "../../src/program/global-shadow.js";
import { isUserError } from "../../src/core/diagnostic.js";
import { programIn, run } from "../cli/harness.js";
import { memoryType } from "../helpers.js";
import { output } from "../../src/program/output.js";

// A Cairn class used without its import is JavaScript's global of that name: its failure is recognised at
// the user's frame and told as a missing import (tests/e2e/user-sites.test.ts runs it as a user's program).

/** What `f` threw. */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
}

describe("globalShadowError", () => {
  it("tells JavaScript's Function, called with a resource's arguments, as a missing import at the calling line", () => {
    const e = globalShadowError(thrown(() => new Function("fn", { runtime: "nodejs20.x" } as never)));
    expect(isUserError(e)).toBe(true);
    expect(e!.diagnostic.summary).toBe("Function here is JavaScript's global Function: import it from cairn-iac/aws/lambda (or cairn-iac/aws/cloudfront, cairn-iac/aws/mediatailor).");
    expect(String(e!.diagnostic.site)).toMatch(/^tests\/program\/global-shadow\.test\.ts:23:\d+$/);
    expect(e!.diagnostic.detail).toMatch(/failed: Unexpected identifier 'Object'.*import \* as lambda from "cairn-iac\/aws\/lambda"/);
  });

  it("tells JavaScript's Map, given a name, as a missing import of cairn-iac/aws/location", () => {
    const e = globalShadowError(thrown(() => new Map("tiles" as never)));
    expect(e?.diagnostic.summary).toMatch(/^Map here is JavaScript's global Map: import it from cairn-iac\/aws\/location\.$/);
    expect(String(e!.diagnostic.site)).toMatch(/^tests\/program\/global-shadow\.test\.ts:31:\d+$/);
  });

  it("leaves every other error as it is", () => {
    expect(globalShadowError(thrown(() => JSON.parse("{")))).toBeUndefined(); // a SyntaxError of another global
    expect(globalShadowError(thrown(() => new Map(["ab"] as never)))).toBeUndefined(); // Map given a list of strings, not a name
    expect(globalShadowError(new Error("Unexpected identifier 'Object'"))).toBeUndefined(); // thrown by the user's code
    expect(globalShadowError("a string")).toBeUndefined();
  });
});

describe("a global Function called inside an apply() callback", () => {
  const box = memoryType<{ v: unknown }, { v: unknown }>("shadow:Box", { inputs: { v: {} }, outputs: { v: {} } });

  it("is told as a missing import, naming the resource it feeds and the apply()'s line", async () => {
    const { prog } = await programIn("shadow", () => {
      new box.Type("b", { v: output(1).apply(() => new Function("fn", {} as never)) });
    });
    const r = await run(prog, ["preview"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/Planning "b" \(shadow:Box\) failed: Function here is JavaScript's global Function: import it from cairn-iac\/aws\/lambda/);
    expect(r.stdout + r.stderr).toMatch(/\(thrown by the apply\(\) callback at tests\/program\/global-shadow\.test\.ts:49:\d+ on a value\)/);
  });
});
