import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mocks, testProgram } from "cairn-iac/testing";
import { program } from "../../src/entry/program.js";
import { DBInstance } from "../../src/providers/aws/services/rds.js";
import { Bucket } from "../../src/providers/aws/services/s3.js";
import { Function as LambdaFunction } from "../../src/providers/aws/services/lambda.js";
import { local } from "../../src/providers/local/index.js";
import type { ResourceOptions } from "../../src/program/resource.js";
import { DataLossError } from "../../src/stack/data-loss.js";
import { readPlanFile, writePlanFile } from "../../src/plan/saved-plan.js";
import { stepDetails } from "../../src/cli/render/plan.js";
import { planToJson } from "../../src/cli/json/plan.js";
import { jsonStep } from "../../src/plan/steps/index.js";
import type { Plan } from "../../src/plan/plan.js";
import { deleteLoss, replaceLoss } from "../../src/plan/data-loss.js";

/** What the program declares on a run: the database's name (create-only), whether the bucket is there, options. */
interface Vars {
  dbName?: string;
  bucket?: boolean;
  db?: ResourceOptions;
  uploads?: ResourceOptions;
}

/** A database and a bucket, both stateful types of the specification. */
function shop(v: Vars) {
  return program("shop", () => {
    new DBInstance("db", { engine: "postgres", dbInstanceClass: "db.t4g.micro", allocatedStorage: "20", dbName: v.dbName ?? "shop" }, v.db);
    if (v.bucket !== false) new Bucket("uploads", {}, v.uploads);
  });
}

const cloud = () => ({ "aws:rds:DBInstance": mocks.resource(), "aws:s3:Bucket": mocks.resource() });

/** A run of `shop` whose first `up` made both objects; `v` changes what later runs declare. */
async function applied(v: Vars) {
  const run = await testProgram(shop(v), { mocks: cloud() });
  expect((await run.up()).ok).toBe(true);
  return run;
}

/** Where `shop` declares the database: `declared at tests/plan/data-loss.test.ts:<its line>:<column>)`. */
const DB_LINE = new RegExp(`declared at tests/plan/data-loss\\.test\\.ts:${readFileSync(new URL(import.meta.url), "utf8").split("\n").findIndex((l) => l.includes('new DBInstance("db"')) + 1}:\\d+\\)`);

describe("the plan marks a replace or delete of a stateful object as data loss", () => {
  it("an RDS DBInstance whose create-only dbName changes is a replace marked as data loss, saying why", async () => {
    const v: Vars = {};
    const run = await applied(v);
    v.dbName = "store";
    const plan = await run.preview();
    const step = plan.step("db", "replace");
    expect(step.replaceKeys).toEqual(["dbName"]);
    expect(step.dataLoss).toEqual({ allowed: false });
    expect(stepDetails(step.raw, plan.plan)[0]).toBe("! data loss: replaces the DBInstance because dbName changed: the old one is deleted with its data");
  });

  it("an S3 bucket removed from the program is a delete marked as data loss", async () => {
    const v: Vars = {};
    const run = await applied(v);
    v.bucket = false;
    const plan = await run.preview();
    const step = plan.step("uploads", "delete");
    expect(step.dataLoss).toEqual({ allowed: false });
    expect(stepDetails(step.raw, plan.plan)[0]).toBe("! data loss: deletes the Bucket and its data because it left the program");
  });

  it("with retainOnDelete the bucket's delete only forgets it: not data loss, and up leaves the object in the cloud", async () => {
    const v: Vars = { uploads: { retainOnDelete: true } };
    const run = await applied(v);
    v.bucket = false;
    const r = await run.up();
    const step = r.plan.step("uploads", "delete");
    expect(step.raw).toMatchObject({ retain: true });
    expect(step.dataLoss).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(r.calls.filter((c) => c.op === "delete")).toEqual([]);
    expect(Object.keys(r.resources)).toEqual(["db"]);
  });

  it("with retainOnDelete a replace keeps the old object: not data loss, and up makes the new one without deleting", async () => {
    const v: Vars = { db: { retainOnDelete: true } };
    const run = await applied(v);
    v.dbName = "store";
    const r = await run.up();
    expect(r.plan.step("db", "replace").dataLoss).toBeUndefined();
    expect(r.calls.map((c) => c.op)).toEqual(["create"]);
  });

  it("allowDataLoss: true in the program marks the replace as allowed", async () => {
    const v: Vars = { db: { allowDataLoss: true } };
    const run = await applied(v);
    v.dbName = "store";
    const plan = await run.preview();
    expect(plan.step("db", "replace").dataLoss).toEqual({ allowed: true });
    expect(stepDetails(plan.step("db").raw, plan.plan)[0]).toMatch(/^! data loss: replaces the DBInstance .*\(allowed: allowDataLoss\)$/);
  });

  it("types that are not stateful are never marked: a Lambda function, a local file", async () => {
    let path = "a.txt";
    let code = "exports.a = 1";
    const run = await testProgram(
      program("plain", () => {
        new LambdaFunction("fn", { functionName: code.length > 13 ? "fn2" : "fn", role: "arn:aws:iam::1:role/r", code: { zipFile: code } });
        new local.File("cfg", { path, content: "x" });
      }),
      { mocks: { "aws:lambda:Function": mocks.resource(), "local:File": mocks.resource() } },
    );
    await run.up();
    path = "b.txt";
    code = "exports.a = 22";
    const plan = await run.preview();
    expect(plan.steps.map((s) => [s.name, s.op, s.dataLoss])).toEqual([["fn", "replace", undefined], ["cfg", "replace", undefined]]);
  });

  it("--replace of a stateful resource is data loss too, saying --replace asks for it", async () => {
    const run = await applied({});
    const plan = await run.preview({ replace: ["db"] });
    expect(plan.step("db", "replace").dataLoss).toEqual({ allowed: false });
    expect(stepDetails(plan.step("db").raw, plan.plan)[0]).toBe("! data loss: replaces the DBInstance because --replace asks for it: the old one is deleted with its data");
    await expect(run.up({ replace: ["db"] })).rejects.toThrow(/--allow-data-loss db/);
  });

  it("a tainted object's replace, a retained object's delete and an interrupted replace's old object are not data loss", () => {
    const keep = { retainOnDelete: false, allowDataLoss: false };
    expect(replaceLoss("attributes", keep, true)).toEqual({ allowed: false });
    expect(replaceLoss("tainted", keep, true)).toBeUndefined();
    expect(replaceLoss("attributes", { ...keep, retainOnDelete: true }, true)).toBeUndefined();
    expect(replaceLoss("attributes", keep, false)).toBeUndefined();
    expect(deleteLoss({ retain: false, deposed: false }, true)).toEqual({ allowed: false });
    expect(deleteLoss({ retain: true, deposed: false }, true)).toBeUndefined();
    expect(deleteLoss({ retain: false, deposed: true }, true)).toBeUndefined();
    expect(deleteLoss({ retain: false, deposed: false }, false)).toBeUndefined();
  });

  it("destroy marks the deletes but is not refused for them: the user asked for everything to go", async () => {
    const run = await applied({});
    const r = await run.destroy();
    expect(r.ok).toBe(true);
    expect(r.plan.steps.map((s) => [s.name, s.dataLoss])).toEqual([["db", { allowed: false }], ["uploads", { allowed: false }]]);
    expect(stepDetails(r.plan.step("uploads").raw, r.plan.plan)[0]).toBe("! data loss: deletes the Bucket and its data");
  });
});

describe("up refuses a plan that loses data unless it is allowed for that resource", () => {
  it("refuses a DBInstance's replace before anything is applied, naming URN, type, the program line, why and what to do", async () => {
    const v: Vars = {};
    const run = await applied(v);
    const calls = run.calls.length;
    const versions = (await run.stack.history()).length;
    v.dbName = "store";
    const e = await run.up().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DataLossError);
    const message = (e as DataLossError).message;
    expect(message).toContain("up refused: the plan deletes a stateful object and the data in it; nothing was applied:");
    expect(message).toContain("urn:cairn:test::shop::aws:rds:DBInstance::db (aws:rds:DBInstance, declared at ");
    expect(message).toMatch(DB_LINE);
    expect(message).toContain("replaces the DBInstance because dbName changed: the old one is deleted with its data");
    expect(message).toContain("add `--allow-data-loss db` to the up command, or give each replaced resource the option `allowDataLoss: true`");
    expect(message).toContain("`retainOnDelete: true`");
    expect((e as DataLossError).urns).toEqual(["urn:cairn:test::shop::aws:rds:DBInstance::db"]);
    expect(run.calls.length).toBe(calls);
    expect((await run.stack.resources()).find((r) => r.type === "aws:rds:DBInstance")?.inputs.dbName).toBe("shop");
    expect((await run.stack.history()).length).toBe(versions);
  });

  it("refuses even when the plan is confirmed (`--yes`): confirm is never asked", async () => {
    const v: Vars = {};
    const run = await applied(v);
    v.bucket = false;
    let asked = 0;
    const e = await run.stack.up({ confirm: async () => (asked++, true) }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DataLossError);
    expect((e as Error).message).toContain("urn:cairn:test::shop::aws:s3:Bucket::uploads (aws:s3:Bucket): deletes the Bucket and its data because it left the program");
    expect((e as Error).message).toContain("if you renamed a resource, list its old name in `aliases`");
    // The program no longer declares the bucket, so no option of it can allow the loss.
    expect((e as Error).message).not.toContain("the option `allowDataLoss: true`");
    expect(asked).toBe(0);
  });

  it("lists every refused resource, and names one by URN where two share its name", async () => {
    const v: Vars = {};
    const run = await applied(v);
    v.dbName = "store";
    v.bucket = false;
    const e = (await run.up().catch((x: unknown) => x)) as DataLossError;
    expect(e.urns).toEqual(["urn:cairn:test::shop::aws:rds:DBInstance::db", "urn:cairn:test::shop::aws:s3:Bucket::uploads"]);
    expect(e.message).toContain("the plan deletes 2 stateful objects and the data in them");
    expect(e.message).toContain("`--allow-data-loss db --allow-data-loss uploads`");
  });

  it("allowDataLoss (--allow-data-loss) lets the named resource go, by name or by URN, and applies the plan", async () => {
    const v: Vars = {};
    const run = await applied(v);
    v.dbName = "store";
    v.bucket = false;
    const r = await run.up({ allowDataLoss: ["db", "urn:cairn:test::shop::aws:s3:Bucket::uploads"] });
    expect(r.ok).toBe(true);
    expect(r.calls.map((c) => `${c.op} ${c.urn.split("::").pop()}`).sort()).toEqual(["create db", "delete db", "delete uploads"]);
    expect(r.resources.db!.inputs.dbName).toBe("store");
  });

  it("allowing one resource does not allow another", async () => {
    const v: Vars = {};
    const run = await applied(v);
    v.dbName = "store";
    v.bucket = false;
    const e = (await run.up({ allowDataLoss: ["db"] }).catch((x: unknown) => x)) as DataLossError;
    expect(e.urns).toEqual(["urn:cairn:test::shop::aws:s3:Bucket::uploads"]);
  });

  it("the resource option allowDataLoss: true lets its replace go without a flag", async () => {
    const v: Vars = { db: { allowDataLoss: true } };
    const run = await applied(v);
    v.dbName = "store";
    const r = await run.up();
    expect(r.ok).toBe(true);
    expect(r.calls.map((c) => c.op)).toEqual(["create", "delete"]);
  });

  it("warns about an --allow-data-loss entry that names no data-loss step (a misspelt name)", async () => {
    const v: Vars = { db: { allowDataLoss: true } };
    const run = await applied(v);
    v.dbName = "store";
    const r = await run.up({ allowDataLoss: ["dbb"] });
    expect(r.ok).toBe(true);
    const warnings = r.events.flatMap((e) => (e.type === "diagnostic" && e.severity === "warning" ? [e.summary] : []));
    expect(warnings).toContain("--allow-data-loss dbb: no step of this plan replaces or deletes a stateful resource of that name or URN.");
  });
});

describe("the marking travels with the plan", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("a saved plan keeps it: applied later it is refused the same way unless allowed", async () => {
    const v: Vars = {};
    const run = await applied(v);
    v.dbName = "store";
    const dir = await mkdtemp(join(tmpdir(), "cairn-data-loss-"));
    dirs.push(dir);
    await writePlanFile(join(dir, "plan.json"), (await run.preview()).plan, "pw");
    const saved = await readPlanFile(join(dir, "plan.json"), "pw");
    expect(saved.steps.find((s) => s.kind === "replace")).toMatchObject({ dataLoss: { allowed: false } });
    await expect(run.stack.apply(saved)).rejects.toThrow(DataLossError);
    const r = await run.stack.apply(saved, { allowDataLoss: ["db"] });
    expect(r.summary?.ok).toBe(true);
  });

  it("--json prints it as data_loss on the step, within the documented schema", async () => {
    const v: Vars = { db: { allowDataLoss: true } };
    const run = await applied(v);
    v.dbName = "store";
    v.bucket = false;
    const plan: Plan = (await run.preview()).plan;
    const steps = planToJson(plan).steps;
    expect(steps.map((s) => [s.op, s.name, "data_loss" in s ? s.data_loss : undefined])).toEqual([
      ["replace", "db", { allowed: true }],
      ["delete", "uploads", { allowed: false }],
    ]);
    for (const s of steps) expect(jsonStep.safeParse(s).success).toBe(true);
  });
});
