import { afterEach, beforeEach, describe, it } from "vitest";
import { fakeS3 } from "../fake-s3.js";
import { conformance } from "./two-stacks.js";

let s3: ReturnType<typeof fakeS3>;
beforeEach(() => {
  s3 = fakeS3();
});
afterEach(() => s3.restore());

describe("two stacks that feed each other, on S3 (a fake S3 answering the SDK)", () => {
  it("app reads network's outputs (secrets stay secret), sees them change, and network's destroy needs --force", async () => {
    await conformance({ backend: "s3://acme-state/infra?region=eu-west-1", passphrase: "test-pass" }, "s3stacks", async () => {
      const text = [...s3.objects.entries()].map(([k, o]) => `${k}\n${o.body}`).join("\n");
      if (!text.includes("cairn:stack:StackReference")) throw new Error("the bucket holds no stack reference");
      return text;
    });
  });
});
