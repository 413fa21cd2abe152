import { describe, expect, it } from "vitest";
import { planned, stepOf, world } from "./harness.js";
import { renderPlan } from "../../src/cli/render.js";
import { hasChanges } from "../../src/plan/plan.js";

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("conformance: drift is seen and reverted", () => {
  it("refresh records what the cloud holds; the next up puts the program's value back", async () => {
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "a", value: "v1" }));
    await stack.up();
    cloud.tamper("a", { value: "DRIFTED" });
    const found = await stack.refresh({ confirm: async () => true });
    expect(found).toMatchObject({ applied: true, changes: [{ kind: "drift", changed: ["value"] }] });
    const plan = await stack.preview();
    expect(planned(plan)).toEqual(["update a"]);
    expect(stepOf(plan, "a", "update")).toMatchObject({ olds: { value: "DRIFTED" }, news: { value: "v1" }, drift: ["value"] });
    expect(plain(renderPlan(plan))).toContain('value changed outside Cairn (drift): the declared value is put back\n      value: "DRIFTED" → "v1"');
    await stack.apply(plan);
    expect(cloud.contents()).toEqual(["box:a=v1"]);
    expect(hasChanges(await stack.preview())).toBe(false);
  });

  it("up --refresh reverts drift in one run", async () => {
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "a", value: "v1" }));
    await stack.up();
    cloud.tamper("a", { value: "DRIFTED" });
    // Without a refresh the plan cannot know.
    expect(hasChanges(await stack.preview())).toBe(false);
    const r = await stack.up({ refresh: true });
    expect(planned(r.plan)).toEqual(["update a"]);
    expect(r.plan.drift).toEqual([expect.objectContaining({ kind: "drift", changed: ["value"] })]);
    expect(cloud.contents()).toEqual(["box:a=v1"]);
  });

  it("up --refresh re-creates an object deleted outside Cairn, and what uses it follows", async () => {
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: "a" });
      new Box("b", { name: "b", refs: [a.arn] });
    });
    await stack.up();
    cloud.tamper("b", { refs: [] });
    cloud.vanish("a");
    const r = await stack.up({ refresh: true });
    expect(planned(r.plan)).toEqual(["create a", "update b"]);
    expect(r.summary?.ok).toBe(true);
    expect(cloud.contents()).toEqual(["box:a", "box:b uses a"]);
    expect(hasChanges(await stack.preview({ refresh: true }))).toBe(false);
  });

  it("--refresh-only records drift without changing the cloud", async () => {
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "a", value: "v1" }));
    await stack.up();
    cloud.tamper("a", { value: "DRIFTED" });
    const preview = await stack.preview({ refreshOnly: true });
    expect(preview.mode).toBe("refresh-only");
    expect(preview.steps).toEqual([]);
    expect(preview.drift).toEqual([expect.objectContaining({ kind: "drift", changed: ["value"] })]);
    const writes = cloud.changes().length;
    const r = await stack.up({ refreshOnly: true });
    expect(r.summary?.ok).toBe(true);
    expect(cloud.changes().length).toBe(writes);
    expect((await stack.resources())[0]).toMatchObject({ inputs: { value: "DRIFTED" }, outputs: { value: "DRIFTED" }, drift: ["value"] });
    // The drift is now on record: a plain up puts it back.
    expect(planned(await stack.preview())).toEqual(["update a"]);
  });

  it("ignoreChanges keeps what the cloud holds for that attribute", async () => {
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "a", value: "v1" }, { ignoreChanges: ["value"] }));
    await stack.up();
    cloud.tamper("a", { value: "DRIFTED" });
    const r = await stack.up({ refresh: true });
    expect(planned(r.plan)).toEqual([]);
    expect(cloud.contents()).toEqual(["box:a=DRIFTED"]);
  });
});
