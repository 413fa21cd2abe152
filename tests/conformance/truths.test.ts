import { describe, expect, it } from "vitest";
import { failures, planned, stepOf, world } from "./harness.js";
import { succeededLine } from "../../src/cli/render.js";
import { wait } from "../../src/wait/wait.js";
import type { Urn } from "../../src/core/urn.js";

const plain = (s: string | undefined) => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");

describe("conformance: the smaller truths", () => {
  it("--target naming nothing is an error, not 'up to date'", async () => {
    const { stack } = await world((Box) => void new Box("a", { name: "a" }));
    const plan = await stack.preview({ targets: ["urn:cairn:dev::conf::strict:x:Box::nope" as Urn] });
    expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: "error", summary: expect.stringMatching(/^--target urn:cairn:dev::conf::strict:x:Box::nope: no resource with this URN/) })]);
    await expect(stack.up({ targets: ["urn:x::y" as Urn] })).rejects.toThrow(/--target urn:x::y: no resource/);
  });

  it.each([
    [{ customTimeouts: { create: "abc" } }, /customTimeouts.create of Resource "a" \(strict:c\d+:Box\): invalid duration "abc"/],
    [{ customTimeouts: { create: "0s" } }, /customTimeouts.create of Resource "a" .* must be longer than zero \(got "0s"\)/],
    [{ customTimeouts: { delete: -5 } }, /customTimeouts.delete of Resource "a" .* must be longer than zero \(got -5\)/],
    [{ customTimeouts: { craete: "5m" } }, /customTimeouts has an unknown key "craete": use create, update or delete/],
    [{ ignoreChanges: "value" }, /ignoreChanges must be a list of input attribute names/],
    [{ protect: "yes" }, /protect must be true or false \(got "yes"\)/],
  ])("invalid options are refused before anything runs: %j", async (opts, message) => {
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "a" }, opts as never));
    await expect(stack.preview()).rejects.toThrow(message);
    expect(cloud.calls).toEqual([]);
  });

  it.each([
    ["0s", /interval of wait\(a\) must be longer than zero \(got "0s"\)/],
    ["-1s", /interval of wait\(a\): invalid duration "-1s"/],
    ["10ms", /interval of wait\(a\) must be at least 100ms/],
  ])("a wait interval of %s is refused when declared", async (interval, message) => {
    const { stack } = await world((Box) => {
      const a = new Box("a", { name: "a" });
      wait(a, { until: (x) => x.status.eq("READY"), interval });
    });
    await expect(stack.preview()).rejects.toThrow(message);
  });

  it("inputs that are not JSON are refused at plan time, naming the resource and attribute", async () => {
    const { cloud, stack } = await world((Box) => {
      new Box("a", { name: "a", value: new Date(0) as never });
      new Box("b", { name: "b", refs: [Number.NaN] as never });
      new Box("c", { name: "c", value: new Map() as never });
    });
    const plan = await stack.preview();
    expect(plan.diagnostics.map((d) => d.summary)).toEqual([
      expect.stringMatching(/^"a" \(strict:c\d+:Box\): input "value" is a Date: pass date.toISOString\(\)/),
      expect.stringMatching(/^"b" .*input "refs\[0\]" is NaN, which is not a finite number/),
      expect.stringMatching(/^"c" .*input "value" is a Map: pass Object.fromEntries\(map\)/),
    ]);
    await expect(stack.up()).rejects.toThrow(/3 error/);
    expect(cloud.calls).toEqual([]);
  });

  it('ignoreChanges: ["*"] ignores every change after creation', async () => {
    let value = "v1";
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "a", value }, { ignoreChanges: ["*"] }));
    await stack.up();
    value = "v2";
    expect(planned(await stack.preview())).toEqual([]);
    expect(cloud.contents()).toEqual(["box:a=v1"]);
  });

  it("removing a retainOnDelete resource forgets it (and says so); the object stays in the cloud", async () => {
    let keep = true;
    const { cloud, stack, events } = await world((Box) => void (keep && new Box("a", { name: "a" }, { retainOnDelete: true })));
    await stack.up();
    keep = false;
    const r = await stack.up();
    expect(r.summary?.done).toEqual({ forget: 1 });
    const line = plain(succeededLine(events.find((e): e is Extract<typeof e, { type: "step-succeeded" }> => e.type === "step-succeeded" && e.kind === "forget")!));
    expect(line).toMatch(/forgot \(retainOnDelete: left in the cloud\)/);
    expect(line).not.toMatch(/deleted/);
    expect(cloud.contents()).toEqual(["box:a"]);
    expect(await stack.resources()).toEqual([]);
  });

  it("destroy --target deletes the target and what depends on it, and keeps the stack outputs", async () => {
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: "a" });
      new Box("b", { name: "b", refs: [a.arn] });
      const c = new Box("c", { name: "c" });
      return { c: c.arn };
    });
    await stack.up();
    const a = (await stack.resources()).find((r) => r.urn.endsWith("::a"))!.urn;
    const r = await stack.destroy({ targets: [a] });
    expect(planned(r.plan).sort()).toEqual(["delete a", "delete b"]);
    expect(cloud.contents()).toEqual(["box:c"]);
    expect((await stack.outputs()).values).toEqual({ c: cloud.byName("c")!.attrs.arn });
  });

  it("changes of options alone reach state: protect can be set, and unset", async () => {
    let protect = true;
    let keep = true;
    const { cloud, stack } = await world((Box) => void (keep && new Box("a", { name: "a" }, { protect })));
    await stack.up();
    expect((await stack.resources())[0]).toMatchObject({ protect: true });
    protect = false;
    await stack.up();
    expect((await stack.resources())[0]!.protect).toBeUndefined();
    keep = false;
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(cloud.contents()).toEqual([]);
  });

  it("customTimeouts are recorded, so a delete after removal from the program still honours them", async () => {
    let keep = true;
    const { stack } = await world((Box) => void (keep && new Box("a", { name: "a" }, { customTimeouts: { delete: "2m" } })));
    await stack.up();
    expect((await stack.resources())[0]).toMatchObject({ timeouts: { delete: 120_000 } });
    keep = false;
    const plan = await stack.preview();
    expect(stepOf(plan, "a", "delete")).toMatchObject({ prior: { timeouts: { delete: 120_000 } } });
  });

  it("a step that fails names the resource, and only its dependents are skipped", async () => {
    const { cloud, stack, events } = await world((Box) => {
      const a = new Box("a", { name: "a" });
      new Box("b", { name: "b", refs: [a.arn] });
      new Box("c", { name: "c" });
    });
    cloud.inject("create", "a", "fail");
    const r = await stack.up();
    expect(r.summary).toMatchObject({ ok: false, succeeded: 1, failed: 1, skipped: 1 });
    expect(failures(events)).toEqual(["a: InternalFailure: create of a failed (at tests/conformance/truths.test.ts:123:17)"]);
    expect(events.find((e) => e.type === "step-skipped")).toMatchObject({ reason: expect.stringMatching(/^dependency failed: urn:.*::a$/) });
    expect(cloud.contents()).toEqual(["box:c"]);
  });
});
