import { describe, expect, it } from "vitest";
import { planned, stepOf, world, failures } from "./harness.js";
import { renderPlan } from "../../src/cli/render.js";

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("conformance: never delete an object another object still uses", () => {
  it("create-first replace of a and of b that uses it: old b is deleted before old a", async () => {
    let zone = "z1";
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: `a-${zone}`, zone });
      new Box("b", { name: a.zone.apply((z) => `b-${z}`), refs: [a.arn] });
    });
    await stack.up();
    zone = "z2";
    const r = await stack.up();
    expect(planned(r.plan)).toEqual(["replace a", "replace b"]);
    expect(r.summary?.ok).toBe(true);
    // New objects first (b' uses a'), then the old ones, users before what they use.
    expect(cloud.changes().slice(2)).toEqual(["create a-z2", "create b-z2", "delete b-z1", "delete a-z1"]);
    expect(cloud.contents()).toEqual(["box:a-z2@z2", "box:b-z2 uses a-z2"]);
  });

  it("a user updated away from a replaced object lets go of it before the old object is deleted", async () => {
    let zone = "z1";
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: `a-${zone}`, zone });
      new Box("b", { name: "b", refs: [a.arn] });
    });
    await stack.up();
    zone = "z2";
    const r = await stack.up();
    expect(planned(r.plan)).toEqual(["replace a", "update b"]);
    expect(cloud.changes().slice(2)).toEqual(["create a-z2", "update b", "delete a-z1"]);
    expect(cloud.contents()).toEqual(["box:a-z2@z2", "box:b uses a-z2"]);
  });

  it("delete-first replace of a replaces b that uses it too: b is deleted first and re-created after, and the plan says why", async () => {
    let zone = "z1";
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: "a", zone }, { deleteBeforeReplace: true });
      new Box("b", { name: "b", value: "v", refs: [a.arn] });
    });
    await stack.up();
    zone = "z2";
    const plan = await stack.preview();
    expect(planned(plan)).toEqual(["replace a", "replace b"]);
    expect(stepOf(plan, "b", "replace")).toMatchObject({ deleteFirst: true, reason: "dependency" });
    expect(plain(renderPlan(plan))).toContain(`references a, which is deleted first`);
    const r = await stack.apply(plan);
    expect(r.summary?.ok).toBe(true);
    expect(cloud.changes().slice(2)).toEqual(["delete b", "delete a", "create a", "create b"]);
    expect(cloud.contents()).toEqual(["box:a@z2", "box:b=v uses a"]);
  });

  it("the delete-first chain goes on: what uses b is replaced delete-first too", async () => {
    let zone = "z1";
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: "a", zone }, { deleteBeforeReplace: true });
      const b = new Box("b", { name: "b", refs: [a.arn] });
      new Box("c", { name: "c", refs: [b.arn] });
    });
    await stack.up();
    zone = "z2";
    const r = await stack.up();
    expect(planned(r.plan)).toEqual(["replace a", "replace b", "replace c"]);
    expect(cloud.changes().slice(3)).toEqual(["delete c", "delete b", "delete a", "create a", "create b", "create c"]);
    expect(cloud.contents()).toEqual(["box:a@z2", "box:b uses a", "box:c uses b"]);
  });

  it("refuses at plan time, naming the chain, when a user of a delete-first replace is protected: no call is made", async () => {
    let zone = "z1";
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: "a", zone }, { deleteBeforeReplace: true });
      const b = new Box("b", { name: "b", refs: [a.arn] });
      new Box("c", { name: "c", refs: [b.arn] }, { protect: true });
    });
    await stack.up();
    const before = cloud.changes().length;
    zone = "z2";
    await expect(stack.up()).rejects.toThrow(/"c".*is protected and cannot be replaced \("c" → "b" → "a": the last is deleted before it is re-created/s);
    expect(cloud.changes().length).toBe(before);
    expect(cloud.contents()).toEqual(["box:a@z1", "box:b uses a", "box:c uses b"]);
  });

  it("a user removed from the program is deleted before the object it used is replaced delete-first", async () => {
    let zone = "z1";
    let withB = true;
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: "a", zone }, { deleteBeforeReplace: true });
      if (withB) new Box("b", { name: "b", refs: [a.arn] });
    });
    await stack.up();
    zone = "z2";
    withB = false;
    const r = await stack.up();
    expect(planned(r.plan)).toEqual(["replace a", "delete b"]);
    expect(cloud.changes().slice(2)).toEqual(["delete b", "delete a", "create a"]);
    expect(cloud.contents()).toEqual(["box:a@z2"]);
  });

  it("removing a chain deletes users first", async () => {
    let keep = true;
    const { cloud, stack } = await world((Box) => {
      if (!keep) return;
      const a = new Box("a", { name: "a" });
      const b = new Box("b", { name: "b", refs: [a.arn] });
      new Box("c", { name: "c", refs: [b.arn] });
      new Box("d", { name: "d", refs: [a.arn, b.arn] });
    });
    await stack.up();
    keep = false;
    const r = await stack.up({});
    expect(r.summary?.ok).toBe(true);
    const order = cloud.changes().slice(4);
    expect(order.indexOf("delete b")).toBeGreaterThan(Math.max(order.indexOf("delete c"), order.indexOf("delete d")));
    expect(order.indexOf("delete a")).toBeGreaterThan(order.indexOf("delete b"));
    expect(cloud.contents()).toEqual([]);
  });

  it("a deposed object keeps its dependencies: what it used is deleted only after it", async () => {
    let zone = "z1";
    let withX = true;
    const { cloud, stack, events } = await world((Box) => {
      const x = withX ? new Box("x", { name: "x" }) : undefined;
      new Box("a", { name: `a-${zone}`, zone, refs: x ? [x.arn] : [] });
    });
    await stack.up();
    // The old a cannot be deleted this time: it stays behind as a deposed object that still uses x.
    zone = "z2";
    cloud.inject("delete", "a-z1", "fail");
    const failed = await stack.up();
    expect(failed.summary?.ok).toBe(false);
    expect(failures(events)).toEqual([expect.stringMatching(/^a: InternalFailure/)]);
    expect(cloud.contents()).toEqual(["box:a-z1@z1 uses x", "box:a-z2@z2 uses x", "box:x"]);
    // Now x leaves the program: the new a lets go of it, the deposed a is deleted, and only then x.
    withX = false;
    const r = await stack.up();
    expect(planned(r.plan).sort()).toEqual(["delete a", "delete x", "update a"]);
    expect(r.summary?.ok).toBe(true);
    expect(cloud.indexOf("delete x")).toBeGreaterThan(Math.max(cloud.indexOf("delete a-z1"), cloud.indexOf("update a-z2")));
    expect(cloud.contents()).toEqual(["box:a-z2@z2"]);
  });

  it("replaceTriggeredBy replaces a resource when a value it names changes", async () => {
    let value = "v1";
    const { cloud, stack } = await world((Box) => {
      const config = new Box("config", { name: "config", value });
      new Box("server", { name: "server", value: "s" }, { replaceTriggeredBy: [config.value], deleteBeforeReplace: true });
    });
    await stack.up();
    const firstId = cloud.byName("server")!.id;
    expect(planned(await stack.preview())).toEqual([]);
    value = "v2";
    const r = await stack.up();
    expect(planned(r.plan)).toEqual(["update config", "replace server"]);
    expect(stepOf(r.plan, "server", "replace")).toMatchObject({ reason: "triggered", cause: '"config" changed' });
    expect(r.summary?.ok).toBe(true);
    expect(cloud.byName("server")!.id).not.toBe(firstId);
    expect(cloud.contents()).toEqual(["box:config=v2", "box:server=s"]);
    expect(planned(await stack.preview())).toEqual([]);
  });
});
