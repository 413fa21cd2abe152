import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO, cli, planEvent, tempProject } from "./cli-harness.js";

describe("wait through the CLI (examples/wait)", () => {
  it("plans a `>` line, shows the wait live, gates the downstream file, and is not needed once settled", async () => {
    const dir = await tempProject({ "infra.ts": await readFile(join(REPO, "examples/wait/infra.ts"), "utf8") });
    let r = await cli(dir, ["config", "set", "runFor", "2"]);
    expect(r.code, r.stderr).toBe(0);

    r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toContain('> built (until build.status == "SUCCEEDED")');
    expect(out).toContain('fails at once when build.status == "FAILED"');
    expect(out).toContain("runs because build is created");
    expect(out).toContain("Plan: 2 to create, 1 wait.");
    // Live progress (one line per change of the observed values in a log), then the end line.
    expect(out).toMatch(/> built {2}waiting 0s {2}\(status = "RUNNING"\)/);
    expect(out).toMatch(/✓ > built {2}\[waited [23]s\] {2}\(status = "SUCCEEDED"\)/);
    // The file was created after the wait, from the gated value.
    expect(out.indexOf("✓ > built")).toBeLessThan(out.indexOf("created urn:cairn:dev::jobs::local:File::report"));
    expect(await readFile(join(dir, "out/report.txt"), "utf8")).toBe("build: 42 widgets\n");
    expect(out).toContain('result: "build: 42 widgets"');
    // Waits never reach the state file.
    expect(await readFile(join(dir, ".cairn/stacks/dev/state.json"), "utf8")).not.toContain("cairn:wait");

    r = await cli(dir, ["preview", "--expect-no-changes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('> built (until build.status == "SUCCEEDED")  not needed');

    r = await cli(dir, ["preview", "--json"]);
    expect(planEvent(r.stdout).steps.filter((s) => s.op === "wait")).toMatchObject([{ urn: "urn:cairn:dev::jobs::cairn:wait::built", name: "built", ready_now: true, needed: false }]);

    r = await cli(dir, ["up", "--yes", "--json"]);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type.startsWith("wait-"))).toEqual([]); // a no-op up makes no wait reads

    r = await cli(dir, ["destroy", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("a wait that fails ends the run with its message and exit code 1, keeping what was created", async () => {
    const source = (await readFile(join(REPO, "examples/wait/infra.ts"), "utf8")).replace('status: "SUCCEEDED", result', 'status: "FAILED", result').replace('?? 3', '?? 1');
    const dir = await tempProject({ "infra.ts": source });
    const r = await cli(dir, ["up", "--yes", "--json"]);
    expect(r.code).toBe(1);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; message?: string; outcome?: { kind: string } });
    const ended = events.find((e) => e.type === "wait-ended")!;
    expect(ended.outcome?.kind).toBe("failed");
    expect(ended.message).toMatch(/^wait "built" failed after \ds: build\.status == "FAILED" \(status = "FAILED"\)/);
    expect(events.find((e) => e.type === "step-skipped")).toMatchObject({ urn: "urn:cairn:dev::jobs::local:File::report" });
    const list = await cli(dir, ["state", "list"]);
    expect(list.stdout).toContain("urn:cairn:dev::jobs::demo:Job::build");
  });
});
