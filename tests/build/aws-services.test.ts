import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { init, parse } from "es-module-lexer";
import { Project } from "ts-morph";

// `npm test` builds dist before vitest runs.
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Every file a built module loads statically (its own static imports, followed), as dist-relative paths. */
async function staticClosure(entry: string): Promise<{ files: Set<string>; packages: Set<string> }> {
  await init;
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [resolve(DIST, entry)];
  while (todo.length) {
    const file = todo.pop()!;
    const rel = file.slice(DIST.length);
    if (files.has(rel)) continue;
    files.add(rel);
    const [imports] = parse(readFileSync(file, "utf8"));
    for (const i of imports) {
      if (i.d !== -1 || !i.n) continue; // static imports only
      if (i.n.startsWith(".")) todo.push(resolve(dirname(file), i.n));
      else packages.add(i.n);
    }
  }
  return { files, packages };
}

describe("the AWS service modules (cairn-iac/aws/<service>)", () => {
  it("importing one service loads only its own module and the shared runtime: no other service, no ACM or Route 53 client", async () => {
    const { files, packages } = await staticClosure("providers/aws/services/sqs.js");
    expect([...files].filter((f) => f.startsWith("providers/"))).toEqual(["providers/aws/services/sqs.js"]);
    expect([...packages].filter((p) => p.startsWith("@aws-sdk/"))).toEqual([]);
    const services = readdirSync(join(DIST, "providers/aws/services")).filter((f) => f.endsWith(".js"));
    expect(services.length).toBeGreaterThan(300);
  });

  it('import "cairn-iac" loads none of them', async () => {
    const { files } = await staticClosure("index.js");
    expect([...files].filter((f) => f.includes("services/"))).toEqual([]);
  });

  // Runs the TypeScript compiler over the program: 15 s on a 2-core machine running the whole suite.
  it("a program using six services type-checks, and a wrong property or value type is a compile error naming it", { timeout: 90_000 }, () => {
    const project = new Project({ tsConfigFilePath: join(REPO, "tsconfig.json"), skipAddingFilesFromTsConfig: true });
    const program = (body: string) =>
      project.createSourceFile(
        join(REPO, `tests/build/six-services-${Math.random().toString(36).slice(2)}.ts`),
        `import { program, wait } from "cairn-iac";
import { Bucket } from "cairn-iac/aws/s3";
import { Role } from "cairn-iac/aws/iam";
import { Function as LambdaFunction } from "cairn-iac/aws/lambda";
import { Queue } from "cairn-iac/aws/sqs";
import { DBInstance } from "cairn-iac/aws/rds";
import { Instance } from "cairn-iac/aws/ec2";
export default program("six", () => {
  const role = new Role("r", { assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] } });
  const bucket = new Bucket("b", { versioningConfiguration: { status: "Enabled" } });
  new LambdaFunction("f", { role: role.arn, code: { s3Bucket: bucket.bucketName, s3Key: "f.zip" } });
  new Queue("q", { visibilityTimeout: 30 });
  const db = new DBInstance("db", { engine: "postgres", dbInstanceClass: "db.t4g.micro" });
  wait(db, { until: (d) => d.dbInstanceStatus.eq("available") });
  const vm = new Instance("vm", { imageId: "ami-1" });
  wait(vm, { until: (v) => v.state.name.eq("running") });
  ${body}
});
`,
        { overwrite: true },
      );
    const errors = (body: string) => program(body).getPreEmitDiagnostics().map((d) => String(d.getMessageText() instanceof Object ? (d.getMessageText() as { getMessageText(): string }).getMessageText() : d.getMessageText()));
    expect(errors("")).toEqual([]);
    expect(errors('new Queue("q2", { visibilityTimout: 30 });').join("\n")).toMatch(/visibilityTimout/);
    expect(errors('new Queue("q3", { visibilityTimeout: "30" });').join("\n")).toMatch(/string.*number|number/);
    expect(errors('const v = new Instance("v2", {}); wait(v, { until: (x) => x.state.name.eq("runing") });').join("\n")).toMatch(/runing/);
  });
});

describe("the package", () => {
  it("unpacks to at most half of @pulumi/aws-native 1.79.0 (56.9 MB, 14,373 files) while holding every AWS type", async () => {
    const { execFileSync } = await import("node:child_process");
    const [pack] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { unpackedSize: number; entryCount: number }[];
    expect(pack!.unpackedSize).toBeLessThanOrEqual(56_900_000 / 2);
    expect(pack!.entryCount).toBeLessThanOrEqual(14_373 / 2);
  });
});
