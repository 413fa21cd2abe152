import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { instance } from "@viz-js/viz";
import { programIn, run } from "./harness.js";
import { DERIVED, graphProgram, SECRET } from "./graph-fixture.js";
import { formatOfFile } from "../../src/cli/graph-files.js";

/** The fixture applied once (round 1), then planned for round 2 and saved to `plan.json`. */
async function applied() {
  const { prog, dir } = await programIn("site", graphProgram);
  expect((await run(prog, ["up", "--yes"])).code).toBe(0);
  return { prog, dir };
}

describe("cairn graph", () => {
  it("prints the state's resources, their dependencies and components as valid DOT that Graphviz lays out", async () => {
    const { prog } = await applied();
    const r = await run(prog, ["graph"]);
    expect(r.code, r.stderr).toBe(0);
    for (const name of ["www-index", "www-creds", "svc", "note", "derived", "moved", "swapped", "gone"]) expect(r.stdout).toContain(`label="${name}\\n`);
    expect(r.stdout).toContain('label="www (acme:Site)"');
    expect(r.stdout).toMatch(/"urn:cairn:dev::site::local:Command::svc" -> "urn:cairn:dev::site::local:File::note"/);
    const laid = (await instance()).render(r.stdout, { format: "svg" });
    expect(laid.status, JSON.stringify(laid.errors)).toBe("success");
  });

  it("writes Mermaid, and SVG by --out's extension", async () => {
    const { prog, dir } = await applied();
    const m = await run(prog, ["graph", "--format", "mermaid"]);
    expect(m.stdout.split("\n")[0]).toBe("flowchart LR");
    expect(m.stdout).toContain('subgraph c0["www (acme:Site)"]');
    expect((await run(prog, ["graph", "--out", join(dir, "g.svg")])).code).toBe(0);
    expect(readFileSync(join(dir, "g.svg"), "utf8")).toMatch(/^<svg[\s\S]*class="node look&#45;resource"[\s\S]*<\/svg>\s*$/);
  });

  it("--target with --depth draws a resource and its neighbours only, saying how many it left out", async () => {
    const { prog, dir } = await applied();
    const r = await run(prog, ["graph", "--target", "note", "--depth", "1", "--out", join(dir, "g.dot")]);
    expect(r.stderr).toContain("Wrote 2 nodes");
    expect(r.stderr).toContain("(6 left out by the selection)");
    const dot = readFileSync(join(dir, "g.dot"), "utf8");
    expect(dot).toContain('label="note\\n');
    expect(dot).not.toContain('label="gone\\n');
  });

  it("--filter keeps the nodes whose URN contains the text", async () => {
    const { prog } = await applied();
    const r = await run(prog, ["graph", "--filter", "www-"]);
    expect((r.stdout.match(/class="look-resource"/g) ?? []).length).toBe(2);
  });

  it("refuses a target that names no resource, naming it", async () => {
    const { prog } = await applied();
    const r = await run(prog, ["graph", "--target", "nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--target "nope" names no node of the graph');
  });

  it("refuses --html without a saved plan, saying how to write a page", async () => {
    const { prog, dir } = await applied();
    const r = await run(prog, ["graph", "--html", join(dir, "p.html")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--html draws a saved plan: give it with --plan <file>");
  });

  it("draws a saved plan's steps coloured by what they do, and never a secret nor a value derived from one", async () => {
    const { prog, dir } = await applied();
    await run(prog, ["config", "set", "round", "2"]);
    const planFile = join(dir, "plan.json");
    expect((await run(prog, ["preview", "--out", planFile, "--graph", join(dir, "p.mmd")])).code).toBe(0);
    const dot = (await run(prog, ["graph", "--plan", planFile, "--unchanged"])).stdout;
    for (const look of ["update", "replace-create-first", "replace-delete-first", "delete", "wait", "same"]) expect(dot, look).toContain(`class="look-${look}"`);
    const mermaid = readFileSync(join(dir, "p.mmd"), "utf8");
    expect(mermaid).toContain("class n0 update");
    for (const text of [dot, mermaid, (await run(prog, ["graph", "--plan", planFile, "--format", "svg"])).stdout]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(DERIVED);
    }
  });
});

describe("the graph's file formats", () => {
  it("are named by the file's extension", () => {
    expect(["a.svg", "a.mmd", "a.mermaid", "a.dot", "a.gv", "a.txt"].map(formatOfFile)).toEqual(["svg", "mermaid", "mermaid", "dot", "dot", undefined]);
  });
});
