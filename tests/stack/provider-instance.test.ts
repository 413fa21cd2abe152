import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, type ProgramFn } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import { ComponentResource } from "../../src/program/resource.js";
import type { OpContext, ProviderInstance } from "../../src/provider/provider.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-provinst-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A "cloud" with regions: objects live in the region of the operation's provider instance. */
function regionalCloud(pkg: string, opts: { failDelete?: (region: string) => boolean; idempotent?: boolean; providerSettings?: string[] } = {}) {
  const regions = new Map<string, Map<string, { name: string }>>();
  const calls: { op: string; region: string; instance?: ProviderInstance }[] = [];
  let next = 1;
  const where = (ctx: OpContext) => ctx.provider?.settings.region ?? "default-region";
  const objects = (ctx: OpContext) => {
    const r = where(ctx);
    if (!regions.has(r)) regions.set(r, new Map());
    return regions.get(r)!;
  };
  const Thing = defineResource<{ name: string }, { name: string }, { name: string }>(`${pkg}:test:Thing`, {
    provider: {
      async create({ inputs, ctx }) {
        calls.push({ op: "create", region: where(ctx), ...(ctx.provider ? { instance: ctx.provider } : {}) });
        // An idempotent create (like ACM's token or an adopted record) hands back the existing object.
        if (opts.idempotent) for (const [id, o] of objects(ctx)) if (o.name === inputs.name) return { id, outputs: o };
        const id = `t-${next++}`;
        objects(ctx).set(id, { name: inputs.name });
        return { id, outputs: { name: inputs.name } };
      },
      async read({ id, ctx }) {
        calls.push({ op: "read", region: where(ctx) });
        return objects(ctx).get(id);
      },
      async lookup({ query, ctx }) {
        calls.push({ op: "lookup", region: where(ctx) });
        for (const [id, o] of objects(ctx)) if (o.name === query.name) return { id, outputs: o };
        return undefined;
      },
      async delete({ id, ctx }) {
        calls.push({ op: "delete", region: where(ctx), ...(ctx.provider ? { instance: ctx.provider } : {}) });
        if (opts.failDelete?.(where(ctx))) throw new Error("delete refused");
        objects(ctx).delete(id);
      },
    },
    schema: { inputs: { name: { type: "string" } }, outputs: { name: { type: "string" } }, ...(opts.providerSettings ? { providerSettings: opts.providerSettings } : {}) },
  });
  return { Thing, regions, calls };
}

const inst = (name: string, region: string, pkg = "regional"): ProviderInstance => ({ package: pkg, name, settings: { region } });

function stackOf(fn: ProgramFn) {
  return program("prov", fn).stack({ stateDir: dir, passphrase: "test-pass" });
}

describe("provider instances (opts.provider)", () => {
  it("run operations with the instance, record it in state, and replace the resource when its settings move it", async () => {
    const cloud = regionalCloud("regional");
    let region = "eu-west-1";
    const stack = stackOf(() => {
      new cloud.Thing("a", { name: "a" }, { provider: inst("main", region) });
    });
    await stack.up();
    expect(cloud.regions.get("eu-west-1")?.size).toBe(1);
    const state = JSON.parse(await readFile(join(dir, "stacks", "dev", "state.json"), "utf8"));
    expect(Object.values(state.resources)[0]).toMatchObject({ provider: { name: "main", settings: { region: "eu-west-1" } } });

    region = "us-east-1";
    const plan = await stack.preview();
    expect(plan.steps.find((s) => s.kind === "replace")).toMatchObject({ reason: "provider", prior: { provider: { settings: { region: "eu-west-1" } } }, meta: { provider: { settings: { region: "us-east-1" } } } });
    await stack.up();
    expect(cloud.regions.get("eu-west-1")?.size).toBe(0);
    expect(cloud.regions.get("us-east-1")?.size).toBe(1);
    const ops = cloud.calls.filter((c) => c.op !== "read").map((c) => `${c.op}@${c.region}`);
    expect(ops).toEqual(["create@eu-west-1", "create@us-east-1", "delete@eu-west-1"]);
  });

  it("delete a resource the program dropped where state says it lives, with the program's live instance of that name", async () => {
    const cloud = regionalCloud("regional");
    let keep = true;
    const live = inst("use1", "us-east-1");
    const stack = stackOf(() => {
      if (keep) new cloud.Thing("gone-soon", { name: "x" }, { provider: live });
      else new cloud.Thing("other", { name: "y" }, { provider: live });
    });
    await stack.up();
    keep = false;
    await stack.up();
    const del = cloud.calls.find((c) => c.op === "delete")!;
    expect(del.region).toBe("us-east-1");
    expect(del.instance).toBe(live);
    expect(cloud.regions.get("us-east-1")?.size).toBe(1);
  });

  it("a renamed instance with the same settings is not a move", async () => {
    const cloud = regionalCloud("regional");
    let name = "one";
    const stack = stackOf(() => {
      new cloud.Thing("a", { name: "a" }, { provider: inst(name, "eu-west-1") });
    });
    await stack.up();
    name = "two";
    const plan = await stack.preview();
    expect(plan.steps.map((s) => s.kind)).toEqual(["same"]);
  });

  it("children of a component inherit its provider; another package's instance is refused with a clear error", async () => {
    const cloud = regionalCloud("regional");
    const stack = stackOf(() => {
      const group = new ComponentResource("test:Group", "g", { provider: inst("p", "ap-south-1") });
      new cloud.Thing("child", { name: "c" }, { parent: group });
    });
    await stack.up();
    expect(cloud.regions.get("ap-south-1")?.size).toBe(1);

    const bad = stackOf(() => {
      new cloud.Thing("wrong", { name: "w" }, { provider: inst("other", "x", "elsewhere") });
    });
    await expect(bad.preview()).rejects.toThrow(/"wrong" \(regional:test:Thing\) was given the elsewhere provider "other", which cannot manage regional resources/);
  });
});

describe("provider instances: what must never delete or lose the wrong object", () => {
  it("a replacement whose create hands back the object being replaced is refused as a provider error: nothing is deleted or recorded", async () => {
    const cloud = regionalCloud("regional", { idempotent: true });
    const stack = stackOf(() => {
      new cloud.Thing("a", { name: "same" });
    });
    await stack.up();
    const before = await stack.resources();
    const urn = (await stack.preview()).steps[0]!.urn;
    const failures: string[] = [];
    stack.events.subscribe((e) => { if (e.type === "step-failed") failures.push(e.error); });
    const up = await stack.up({ replace: [urn] });
    expect(up.summary).toMatchObject({ ok: false, failed: 1 });
    expect(failures.join("\n")).toMatch(/the provider of regional:test:Thing returned the id of the object it was replacing \("t-1"\) from the create of its replacement: a replacement must be a new object\. Nothing was recorded, and the object was not deleted/);
    expect(cloud.calls.filter((c) => c.op === "delete")).toEqual([]);
    expect(cloud.regions.get("default-region")?.size).toBe(1);
    expect(await stack.resources()).toEqual(before);
    expect((await stack.preview()).steps.map((s) => s.kind)).toEqual(["same"]);
  });

  it("an old object whose delete failed during a move is deleted later in its own region", async () => {
    let refuse = true;
    const cloud = regionalCloud("regional", { failDelete: (r) => refuse && r === "eu-west-1" });
    let region = "eu-west-1";
    const stack = stackOf(() => {
      new cloud.Thing("a", { name: "a" }, { provider: inst("main", region) });
    });
    await stack.up();
    region = "us-east-1";
    const moved = await stack.up();
    expect(moved.summary?.ok).toBe(false); // the old half's delete failed: it stays as a deposed object
    refuse = false;
    const retry = await stack.up();
    expect(retry.plan.steps.find((s) => s.kind === "delete")).toMatchObject({ deposed: true, prior: { provider: { settings: { region: "eu-west-1" } } } });
    expect(retry.summary?.ok).toBe(true);
    expect(cloud.regions.get("eu-west-1")?.size).toBe(0);
    expect(cloud.regions.get("us-east-1")?.size).toBe(1);
  });

  it("destroy and refresh reach objects with the program's live instance (its credentials), not just the record", async () => {
    const cloud = regionalCloud("regional");
    const live = { ...inst("prod", "eu-west-1"), credentials: "prod-keys" } as ProviderInstance;
    const stack = stackOf(() => {
      new cloud.Thing("a", { name: "a" }, { provider: live });
    });
    await stack.up();
    const fresh = program("prov", () => {
      new cloud.Thing("a", { name: "a" }, { provider: live });
    }).stack({ stateDir: dir, passphrase: "test-pass" });
    await fresh.destroy();
    const del = cloud.calls.find((c) => c.op === "delete")!;
    expect(del.instance).toBe(live);
    expect(del.region).toBe("eu-west-1");
  });

  it("a type that names its locating settings is not moved by a change of another (Route 53 ignores region)", async () => {
    const cloud = regionalCloud("regional", { providerSettings: ["endpoint"] });
    let region = "eu-west-1";
    const stack = stackOf(() => {
      new cloud.Thing("a", { name: "a" }, { provider: inst("main", region) });
    });
    await stack.up();
    region = "us-east-1";
    expect((await stack.preview()).steps.map((s) => s.kind)).toEqual(["same"]);
  });
});

describe("lookups by query (Type.get(name, { … }))", () => {
  it("call the provider's lookup with the resolved query, in the instance's region", async () => {
    const cloud = regionalCloud("regional");
    const seed = stackOf(() => {
      new cloud.Thing("existing", { name: "example.dev" }, { provider: inst("p", "eu-central-1") });
    });
    await seed.up();
    const stack = program("prov2", () => {
      const found = cloud.Thing.get("zone", { name: "example.dev" }, { provider: inst("p", "eu-central-1") });
      return { name: found.name, id: found.id };
    }).stack({ stateDir: join(dir, "two"), passphrase: "test-pass" });
    const up = await stack.up();
    expect(up.plan.steps.find((s) => s.kind === "read")).toMatchObject({ kind: "read", deferred: false, id: "t-1" });
    expect(up.outputs).toEqual({ name: "example.dev", id: "t-1" });
    expect(cloud.calls.filter((c) => c.op === "lookup").map((c) => c.region)).toEqual(["eu-central-1"]);

    const missing = program("prov3", () => {
      cloud.Thing.get("nope", { name: "absent.dev" });
    }).stack({ stateDir: join(dir, "three"), passphrase: "test-pass" });
    const plan = await missing.preview();
    expect(plan.diagnostics.map((d) => d.summary).join("\n")).toMatch(/Lookup "nope" \(regional:test:Thing\): nothing matches name = "absent.dev"/);
  });

  it("defer a query that depends on a resource being created to apply time", async () => {
    const cloud = regionalCloud("regional");
    const stack = stackOf(() => {
      const made = new cloud.Thing("made", { name: "late.dev" });
      const found = cloud.Thing.get("found", { name: made.name });
      return { id: found.id };
    });
    const plan = await stack.preview();
    expect(plan.steps.find((s) => s.kind === "read")).toMatchObject({ deferred: true });
    const up = await stack.up();
    expect(up.outputs).toEqual({ id: "t-1" });
  });

  it("refuse a query for a type whose provider has no lookup", async () => {
    const NoLookup = defineResource<{ n: number }, { n: number }>("regional:test:Plain", {
      provider: { async create({ inputs }) { return { id: "1", outputs: inputs }; }, async read() { return undefined; }, async delete() {} },
    });
    await expect(
      program("prov4", () => {
        NoLookup.get("x", { n: 1 } as never);
      }).evaluate({ stack: "dev" }),
    ).rejects.toThrow(/regional:test:Plain.get\("x", …\): this type can only be looked up by id/);
  });
});
