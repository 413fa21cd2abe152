import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { program } from "../../../src/entry/program.js";
import { secret } from "../../../src/program/output.js";
import type { StackOptions } from "../../../src/stack/stack.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import { stackOutputs } from "../../../src/program/stack-outputs.js";
import { memoryType } from "../../helpers.js";
import { renderPlan } from "../../../src/cli/render/plan.js";
import { planToJson } from "../../../src/cli/json/plan.js";

/** What network publishes, typed as app reads it. */
export interface NetworkOutputs {
  vpcId: string;
  dbPassword: string;
}

/**
 * A network program (project "network", stack "network") and an app program (project "app", stack "app")
 * that reads it, both in the backend `opts` names. `net.vpc` changes network's vpcId; `app.key` is the
 * output app reads (a wrong one tests the error).
 */
export function twoStacks(opts: StackOptions, tag: string) {
  const net = { vpc: "vpc-1" };
  const app = { key: "vpcId" as keyof NetworkOutputs, stack: "network" };
  const Subnet = memoryType<{ vpc: string }>(`test:${tag}:Subnet`, { inputs: { vpc: {} }, outputs: { vpc: {} } });
  const Server = memoryType<{ vpc: string; password: string }>(`test:${tag}:Server`, { inputs: { vpc: {}, password: {} }, outputs: { vpc: {}, password: {} } });
  const network = program("network", () => {
    const s = new Subnet.Type("subnet", { vpc: net.vpc });
    return { vpcId: s.vpc, dbPassword: secret("s3cret-pw") };
  }).stack({ ...opts, stack: "network" });
  const application = program("app", () => {
    const n = stackOutputs<NetworkOutputs>("network", { stack: app.stack });
    const server = new Server.Type("server", { vpc: n.outputs[app.key], password: n.get("dbPassword") });
    return { vpc: server.vpc };
  }).stack({ ...opts, stack: "app" });
  const events: EngineEvent[] = [];
  application.events.subscribe((e) => events.push(e));
  return { network, app: application, net, appCfg: app, Server, Subnet, events };
}

/** Every file under `dir`, as one string: to show a secret never reaches the disk in plain text. */
export async function allText(dir: string): Promise<string> {
  let out = "";
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out += await readFile(join(e.parentPath, e.name), "utf8").catch(() => "");
  }
  return out;
}

/** The behaviours both backends must show; `raw` returns what the backend stores, as text. */
export async function conformance(opts: StackOptions, tag: string, raw: () => Promise<string>): Promise<void> {
  const t = twoStacks(opts, tag);
  // GIVEN network is up
  const n1 = await t.network.up();
  expect(n1.outputs).toEqual({ vpcId: "vpc-1", dbPassword: "s3cret-pw" });

  // WHEN app, which reads it, goes up THEN its server gets network's values, secrets included
  const a1 = await t.app.up();
  expect(a1.summary).toMatchObject({ ok: true });
  expect([...t.Server.objects.values()]).toEqual([{ vpc: "vpc-1", password: "s3cret-pw" }]);
  expect(a1.outputs).toEqual({ vpc: "vpc-1" });
  const ref = (await t.app.resources()).find((r) => r.type === "cairn:stack:StackReference")!;
  expect(ref).toMatchObject({
    id: "network/network",
    inputs: { project: "network", stack: "network", backend: await t.network.stateUrl, values: { vpcId: "vpc-1" }, secretValues: { dbPassword: "s3cret-pw" } },
  });
  expect(ref.secretKeys).toContain("secretValues");
  expect(ref.secretKeys).not.toContain("values");
  const server = (await t.app.resources()).find((r) => r.type.endsWith(":Server"))!;
  expect(server.secretKeys).toEqual(["password"]);
  expect(server.deps).toContain(ref.urn);
  // secrets stay secret: not in app's stored state, not in its events, not in its plan's text
  expect(await raw()).not.toContain("s3cret-pw");
  expect(JSON.stringify(t.events)).not.toContain("s3cret-pw");

  // WHEN nothing changed THEN app's preview is empty
  const same = await t.app.preview();
  expect(same.steps.filter((s) => s.kind !== "same")).toEqual([]);

  // WHEN network's vpcId changes THEN app's preview updates the reference (naming the output) and the server
  t.net.vpc = "vpc-2";
  await t.network.up();
  const p = await t.app.preview();
  const changing = p.steps.filter((s) => s.kind !== "same");
  expect(changing.map((s) => [s.kind, s.urn.split("::").pop()])).toEqual([
    ["update", "network"],
    ["update", "server"],
  ]);
  const refStep = changing[0]!;
  expect(refStep).toMatchObject({ kind: "update", changed: ["values"], olds: { values: { vpcId: "vpc-1" } }, news: { values: { vpcId: "vpc-2" } } });
  expect(changing[1]).toMatchObject({ kind: "update", changed: ["vpc"], deps: expect.arrayContaining([refStep.urn]) });
  // the plan says why: the output that changed, at the reference and at the server using it
  const text = renderPlan(p, { diff: true });
  expect(text).toContain("output vpcId of stack network/network changed since this stack's last run");
  expect(text).toMatch(/server[^\n]*\n[^\n]*vpc changed \(output vpcId of stack network\/network changed since this stack's last run\)/);
  expect(text).not.toContain("s3cret-pw");
  expect(JSON.stringify(planToJson(p))).not.toContain("s3cret-pw");
  await t.app.up();
  expect([...t.Server.objects.values()]).toEqual([{ vpc: "vpc-2", password: "s3cret-pw" }]);
  expect(JSON.stringify(t.events)).not.toContain("s3cret-pw");

  // WHEN app reads an output network does not have THEN preview fails naming both stacks, the key and a guess
  t.appCfg.key = "vpcID" as keyof NetworkOutputs;
  const bad = await t.app.preview();
  const msg = bad.diagnostics.map((d) => d.summary).join("\n");
  expect(msg).toContain('stack app/app reads output "vpcID" of stack network/network, which has no such output (did you mean "vpcId"?)');
  expect(msg).toContain("Its outputs: dbPassword, vpcId.");
  await expect(t.app.up()).rejects.toThrow(/vpcID/);
  t.appCfg.key = "vpcId";

  // WHEN app reads a stack that does not exist THEN preview fails naming both
  t.appCfg.stack = "nope";
  const missing = await t.app.preview();
  expect(missing.diagnostics.map((d) => d.summary).join("\n")).toMatch(/stack app\/app reads the outputs of stack network\/nope, which does not exist in /);
  t.appCfg.stack = "network";

  // THEN the backend's graph shows the read
  const graph = await t.network.stackGraph();
  expect(graph.reads.map((r) => [r.reader, r.target])).toEqual([[{ project: "app", stack: "app" }, { project: "network", stack: "network" }]]);

  // WHEN network is destroyed while app reads it THEN it is refused, naming app, and nothing is deleted
  await expect(t.network.destroy()).rejects.toThrow(/stack network\/network is read by app\/app \(through stackOutputs\).*nothing was destroyed.*--force/);
  expect((await t.network.resources()).length).toBe(1);
  expect(t.Subnet.objects.size).toBe(1);

  // WHEN forced THEN it is destroyed, with a warning naming the reader
  const warnings: string[] = [];
  t.network.events.subscribe((e) => e.type === "diagnostic" && warnings.push(e.summary));
  const d = await t.network.destroy({ force: true });
  expect(d.summary).toMatchObject({ ok: true });
  expect(t.Subnet.objects.size).toBe(0);
  expect(await t.network.resources()).toEqual([]);
  expect(warnings.join("\n")).toMatch(/read by app\/app.*destroying it anyway \(--force\)/);

  // WHEN app is destroyed THEN its reference goes with it, and the graph has no read left
  await t.app.destroy();
  expect((await t.network.stackGraph()).reads).toEqual([]);
}
