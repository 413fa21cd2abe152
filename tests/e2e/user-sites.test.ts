import { describe, expect, it } from "vitest";
import { cli, finish, startBin, tempProject, type Run } from "./cli-harness.js";

// Mistakes a user makes while the program declares its resources, run as a user meets them: a real program
// file through the built CLI (`npx cairn infra.ts preview`, and `npx tsx infra.ts preview` where the program
// file is the process's entry). Each is one message at the user's file:line, with no frame of Cairn's code
// (`npm run build` first).

/** `npx cairn infra.ts <args>` in `dir`, to its end. */
const bin = (dir: string, args: string[], env: Record<string, string> = {}): Promise<Run> => finish(startBin(dir, args, env));

/** One message, no stack trace, nothing of Cairn's own files (dist/ or src/). */
function expectOneMessage(r: Run): void {
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?/);
  expect(r.stderr).not.toMatch(/(^|[\s(/])(dist|src)\/\S*\.(js|ts)/);
}

/** A program file: the lines given, numbered from 1 as in the file. */
const file = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("a missing import of a Cairn class named like a JavaScript global", () => {
  const program = file(
    `import { program } from "cairn-iac";`, // 1
    ``, // 2
    `export default program("app", () => {`, // 3
    `  // the user forgot: import { Function } from "cairn-iac/aws/lambda"`, // 4
    `  const role = "arn:aws:iam::123456789012:role/r";`, // 5
    `  new Function("fn", { role, runtime: "nodejs20.x", handler: "index.handler", code: { zipFile: "x" } });`, // 6
    `});`,
  );

  it.each([["npx cairn", bin], ["npx tsx", cli]])("new Function(...) without its import says it is JavaScript's global Function, at the user's line (%s)", async (_how, run) => {
    const dir = await tempProject({ "infra.ts": program });
    const r = await run(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: Function here is JavaScript's global Function: import it from cairn-iac\/aws\/lambda/);
    expect(r.stderr).toMatch(/--> infra\.ts:6:3\n/);
  });

  it("new Map(...) without its import names cairn-iac/aws/location, at the user's line", async () => {
    const dir = await tempProject({
      "infra.ts": file(`import { program } from "cairn-iac";`, `export default program("app", () => {`, `  new Map("tiles", { configuration: { style: "VectorEsriStreets" } });`, `});`),
    });
    const r = await bin(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: Map here is JavaScript's global Map: import it from cairn-iac\/aws\/location/);
    expect(r.stderr).toMatch(/--> infra\.ts:3:3\n/);
  });
});

describe("a resource declared at a module's top level", () => {
  const program = file(
    `import { program } from "cairn-iac";`,
    `import { local } from "cairn-iac/local";`,
    ``,
    `const early = new local.File("early", { path: "out/a.txt", content: "a" });`, // 4
    ``,
    `export default program("app", () => ({ path: early.path }));`,
  );

  it.each([["npx cairn", bin], ["npx tsx", cli]])("is refused at its line, saying to move it into the program function (%s)", async (_how, run) => {
    const dir = await tempProject({ "infra.ts": program });
    const r = await run(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: Resource "early" \(local:File\) was declared outside a program/);
    expect(r.stderr).toMatch(/--> infra\.ts:4:15\n/);
    expect(r.stderr).toMatch(/Move it into the function given to program\(name, fn\)/);
  });
});

describe("two resources with one name", () => {
  it("names the second one's line and the first one's", async () => {
    const dir = await tempProject({
      "infra.ts": file(
        `import { program } from "cairn-iac";`,
        `import { local } from "cairn-iac/local";`,
        `export default program("app", () => {`,
        `  new local.File("cfg", { path: "out/a.txt", content: "a" });`, // 4
        ``,
        `  new local.File("cfg", { path: "out/b.txt", content: "b" });`, // 6
        `});`,
      ),
    });
    const r = await bin(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: Duplicate resource URN \S+::local:File::cfg: resource "cfg" \(local:File\) and resource "cfg" \(local:File\) have the same type and name\.\n  --> infra\.ts:6:3\nThe first is declared at infra\.ts:4:3\. Give one of them a different name\./);
  });
});

describe("a wait on a misspelt attribute", () => {
  it("says which attribute was meant, at the wait's line, instead of listing them all", async () => {
    const dir = await tempProject({
      "infra.ts": file(
        `import { program, wait } from "cairn-iac";`,
        `import { local } from "cairn-iac/local";`,
        `export default program("app", () => {`,
        `  const f = new local.File("cfg", { path: "out/a.txt", content: "a" });`,
        `  const ready = wait(f, { until: (c) => c.contnet.eq("a") });`, // 5
        `  return { size: ready.size };`,
        `});`,
      ),
    });
    const r = await bin(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: until of wait\(cfg\) reads "contnet", which is not an attribute of local:File\.\n  --> infra\.ts:5:17\nDid you mean "content"\?/);
    expect(r.stderr).not.toMatch(/sha256/); // the other attributes are not listed
  });
});

describe("an import of a module Cairn does not have", () => {
  const program = (specifier: string) =>
    file(`import { program } from "cairn-iac";`, `import * as s3 from "${specifier}";`, `export default program("app", () => {`, `  new s3.Bucket("b", {});`, `});`);

  it.each([
    ["cairn-iac/aws/S3", /infra\.ts imports "cairn-iac\/aws\/S3", which Cairn does not have\.\n  --> infra\.ts:2:21\nDid you mean "cairn-iac\/aws\/s3"\?/],
    ["cairn-iac/lokal", /infra\.ts imports "cairn-iac\/lokal", which Cairn does not have\.\n  --> infra\.ts:2:21\nDid you mean "cairn-iac\/local"\?/],
    ["cairn-iac/aws/nosuchservice", /infra\.ts imports "cairn-iac\/aws\/nosuchservice", which Cairn does not have\.\n  --> infra\.ts:2:21\nCairn's modules are cairn-iac, /],
    ["cairn/aws/s3", /infra\.ts imports "cairn\/aws\/s3", which is not installed\.\n  --> infra\.ts:2:21\nCairn's package is cairn-iac: import "cairn-iac\/aws\/s3"\./],
  ])("%s is one message at the import's line, with what was meant", async (specifier, message) => {
    const dir = await tempProject({ "infra.ts": program(specifier) });
    const r = await bin(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|ERR_PACKAGE_PATH_NOT_EXPORTED|node_modules/);
  });
});

describe("a throw inside an apply() callback", () => {
  it("names the resource whose input it feeds and the apply()'s line", async () => {
    const dir = await tempProject({
      "infra.ts": file(
        `import { program } from "cairn-iac";`,
        `import { local } from "cairn-iac/local";`,
        `export default program("app", () => {`,
        `  const a = new local.File("a", { path: "out/a.txt", content: "a" });`,
        `  const zone = a.path.apply((p) => {`, // 5
        `    throw new Error("no zone for " + p);`,
        `  });`,
        `  new local.File("b", { path: "out/b.txt", content: zone });`, // 8
        `});`,
      ),
    });
    const r = await bin(dir, ["preview"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/Planning "b" \(local:File\) failed: no zone for out\/a\.txt \(thrown by the apply\(\) callback at infra\.ts:5:23 on a\.path\)\n {2}--> infra\.ts:8:3\n/);
    expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?/);
  });
});

describe("a stack output that refers to itself", () => {
  it("names the output's path and the program's line, not a stack overflow", async () => {
    const dir = await tempProject({
      "infra.ts": file(
        `import { program } from "cairn-iac";`,
        `export default program("app", () => {`, // 2
        `  const o: Record<string, unknown> = { a: 1 };`,
        `  o.self = o;`,
        `  return { o };`,
        `});`,
      ),
    });
    const r = await bin(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: The program's stack output "o\.self" refers back to "o" \(a cyclic object\)\.\n  --> infra\.ts:2:16\n/);
    expect(r.stderr).not.toMatch(/Maximum call stack/);
  });
});

describe("a project or stack name with a space", () => {
  it("a program name from $PROJECT says what is allowed, the program() line and the variable", async () => {
    const dir = await tempProject({ "infra.ts": file(`import { program } from "cairn-iac";`, `export default program(process.env.PROJECT as string, () => {});`) });
    const r = await bin(dir, ["preview"], { PROJECT: "has space" });
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: Invalid program name "has space": a program's name may use only letters, digits, "\.", "_" and "-"\.\n  --> infra\.ts:2:16\n.*It is the value of \$PROJECT in the environment\./);
  });

  it("a stack name from $CAIRN_STACK says so, and what is allowed", async () => {
    const dir = await tempProject({ "infra.ts": file(`import { program } from "cairn-iac";`, `export default program("app", () => {});`) });
    const r = await bin(dir, ["preview"], { CAIRN_STACK: "has space" });
    expectOneMessage(r);
    expect(r.stderr).toMatch(/error: Invalid stack name "has space" \(from \$CAIRN_STACK in the environment\)\.\nA stack name may use 1-100 letters, digits/);
  });
});

describe("a misspelt option", () => {
  it.each([
    ["a resource's", `  new local.File("cfg", { path: "out/a.txt", content: "a" }, { dependOn: [] });`, /error: Resource "cfg" \(local:File\) has the option "dependOn", which resources do not take\.\n  --> infra\.ts:4:3\nDid you mean "dependsOn"\?/],
    ["a wait's", `  wait(new local.File("cfg", { path: "out/a.txt", content: "a" }), { untill: (c) => c.size.gt(0) });`, /error: wait\(cfg, \.\.\.\) has the option "untill", which wait does not take\.\n  --> infra\.ts:4:3\nDid you mean "until"\?/],
  ])("%s is named at its line, with the one meant", async (_what, line, message) => {
    const dir = await tempProject({
      "infra.ts": file(`import { program, wait } from "cairn-iac";`, `import { local } from "cairn-iac/local";`, `export default program("app", () => {`, line, `});`),
    });
    const r = await bin(dir, ["preview"]);
    expectOneMessage(r);
    expect(r.stderr).toMatch(message);
  });
});
