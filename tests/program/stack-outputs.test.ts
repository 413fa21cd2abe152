import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { program } from "../../src/entry/program.js";
import { secret, type Output } from "../../src/program/output.js";
import { fileBackendUrl } from "../../src/state/backend-url.js";
import { stackOutputs } from "../../src/program/stack-outputs.js";
import { closestName } from "../../src/core/did-you-mean.js";
import { memoryType } from "../helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-stackout-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Net {
  vpcId: string;
  token: string;
}

const Thing = memoryType<{ v: string }>("test:so:Thing", { inputs: { v: {} }, outputs: { v: {} } });

/** network in its own directory, with its own passphrase. */
async function networkIn(at: string, passphrase: string) {
  const s = program("network", () => ({ vpcId: "vpc-9", token: secret("tok-123") })).stack({ stateDir: at, stack: "prod", passphrase });
  await s.up();
  return s;
}

describe("stackOutputs", () => {
  it("types the outputs by the generic (a key the type lacks does not compile)", () => {
    const check = (n: ReturnType<typeof stackOutputs<Net>>) => {
      const a: Output<string> = n.outputs.vpcId;
      const b: Output<string> = n.get("token");
      // @ts-expect-error: Net has no output "vpcID"
      n.get("vpcID");
      return [a, b];
    };
    expect(typeof check).toBe("function");
  });

  it("reads a stack in another backend named by URL, recording that backend (without secrets in it)", async () => {
    const netDir = join(dir, "network");
    await networkIn(netDir, "pass");
    const app = program("app", () => {
      const n = stackOutputs<Net>("network", { stack: "prod", backend: fileBackendUrl(netDir) });
      new Thing.Type("t", { v: n.outputs.vpcId });
    }).stack({ stateDir: join(dir, "app"), stack: "prod", passphrase: "pass" });
    await app.up();
    expect([...Thing.objects.values()]).toEqual([{ v: "vpc-9" }]);
    const ref = (await app.resources()).find((r) => r.type === "cairn:stack:StackReference")!;
    expect(ref.inputs).toMatchObject({ project: "network", stack: "prod", backend: fileBackendUrl(netDir), values: { vpcId: "vpc-9" } });
    // the secret output was read too (it is recorded, encrypted), though this program does not use it
    expect(ref.secretKeys).toEqual(["secretValues"]);
  });

  it("needs the other stack's passphrase for its secrets: the error names both stacks and how to give it", async () => {
    const netDir = join(dir, "network");
    await networkIn(netDir, "network-pass");
    let passphrase: string | undefined;
    const app = program("app", () => {
      const n = stackOutputs<Net>("network", { stack: "prod", backend: fileBackendUrl(netDir), ...(passphrase ? { passphrase } : {}) });
      new Thing.Type("t2", { v: n.outputs.vpcId });
    }).stack({ stateDir: join(dir, "app"), stack: "prod", passphrase: "app-pass" });
    const bad = await app.preview();
    const msg = bad.diagnostics.map((d) => d.summary).join("\n");
    expect(msg).toContain("stack app/prod reads the outputs of stack network/prod, whose state in");
    expect(msg).toContain('pass it as stackOutputs("network", { stack: "prod", passphrase })');
    passphrase = "network-pass";
    const ok = await app.preview();
    expect(ok.diagnostics).toEqual([]);
    expect(ok.steps.find((s) => s.kind === "create" && s.type === "cairn:stack:StackReference")).toMatchObject({ news: { values: { vpcId: "vpc-9" }, secretValues: { token: "tok-123" } }, secretKeys: ["secretValues"] });
  });

  it("refuses a stack reading itself, and a reference without a stack, saying what to write", async () => {
    const self = program("app", () => void stackOutputs("app", { stack: "dev" })).stack({ stateDir: dir, stack: "dev" });
    await expect(self.preview()).rejects.toThrow("stack app/dev cannot read its own outputs");
    const none = program("app", () => void stackOutputs("network", {} as never)).stack({ stateDir: dir, stack: "dev" });
    await expect(none.preview()).rejects.toThrow('stackOutputs("network", …) needs the stack to read: stackOutputs("network", { stack: "prod" }).');
  });

  it("suggests the closest output name, and none when nothing is close", () => {
    expect(closestName("vpcID", ["vpcId", "subnetIds"])).toBe("vpcId");
    expect(closestName("subnetId", ["vpcId", "subnetIds"])).toBe("subnetIds");
    expect(closestName("database", ["vpcId", "subnetIds"])).toBeUndefined();
  });
});
