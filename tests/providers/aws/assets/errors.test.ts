// Mistakes a user can make with assets, each with one message saying what is wrong and what to do.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../../../src/index.js";
import { assets } from "../../../../src/providers/aws/index.js";
import { Function as LambdaFunction } from "../../../../src/providers/aws/services/lambda.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../../src/testing/cloudcontrol/fake-server.js";

let dir: string;
let cloud: ServedFakeCloudControl;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-asset-err-"));
  cloud = await serveFakeCloudControl({ pollsToFinish: 0 });
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await cloud.stop();
});

const stackOf = (fn: () => void) => program("errs", fn).stack({ backend: "memory://", passphrase: "test", defaultProviders: { aws: cloud.provider } });

describe("asset mistakes", () => {
  it("a missing folder is named, with where relative paths start", async () => {
    const stack = stackOf(() => void assets.folder("code", "./no-such-folder", { bucket: "b" }));

    await expect(stack.preview()).rejects.toThrow(/assets\.folder\("code", "\.\/no-such-folder"\): .*no-such-folder is not a folder\. The path is relative to the file that calls assets\.folder/);
  });

  it("an empty folder is refused before anything is uploaded", async () => {
    const stack = stackOf(() => void assets.folder("code", dir, { bucket: "b" }));

    await expect(stack.preview()).rejects.toThrow(/has no files: put the function's code in it/);
  });

  it("a bucket that does not exist fails the upload naming the bucket, and the function is not created", async () => {
    writeFileSync(join(dir, "index.js"), "exports.handler = async () => 1;");
    const failed: string[] = [];
    const stack = stackOf(() => {
      const code = assets.folder("code", dir, { bucket: "nowhere" });
      new LambdaFunction("fn", { role: "arn:aws:iam::123456789012:role/r", runtime: "nodejs22.x", handler: "index.handler", code: code.code });
    });
    stack.events.subscribe((e) => e.type === "step-failed" && failed.push(e.error));

    const result = await stack.up();

    expect(result.summary?.ok).toBe(false);
    expect(failed.join("\n")).toMatch(/s3 PutObject failed: NoSuchBucket: .*the assets bucket "nowhere" does not exist: create it \(an s3\.Bucket in the program\) or name another/);
    expect(cloud.cloud.objects("AWS::Lambda::Function")).toEqual([]);
  });
});
