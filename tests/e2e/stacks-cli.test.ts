import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, tempProject } from "./cli-harness.js";

const NETWORK = `
import { program, secret } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program("network", () => {
  const f = new local.File("vpc", { path: "out/vpc.txt", content: process.env.VPC ?? "vpc-1" });
  return { vpcId: f.content, dbPassword: secret("s3cret-pw") };
});
`;

const APP = `
import { program, stackOutputs } from "cairn-iac";
import { local } from "cairn-iac/local";
interface NetworkOutputs { vpcId: string; dbPassword: string }
export default program("app", () => {
  const net = stackOutputs<NetworkOutputs>("network", { stack: "net" });
  new local.File("cfg", { path: "out/app-vpc.txt", content: net.outputs.vpcId });
  return { vpc: net.outputs.vpcId, password: net.get("dbPassword") };
});
`;

const shared: string[] = [];
afterAll(async () => {
  for (const d of shared) await rm(d, { recursive: true, force: true });
});

describe("two stacks through the CLI, sharing one file backend", () => {
  it("app reads network; stack graph shows it; destroy of network needs --force; secrets never print", async () => {
    const state = await mkdtemp(join(tmpdir(), "cairn-shared-"));
    shared.push(state);
    const env = { CAIRN_BACKEND: `file://${state}` };
    const net = await tempProject({ "infra.ts": NETWORK });
    const app = await tempProject({ "infra.ts": APP });
    const all = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

    expect((await cli(net, ["up", "--yes", "--stack", "net"], env)).code).toBe(0);
    const up = await cli(app, ["up", "--yes", "--stack", "app", "--json"], env);
    expect(up.code).toBe(0);
    expect(await readFile(join(app, "out", "app-vpc.txt"), "utf8")).toBe("vpc-1");
    expect(all(up)).not.toContain("s3cret-pw");
    const outs = await cli(app, ["outputs", "--stack", "app"], env);
    expect(outs.stdout).toContain("vpc-1");
    expect(outs.stdout).not.toContain("s3cret-pw");

    // network's output changes: app's preview says so, at the reference and at the file using it
    expect((await cli(net, ["up", "--yes", "--stack", "net"], { ...env, VPC: "vpc-2" })).code).toBe(0);
    const pre = await cli(app, ["preview", "--stack", "app"], env);
    expect(pre.code).toBe(0);
    expect(pre.stdout).toContain("output vpcId of stack network/net changed since this stack's last run");
    expect(pre.stdout).toMatch(/cfg[^\n]*\n[^\n]*content changed \(output vpcId of stack network\/net/);
    expect(all(pre)).not.toContain("s3cret-pw");
    const json = await cli(app, ["preview", "--stack", "app", "--json"], env);
    expect(json.stdout).toContain("vpc-2");
    expect(all(json)).not.toContain("s3cret-pw");

    const graph = await cli(net, ["stack", "graph", "--stack", "net"], env);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toMatch(/app\/app\s+reads\s+network\/net/);

    const refused = await cli(net, ["destroy", "--yes", "--stack", "net"], env);
    expect(refused.code).not.toBe(0);
    expect(all(refused)).toMatch(/stack network\/net is read by app\/app \(through stackOutputs\)[^]*--force/);
    expect(await readFile(join(net, "out", "vpc.txt"), "utf8")).toBe("vpc-2");

    const forced = await cli(net, ["destroy", "--yes", "--force", "--stack", "net"], env);
    expect(forced.code).toBe(0);
    expect(all(forced)).toMatch(/read by app\/app[^]*destroying it anyway/);
    await expect(readFile(join(net, "out", "vpc.txt"), "utf8")).rejects.toThrow();

    // app's next preview fails, naming both stacks and the output it reads
    const after = await cli(app, ["preview", "--stack", "app"], env);
    expect(after.code).not.toBe(0);
    expect(all(after)).toContain('stack app/app reads output "vpcId" of stack network/net, which has no such output');
  }, 120_000);
});
