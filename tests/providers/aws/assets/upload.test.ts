// Lambda code from a folder, end to end and in process: the asset is zipped and uploaded to a local S3 (the
// state backend tests' fake, on 127.0.0.1), and the function is created on the fake Cloud Control with the
// asset's bucket and key. No AWS call is made.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { program } from "../../../../src/index.js";
import { assets } from "../../../../src/providers/aws/index.js";
import { Provider } from "../../../../src/providers/aws/provider.js";
import { Function as LambdaFunction } from "../../../../src/providers/aws/services/lambda.js";
import { renderPlan } from "../../../../src/cli/render.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../../src/testing/cloudcontrol/fake-server.js";
import { startS3Fake } from "../../../state/s3-http-fake.js";

let s3: Awaited<ReturnType<typeof startS3Fake>>;
let cloud: ServedFakeCloudControl;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Fake();
});
afterAll(async () => {
  await s3.stop();
});
beforeEach(async () => {
  cloud = await serveFakeCloudControl({ pollsToFinish: 0 });
  dir = mkdtempSync(join(tmpdir(), "cairn-asset-"));
  writeFileSync(join(dir, "index.js"), "exports.handler = async () => 'v1';");
});
afterEach(async () => {
  await cloud.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A function whose code is the folder `dir`, uploaded to the local S3 (the asset's own provider). */
function app() {
  const local = new Provider("local-s3", { region: "us-east-1", endpoint: s3.endpoint, credentials: { accessKeyId: "test", secretAccessKey: "test" } });
  return program("assets", () => {
    const code = assets.folder("worker-code", dir, { bucket: "assets" }, { provider: local });
    const fn = new LambdaFunction("worker", { role: "arn:aws:iam::123456789012:role/worker", runtime: "nodejs22.x", handler: "index.handler", code: code.code });
    return { key: code.key, arn: fn.arn };
  }).stack({ backend: "memory://", passphrase: "test", defaultProviders: { aws: cloud.provider } });
}

const puts = () => [...s3.objects.values()].map((o) => o.etag);
const functionCode = () => cloud.cloud.objects("AWS::Lambda::Function")[0]?.properties.Code as { S3Bucket?: string; S3Key?: string } | undefined;

describe("Lambda code from a folder", () => {
  it("uploads the zip as <hash>.zip before creating the function, which names that bucket and key", async () => {
    const stack = app();

    const result = await stack.up();

    expect(result.summary?.ok).toBe(true);
    const key = String(result.outputs?.key);
    expect(key).toMatch(/^[0-9a-f]{64}\.zip$/);
    expect([...s3.objects.keys()]).toContain(`assets/${key}`);
    expect(functionCode()).toEqual({ S3Bucket: "assets", S3Key: key });
  });

  it("uploads nothing and changes nothing on a re-run with the folder unchanged", async () => {
    const stack = app();
    await stack.up();
    const stored = puts();
    const requests = s3.stats.requests;

    const again = await stack.up();

    expect(again.summary?.ok).toBe(true);
    expect(stripVTControlCharacters(renderPlan(await stack.preview()))).not.toMatch(/[~+-] (update|create|replace)/);
    // A PutObject would give the object a new ETag; the re-run sent no request at all.
    expect(puts()).toEqual(stored);
    expect(s3.stats.requests).toBe(requests);
  });

  it("plans the hash change and the function's new s3Key when a file changes, then updates the function", async () => {
    const stack = app();
    const first = await stack.up();
    const oldKey = String(first.outputs?.key);
    writeFileSync(join(dir, "index.js"), "exports.handler = async () => 'v2';");

    const text = stripVTControlCharacters(renderPlan(await stack.preview()));
    const failed: unknown[] = [];
    stack.events.subscribe((e) => e.type === "step-failed" && failed.push(e));
    const second = await stack.up();

    const newKey = String(second.outputs?.key);
    expect(newKey).not.toBe(oldKey);
    expect(text).toContain(oldKey.slice(0, 12));
    expect(text).toContain(newKey.slice(0, 12));
    expect(text).toMatch(/update urn:cairn:dev::assets::aws:lambda:Function::worker/);
    expect(second.summary?.ok, JSON.stringify(failed)).toBe(true);
    expect(functionCode()).toEqual({ S3Bucket: "assets", S3Key: newKey });
    // The new archive replaced the old one, deleted once the function no longer named it.
    expect([...s3.objects.keys()]).toContain(`assets/${newKey}`);
    expect([...s3.objects.keys()]).not.toContain(`assets/${oldKey}`);
  });

  it("deletes the archive on destroy, after the function", async () => {
    const stack = app();
    const key = String((await stack.up()).outputs?.key);

    const result = await stack.destroy();

    expect(result.summary?.ok).toBe(true);
    expect([...s3.objects.keys()]).not.toContain(`assets/${key}`);
    expect(cloud.cloud.objects("AWS::Lambda::Function")).toEqual([]);
  });
});
