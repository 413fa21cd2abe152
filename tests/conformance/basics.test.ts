import { describe, expect, it } from "vitest";
import { planned, world } from "./harness.js";
import { hasChanges } from "../../src/plan/plan.js";
import { ComponentResource } from "../../src/program/resource.js";
import { defineResource } from "../../src/program/define.js";
import type { BoxIn, BoxOut } from "./cloud.js";

describe("conformance: the everyday lifecycle on a strict cloud", () => {
  it("creates in dependency order, converges, updates in place, and destroys users first", async () => {
    let value = "v1";
    const { cloud, stack } = await world((Box) => {
      const a = new Box("a", { name: "a", value });
      const b = new Box("b", { name: "b", refs: [a.arn] });
      new Box("c", { name: "c", refs: [a.arn, b.arn] });
    });
    const first = await stack.up();
    expect(planned(first.plan)).toEqual(["create a", "create b", "create c"]);
    expect(cloud.changes()).toEqual(["create a", "create b", "create c"]);
    expect(hasChanges(await stack.preview())).toBe(false);
    value = "v2";
    const upd = await stack.up();
    expect(planned(upd.plan)).toEqual(["update a"]);
    expect(cloud.contents()).toEqual(["box:a=v2", "box:b uses a", "box:c uses a,b"]);
    await stack.destroy();
    expect(cloud.changes().slice(-3)).toEqual(["delete c", "delete b", "delete a"]);
    expect(cloud.contents()).toEqual([]);
  });

  it("a lookup is read, never managed: destroy leaves it alone", async () => {
    const { cloud, stack } = await world((Box) => {
      const zone = Box.get("zone", "box-1");
      new Box("rec", { name: "rec", refs: [zone.arn] });
    });
    await cloud.provider("box").create({ urn: "urn:x" as never, inputs: { name: "zone" }, ctx: undefined as never });
    const r = await stack.up();
    expect(planned(r.plan)).toEqual(["create rec"]);
    await stack.destroy();
    expect(cloud.contents()).toEqual(["box:zone"]);
  });

  it("a rename with an alias keeps the cloud object: no call is made", async () => {
    let renamed = false;
    const { cloud, stack } = await world((Box) => {
      class Group extends ComponentResource {
        constructor(name: string) {
          super("strict:conf:Group", name);
        }
      }
      const g = new Group("g");
      if (!renamed) new Box("old", { name: "x" });
      else new Box("new", { name: "x" }, { parent: g, aliases: [{ name: "old", parent: null }] });
    });
    await stack.up();
    const writes = cloud.changes().length;
    renamed = true;
    const r = await stack.up();
    expect(r.plan.steps.find((s) => s.kind === "same" && s.movedFrom)).toBeDefined();
    expect(cloud.changes().length).toBe(writes);
    expect((await stack.resources()).map((s) => s.urn)).toEqual([expect.stringMatching(/Group\$strict:c\d+:Box::new$/)]);
    expect(hasChanges(await stack.preview())).toBe(false);
  });

  it("--replace replaces an unchanged resource, delete-first when asked", async () => {
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "a" }, { deleteBeforeReplace: true }));
    await stack.up();
    const urn = (await stack.resources())[0]!.urn;
    const r = await stack.up({ replace: [urn] });
    expect(planned(r.plan)).toEqual(["replace a"]);
    expect(cloud.changes()).toEqual(["create a", "delete a", "create a"]);
  });

  it("a provider's diff decides: a change it calls normalisation is no change, one it says forces a new object replaces", async () => {
    let value = "hello";
    let zone = "z1";
    const { cloud, stack } = await world(() => {
      const Norm = defineResource<BoxIn, BoxOut>("strict:conf:Normalising", {
        provider: {
          ...cloud.provider("norm"),
          diff: ({ olds, news }) => {
            if (olds.zone !== news.zone) return { kind: "replace", changed: ["zone"], replaceKeys: ["zone"], deleteBeforeReplace: true };
            return (olds.value ?? "").toLowerCase() === (news.value ?? "").toLowerCase() ? { kind: "same" } : { kind: "update", changed: ["value"] };
          },
        },
      });
      new Norm("n", { name: "n", value, zone });
    });
    await stack.up();
    value = "HELLO";
    expect(planned(await stack.preview())).toEqual([]);
    zone = "z2";
    const r = await stack.up();
    expect(planned(r.plan)).toEqual(["replace n"]);
    expect(r.plan.steps[0]).toMatchObject({ deleteFirst: true, replaceKeys: ["zone"] });
    expect(cloud.changes()).toEqual(["create n", "delete n", "create n"]);
    expect(cloud.contents()).toEqual(["norm:n@z2=HELLO"]);
  });

  it("import adopts an existing object instead of creating it; a difference is updated at once", async () => {
    let value = "v1";
    const { cloud, stack } = await world((Box) => void new Box("a", { name: "outside", value }, { import: "box-1" }));
    await cloud.provider("box").create({ urn: "urn:x" as never, inputs: { name: "outside", value: "v1" }, ctx: undefined as never });
    const plan = await stack.preview();
    expect(plan.steps[0]).toMatchObject({ kind: "same", adopt: { id: "box-1" } });
    expect(hasChanges(plan)).toBe(true);
    await stack.apply(plan);
    expect(cloud.changes()).toEqual(["create outside"]); // only the object made outside Cairn
    expect((await stack.resources())[0]).toMatchObject({ id: "box-1", inputs: { name: "outside", value: "v1" } });
    expect(hasChanges(await stack.preview())).toBe(false);
    // Adopting an object that differs from the program updates it in the same run.
    const other = await world((Box) => void new Box("b", { name: "other", value }, { import: "box-1" }));
    await other.cloud.provider("box").create({ urn: "urn:x" as never, inputs: { name: "other", value: "old" }, ctx: undefined as never });
    value = "new";
    const r = await other.stack.up();
    expect(planned(r.plan)).toEqual(["update b"]);
    expect(other.cloud.contents()).toEqual(["box:other=new"]);
    await expect((await world((Box) => void new Box("c", { name: "c" }, { import: "box-9" }))).stack.preview()).resolves.toMatchObject({
      diagnostics: [expect.objectContaining({ summary: expect.stringMatching(/import: no object with id "box-9" was found/) })],
    });
  });
});
