// The runtimes Cairn runs on, each started for real: a Node that strips types loads programs itself (and
// hands those it cannot strip to tsx, saying why), the oldest supported Node uses tsx, and an older Node is
// refused with one line. The runtimes come from scripts/node-versions.json, installed into the cache when
// missing: these tests fail, never skip, when one cannot be had.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, finish, tempProject, type Run } from "./cli-harness.js";
import { PINS, pinnedNode, strippingNode } from "../../scripts/node-runtimes.js";
import { MINIMUM_NODE } from "../../src/core/node-support.js";

const BIN = join(REPO, "dist/cli/bin.js");

/** `<node> <args>` in `dir`, as `npx cairn` runs the bin: no loader flags, no NODE_OPTIONS. */
function run(node: string, dir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean = { ...process.env };
  delete clean.NODE_OPTIONS;
  delete clean.NODE_COMPILE_CACHE; // the bin's own choice of cache folder is what is tested
  return finish(spawn(node, args, { cwd: dir, env: { ...clean, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] }));
}

const PROGRAM = (extra = "", content = '"hello"') => `import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
${extra}
export default program("runtimes", () => {
  const f = new local.File("f", { path: "out/f.txt", content: ${content} });
  return { size: f.size };
});
`;

describe("a Node that strips TypeScript types itself (22.18+, 24)", () => {
  it("npx cairn loads infra.ts with no loader, and applies it", async () => {
    const dir = await tempProject({ "infra.ts": PROGRAM() });

    const r = await run(strippingNode(), dir, [BIN, "infra.ts", "up", "--yes"], { CAIRN_DEBUG: "1" });

    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^debug: infra\.ts loaded by Node's own type stripping on Node 2\d\./m);
    expect(r.stderr).not.toContain("note:");
    expect(r.stdout).toContain("Done: 1 created in");
  });

  it("npx cairn keeps compiled code in Node's compile cache (in the temporary folder), unless NODE_DISABLE_COMPILE_CACHE is set", async () => {
    const dir = await tempProject({ "infra.ts": PROGRAM() });
    const tmp = await mkdtemp(join(tmpdir(), "cairn-ccache-"));
    const off = await mkdtemp(join(tmpdir(), "cairn-ccache-off-"));
    try {
      const r = await run(strippingNode(), dir, [BIN, "infra.ts", "preview"], { TMPDIR: tmp });
      expect(r.code, r.stderr).toBe(0);
      const cached = await readdir(join(tmp, "node-compile-cache"), { recursive: true });
      expect(cached.length).toBeGreaterThan(0);

      const r2 = await run(strippingNode(), dir, [BIN, "infra.ts", "preview"], { TMPDIR: off, NODE_DISABLE_COMPILE_CACHE: "1" });
      expect(r2.code, r2.stderr).toBe(0);
      expect(await readdir(off)).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
      await rm(off, { recursive: true, force: true });
    }
  });

  it("npx cairn hands a program with an enum in a module it imports to tsx, with one note naming file and line", async () => {
    const dir = await tempProject({ "colors.ts": "// the palette\nexport enum Color { Red = \"red\" }\n", "infra.ts": PROGRAM('import { Color } from "./colors.ts";', "Color.Red") });

    const r = await run(strippingNode(), dir, [BIN, "infra.ts", "up", "--yes"], { CAIRN_DEBUG: "1" });

    expect(r.code, r.stderr).toBe(0);
    const notes = r.stderr.split("\n").filter((l) => l.startsWith("note:"));
    expect(notes).toEqual([
      'note: colors.ts uses TypeScript syntax Node cannot strip (enum at line 2); loading infra.ts with tsx instead — use only erasable syntax (tsconfig "erasableSyntaxOnly": true) to start faster.',
    ]);
    expect(r.stderr).toMatch(/^debug: infra\.ts loaded by tsx's loader/m);
    expect(await readFile(join(dir, "out/f.txt"), "utf8")).toBe("red");
  });

  it("npx cairn hands a program importing ./lib.js (for lib.ts) to tsx, saying which import to change", async () => {
    const dir = await tempProject({ "lib.ts": 'export const greeting: string = "from lib";\n', "infra.ts": PROGRAM('import { greeting } from "./lib.js";', "greeting") });

    const r = await run(strippingNode(), dir, [BIN, "infra.ts", "up", "--yes"]);

    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('note: infra.ts imports lib.js, which is lib.ts: Node loads only the file an import names; loading it with tsx instead — import "./lib.ts"');
    expect(await readFile(join(dir, "out/f.txt"), "utf8")).toBe("from lib");
  });

  it("node infra.ts runs the program's command line, and its hints say node infra.ts", async () => {
    const dir = await tempProject({ "infra.ts": PROGRAM() });

    const help = await run(strippingNode(), dir, ["infra.ts", "--help"]);
    const up = await run(strippingNode(), dir, ["infra.ts", "up", "--yes"]);

    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("Usage: node infra.ts [options] [command]");
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain("Done: 1 created in");
  });
});

describe("the examples, run by Node itself (they use only erasable TypeScript)", () => {
  // Every example with a program that plans offline; acm-certificate looks its zone up in AWS.
  it.each(["quickstart", "wait", "embedded-service"])("node examples/%s/infra.ts preview plans it", async (example) => {
    // State in a folder of its own (the CLI refuses memory://), so the examples' folders stay untouched.
    const stateDir = await mkdtemp(join(tmpdir(), "cairn-example-state-"));
    const r = await run(strippingNode(), join(REPO, "examples", example), ["infra.ts", "preview"], { CAIRN_STATE_DIR: stateDir }).finally(() => rm(stateDir, { recursive: true, force: true }));

    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Plan: \d+ to create/m);
  });
});

describe(`the oldest supported Node (${MINIMUM_NODE})`, () => {
  it("npx cairn loads TypeScript with tsx's loader, with no note, and import \"cairn\" works", async () => {
    const node = pinnedNode(PINS.minimum);
    const dir = await tempProject({ "infra.ts": PROGRAM(), "use.mjs": 'import { program } from "cairn-iac"; console.log(typeof program);\n' });

    const r = await run(node, dir, [BIN, "infra.ts", "preview"], { CAIRN_DEBUG: "1" });
    const imported = await run(node, dir, ["use.mjs"]);

    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`debug: infra.ts loaded by tsx's loader on Node ${MINIMUM_NODE}`);
    expect(r.stdout).toContain("Plan: 1 to create.");
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trim()).toBe("function");
  });
});

describe("a Node older than Cairn supports", () => {
  it("the bin and import \"cairn\" each print one line saying what to install, and exit 1 with no stack trace", async () => {
    const node = pinnedNode(PINS.unsupported);
    const version = PINS.versions[PINS.unsupported]!;
    const dir = await tempProject({ "infra.ts": PROGRAM(), "use.mjs": 'import "cairn-iac";\nconsole.log("ran on");\n' });

    const bin = await run(node, dir, [BIN, "infra.ts", "preview"]);
    const imported = await run(node, dir, ["use.mjs"]);

    for (const r of [bin, imported]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`error: Cairn needs Node.js ${MINIMUM_NODE} or newer, and ${node} is ${version}. Install Node.js 22 or 24 (LTS) — for example \`nvm install 24\`, or from https://nodejs.org — and run again with it first on PATH.\n`);
    }
  });
});

describe("one minimum Node version", () => {
  it("package.json engines, the check in src/node-support.ts and scripts/node-versions.json agree", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as { engines: { node: string } };

    expect(pkg.engines.node).toBe(`>=${PINS.minimum}`);
    expect(PINS.versions[PINS.minimum]).toBe(MINIMUM_NODE);
  });
});
