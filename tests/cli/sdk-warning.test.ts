import { afterEach, describe, expect, it, vi } from "vitest";
import { oneLineSdkNodeWarning } from "../../src/cli/sdk-warning.js";

// The SDK's text (@aws-sdk/core, emitWarningIfUnsupportedVersion) as Node 20 receives it.
const SDK_TEXT = `NodeVersionSupportWarning: The AWS SDK for JavaScript (v3)
versions published after the first week of January 2027
will require node >=22. You are running node v20.20.2.

To continue receiving updates to AWS services, bug fixes,
and security updates please upgrade to node >=22.

More information can be found at: https://a.co/c895JFp`;

const original = process.emitWarning;
afterEach(() => {
  process.emitWarning = original;
});

describe("the AWS SDK's Node-version warning", () => {
  it("is written once, as one line, however often the SDK emits it; other warnings reach Node as before", () => {
    const passed = vi.fn();
    process.emitWarning = passed as unknown as typeof process.emitWarning;
    const lines: string[] = [];
    oneLineSdkNodeWarning((l) => lines.push(l));

    process.emitWarning(SDK_TEXT);
    process.emitWarning(SDK_TEXT);
    process.emitWarning("something else", "DeprecationWarning");

    expect(lines).toEqual(["warning: The AWS SDK for JavaScript (v3) versions published after the first week of January 2027 will require node >=22. You are running node v20.20.2.\n"]);
    expect(passed).toHaveBeenCalledTimes(1);
    expect(passed).toHaveBeenCalledWith("something else", "DeprecationWarning");
  });
});
