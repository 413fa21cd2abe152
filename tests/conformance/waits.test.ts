import { describe, expect, it } from "vitest";
import { planned, stepOf, world } from "./harness.js";
import { wait } from "../../src/wait/wait.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { hasChanges } from "../../src/plan/plan.js";

describe("conformance: a wait hands on the read that satisfied it", () => {
  it("added for a target that already exists: the user gets the fresh value, not the recorded one", async () => {
    let withWait = false;
    const { cloud, stack } = await world((Box) => {
      const job = new Box("job", { name: "job" });
      if (!withWait) return;
      const ready = wait(job, { until: (j) => j.status.eq("READY"), name: "ready" });
      new Box("user", { name: "user", value: ready.status });
    });
    cloud.createdStatus = "PENDING";
    await stack.up();
    expect((await stack.resources())[0]!.outputs.status).toBe("PENDING");
    withWait = true;
    cloud.script("job", ["PENDING", "PENDING", "READY"]);
    const plan = await stack.preview();
    expect(planned(plan)).toEqual(["wait ready", "create user"]);
    // The plan does not pretend to know what the read will show.
    expect(stepOf(plan, "user", "create").news.value).toBe(UNKNOWN);
    const r = await stack.apply(plan);
    expect(r.summary?.ok).toBe(true);
    expect(cloud.contents()).toEqual(["box:job", "box:user=READY"]);
    // The satisfying read is recorded: the next run is settled.
    expect(hasChanges(await stack.preview())).toBe(false);
  });

  it("on a target created in this run: the user gets the satisfying snapshot", async () => {
    const { cloud, stack } = await world((Box) => {
      const job = new Box("job", { name: "job" });
      const ready = wait(job, { until: (j) => j.status.eq("READY") });
      new Box("user", { name: "user", value: ready.status });
    });
    cloud.createdStatus = "PENDING";
    cloud.script("job", ["PENDING", "READY"]);
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(cloud.contents()).toEqual(["box:job", "box:user=READY"]);
  });

  it("on a lookup: the user gets the snapshot of the read that satisfied it", async () => {
    const { cloud, stack } = await world((Box) => {
      const found = Box.get("found", "box-1");
      const ready = wait(found, { until: (j) => j.status.eq("READY") });
      new Box("user", { name: "user", value: ready.status });
    });
    await cloud.provider("box").create({ urn: "urn:x" as never, inputs: { name: "outside" }, ctx: undefined as never });
    cloud.tamper("outside", { status: "PENDING" });
    cloud.script("outside", ["PENDING", "PENDING", "READY"]);
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(cloud.contents()).toEqual(["box:outside", "box:user=READY"]);
  });
});
