// An asset under cairn-iac/testing: mocked like any resource, it hands the function its bucket and key.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../../../src/index.js";
import { assets } from "../../../../src/providers/aws/index.js";
import { Function as LambdaFunction } from "../../../../src/providers/aws/services/lambda.js";
import { mocks, testProgram } from "../../../../src/testing/index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-asset-mock-"));
  writeFileSync(join(dir, "index.js"), "exports.handler = async () => 1;");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const app = () =>
  program("mocked", () => {
    const code = assets.folder("worker-code", dir, { bucket: "assets" });
    new LambdaFunction("worker", { role: "arn:aws:iam::1:role/r", runtime: "nodejs22.x", handler: "index.handler", code: code.code });
  });
const allMocked = { "aws:assets:Zip": mocks.resource(), "aws:lambda:Function": mocks.resource() };

describe("assets under cairn-iac/testing", () => {
  it("give the function the planned bucket and <hash>.zip key with mocks.resource()", async () => {
    const run = await testProgram(app(), { mocks: allMocked });

    const up = await run.up();

    expect(up.ok).toBe(true);
    const hash = String(up.inputs["worker-code"]!.hash);
    expect(up.inputs.worker!.code).toEqual({ s3Bucket: "assets", s3Key: `${hash}.zip` });
  });

  it("plan a replace of the asset and an update of the function's code when a file changes", async () => {
    const first = await (await testProgram(app(), { mocks: allMocked })).up();
    writeFileSync(join(dir, "index.js"), "exports.handler = async () => 2;");

    const plan = await (await testProgram(app(), { mocks: allMocked, from: first.state })).preview();

    expect(plan.changes).toEqual(["replace worker-code", "update worker"]);
    expect(plan.step("worker").changed).toEqual(["code"]);
  });
});
