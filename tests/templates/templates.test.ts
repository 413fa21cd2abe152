// Every template, as a new user gets it: `cairn new` into a temp folder, this repository linked as the `cairn`
// package, then the template's own unit tests, its type check, and its preview, each in its own process.
import { afterAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { fakeRoute53 } from "./fake-route53.js";
import { serveFakeCloudControl } from "../../src/testing/cloudcontrol/fake-server.js";
import { strippingNode } from "../../scripts/node-runtimes.js";

const REPO = resolve(import.meta.dirname, "../..");
const bin = (pkg: string, file: string) => join(REPO, "node_modules", pkg, file);
const made: string[] = [];
/** The templates the tests below scaffold and run, each in its own test. */
const TESTED = ["quickstart", "acm-certificate", "serverless"];
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

interface Result {
  code: number;
  out: string;
}

/** How `cairn new` says to run a program on the Node running these tests. */
const RUNNER = (process.features as { typescript?: string | false }).typescript ? "node" : "npx tsx";

/** Runs `node <args>` (this Node, or `opts.node`) in `cwd` with a clean, offline environment. */
function node(args: string[], cwd: string, env: Record<string, string> = {}, opts: { node?: string } = {}): Promise<Result> {
  return run(opts.node ?? process.execPath, args, cwd, env);
}

/** Runs `command <args>` in `cwd` with a clean, offline environment. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((res) => {
    execFile(
      command,
      args,
      { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1", CI: "true", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", ...env }, timeout: 120_000 },
      (err, stdout, stderr) => res({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: stdout + stderr }),
    );
  });
}

/** `cairn new <template> <name>` in a fresh folder, with the repository and its test tools linked in. */
async function scaffold(template: string): Promise<{ dir: string; created: Result }> {
  const parent = await mkdtemp(join(tmpdir(), "cairn-template-"));
  made.push(parent);
  const created = await node([join(REPO, "dist/cli/bin.js"), "new", template, "my-app"], parent);
  const dir = join(parent, "my-app");
  await mkdir(join(dir, "node_modules", "@types"), { recursive: true });
  await symlink(REPO, join(dir, "node_modules", "cairn-iac"), "dir");
  // The bin, as npm links it: `npm run preview` runs `cairn infra.ts preview`.
  await mkdir(join(dir, "node_modules", ".bin"));
  await chmod(join(REPO, "dist/cli/bin.js"), 0o755);
  await symlink("../cairn-iac/dist/cli/bin.js", join(dir, "node_modules", ".bin", "cairn"));
  for (const pkg of ["vitest", "tsx", "typescript", "@types/node"]) await symlink(join(REPO, "node_modules", pkg), join(dir, "node_modules", pkg), "dir");
  return { dir, created };
}

async function allText(dir: string): Promise<string> {
  let text = "";
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && !e.parentPath.includes("node_modules")) text += await readFile(join(e.parentPath, e.name), "utf8");
  }
  return text;
}

describe("every example and template carries its own tests, and npm test runs them", () => {
  it("each folder of examples/ has a test file (vitest runs examples/**/*.test.ts)", async () => {
    const examples = (await readdir(join(REPO, "examples"), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const untested = [];
    for (const e of examples) if (!(await readdir(join(REPO, "examples", e))).some((f) => f.endsWith(".test.ts"))) untested.push(e);

    expect(examples.length).toBeGreaterThanOrEqual(4);
    expect(untested).toEqual([]);
  });

  it("each template has the files a project needs, and is scaffolded and run below", async () => {
    const templates = (await readdir(join(REPO, "templates"), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();

    expect(templates).toEqual(TESTED.slice().sort());
    for (const t of templates) {
      const files = await readdir(join(REPO, "templates", t));
      expect(files, t).toEqual(expect.arrayContaining(["package.json", "tsconfig.json", "infra.ts", "infra.test.ts", "README.md", "gitignore", "template.json"]));
    }
  });

  it("templates and examples are configured so that the same files run under node, tsx and tsc", async () => {
    for (const config of [...TESTED.map((t) => `templates/${t}/tsconfig.json`), "examples/tsconfig.json"]) {
      const text = await readFile(join(REPO, config), "utf8");
      for (const setting of ["erasableSyntaxOnly", "verbatimModuleSyntax", "rewriteRelativeImportExtensions"]) expect(text, config).toContain(`"${setting}": true`);
    }
  });

  it("the examples type-check as a user's project: erasable syntax only, cairn from the built package", async () => {
    const types = await node([bin("typescript", "bin/tsc"), "-p", "examples/tsconfig.json"], REPO);

    expect(types.code, types.out).toBe(0);
  });
});

// A scaffolded project runs its own vitest, tsc and a preview as child processes: tens of seconds on a
// loaded 2-core machine (a full suite beside it), more than the 30 s default of a unit test.
const SCAFFOLD_TIMEOUT = 120_000;

describe("templates, scaffolded with cairn new", () => {
  it("lists the templates when none is named", async () => {
    const r = await node([join(REPO, "dist/cli/bin.js"), "new"], tmpdir());

    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^ {2}acm-certificate {2,}AWS: /m);
    expect(r.out).toMatch(/^ {2}quickstart {2,}offline: /m);
  });

  it("refuses an unknown template, naming the ones there are, and a folder that is not empty", async () => {
    const parent = await mkdtemp(join(tmpdir(), "cairn-template-"));
    made.push(parent);

    const unknown = await node([join(REPO, "dist/cli/bin.js"), "new", "nope"], parent);
    await mkdir(join(parent, "taken"));
    await node([join(REPO, "dist/cli/bin.js"), "new", "quickstart", "taken"], parent);
    const taken = await node([join(REPO, "dist/cli/bin.js"), "new", "quickstart", "taken"], parent);

    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain('There is no template "nope". Templates: acm-certificate (');
    expect(taken.code).toBe(2);
    expect(taken.out).toContain("taken is not empty: choose a new folder, or empty this one.");
  });

  it("quickstart: fills in the name, prints the next commands; its tests, type check and preview pass", async () => {
    const { dir, created } = await scaffold("quickstart");

    expect(created.code, created.out).toBe(0);
    expect(created.out).toContain("Created my-app in my-app from the quickstart template");
    expect(created.out).toMatch(new RegExp(`Next:\n {2}cd my-app\n {2}npm install\n {2}npm test +# its unit tests.*\n {2}${RUNNER} infra.ts preview +# what up would do`));
    expect(JSON.parse(await readFile(join(dir, "package.json"), "utf8"))).toMatchObject({ name: "my-app", dependencies: { "cairn-iac": `file:${relative(dir, REPO).split(sep).join("/")}` } });
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toContain(".cairn/");
    expect(await allText(dir)).not.toContain("{{");

    const tests = await node([bin("vitest", "vitest.mjs"), "run"], dir);
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toMatch(/Tests\s+4 passed/);
    const types = await node([bin("typescript", "bin/tsc"), "-p", "tsconfig.json"], dir);
    expect(types.code, types.out).toBe(0);
    const preview = await node([bin("tsx", "dist/cli.mjs"), "infra.ts", "preview"], dir);
    expect(preview.code, preview.out).toBe(0);
    expect(preview.out).toContain("urn:cairn:dev::my-app::local:Command::server");
    expect(preview.out).toContain("Plan: 2 to create, 1 wait.");

    // Node itself (22.18+ strips the types), and the package.json script, which runs the cairn bin.
    const stripped = await node(["infra.ts", "preview"], dir, {}, { node: strippingNode() });
    expect(stripped.code, stripped.out).toBe(0);
    expect(stripped.out).toContain("Plan: 2 to create, 1 wait.");
    const script = await run("npm", ["run", "--silent", "preview"], dir);
    expect(script.code, script.out).toBe(0);
    expect(script.out).toContain("Plan: 2 to create, 1 wait.");
  }, SCAFFOLD_TIMEOUT);

  it("acm-certificate: its tests and type check pass, and its preview plans against a Route 53 endpoint", async () => {
    const { dir, created } = await scaffold("acm-certificate");
    expect(created.code, created.out).toBe(0);
    expect(created.out).toContain(`${RUNNER} infra.ts config set zone <your Route 53 zone>`);

    const tests = await node([bin("vitest", "vitest.mjs"), "run"], dir);
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toMatch(/Tests\s+4 passed/);
    const types = await node([bin("typescript", "bin/tsc"), "-p", "tsconfig.json"], dir);
    expect(types.code, types.out).toBe(0);

    const route53 = await fakeRoute53({ id: "Z0FAKE", name: "example.dev" });
    try {
      const aws = { AWS_ENDPOINT_URL: route53.url, AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test", AWS_REGION: "us-east-1", AWS_EC2_METADATA_DISABLED: "true" };
      const preview = await node([bin("tsx", "dist/cli.mjs"), "infra.ts", "preview"], dir, aws);
      expect(preview.code, preview.out).toBe(0);
      expect(preview.out).toContain("urn:cairn:dev::my-app::aws:acm:Certificate::cert");
      expect(preview.out).toContain("Plan: 4 to create, 1 to read, 1 wait.");
      expect(route53.requests).toEqual(["GET /2013-04-01/hostedzonesbyname", "GET /2013-04-01/hostedzone/Z0FAKE"]);
    } finally {
      await route53.close();
    }
  }, SCAFFOLD_TIMEOUT);

  it("serverless: its tests (against the fake Cloud Control) and type check pass, and its preview plans seven AWS objects (the function's code from a folder)", async () => {
    const { dir, created } = await scaffold("serverless");
    expect(created.code, created.out).toBe(0);

    const tests = await node([bin("vitest", "vitest.mjs"), "run"], dir);
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toMatch(/Tests\s+2 passed/);
    const types = await node([bin("typescript", "bin/tsc"), "-p", "tsconfig.json"], dir);
    expect(types.code, types.out).toBe(0);

    const fake = await serveFakeCloudControl();
    try {
      const preview = await node([bin("tsx", "dist/cli.mjs"), "infra.ts", "preview"], dir, { ...fake.env, AWS_EC2_METADATA_DISABLED: "true" });
      expect(preview.code, preview.out).toBe(0);
      expect(preview.out).toContain("urn:cairn:dev::my-app::aws:lambda:Function::worker");
      expect(preview.out).toContain("urn:cairn:dev::my-app::aws:assets:Zip::worker-code");
      expect(preview.out).toContain("Plan: 7 to create.");
      expect(fake.cloud.calls).toEqual([]);
    } finally {
      await fake.stop();
    }
  }, SCAFFOLD_TIMEOUT);
});
