import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { milliseconds } from "../../src/core/duration.js";
import { Program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import type { Provider } from "../../src/provider/provider.js";
import { FakeClock } from "../../src/testing/fake-clock.js";

type Props = { name: string };
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
let types = 0;

/**
 * A stack of resources `a` and `b` whose first `up` leaves the create of `a` interrupted (its call never
 * answers and is abandoned: no id recorded), with a provider given `extra` (resume, idempotentCreate). Every
 * create made is counted.
 */
async function interruptedCreate(extra: Partial<Provider<Props, Props>>) {
  const cloud: string[] = [];
  let hang = true;
  const provider: Provider<Props, Props> = {
    ...extra,
    async create({ inputs }) {
      cloud.push(inputs.name);
      if (hang && inputs.name === "a") return new Promise(() => {});
      return { id: `${inputs.name}-${cloud.length}`, outputs: inputs };
    },
    async read({ outputs }) {
      return outputs;
    },
    async delete() {},
  };
  const Box = defineResource<Props, Props>(`ic:t${++types}:Box`, { provider, schema: { inputs: { name: {} }, outputs: { name: {} } } });
  const dir = await mkdtemp(join(tmpdir(), "cairn-ic-"));
  dirs.push(dir);
  const prog = new Program("ic", () => {
    new Box("a", { name: "a" }, { customTimeouts: { create: milliseconds(100) } });
    new Box("b", { name: "b" });
  }, { dir, command: "npx tsx infra.ts" });
  const stack = prog.stack({ clock: new FakeClock({ auto: true }), passphrase: "ic" });
  const warnings: string[] = [];
  stack.events.subscribe((e) => e.type === "diagnostic" && e.severity === "warning" && warnings.push(e.summary));
  const first = await stack.up();
  expect(first.summary?.ok).toBe(false);
  hang = false;
  return { stack, cloud, warnings, urn: `urn:cairn:dev::ic::ic:t${types}:Box::a` };
}

describe("an interrupted create whose id was never recorded", () => {
  it("stops the next up before planning when its provider can neither resume nor repeat a create, naming it and the ways on", async () => {
    const { stack, cloud, urn } = await interruptedCreate({});
    expect(cloud.sort()).toEqual(["a", "b"]);
    const err = (await stack.up().catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(new RegExp(`^An interrupted create may have made an object the state does not record:\\n {2}- ${urn} \\(a ic:t\\d+:Box, started \\S+\\)\\n`));
    expect(err.message).toContain(`\`npx tsx infra.ts state import ic:t${urn.split(":t")[1]!.split(":")[0]}:Box ${urn} <id> --forget-interrupted ${urn}\``);
    expect(err.message).toContain(`\`npx tsx infra.ts up --forget-interrupted ${urn}\` creates it`);
    await expect(stack.preview()).rejects.toThrow(urn);
    expect(cloud.sort()).toEqual(["a", "b"]); // nothing made
  });

  it("is made again when its provider declares idempotentCreate", async () => {
    const { stack, cloud, warnings, urn } = await interruptedCreate({ idempotentCreate: true });
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(warnings.join("\n")).toContain(`An interrupted create of ${urn}`);
    expect(warnings.join("\n")).toMatch(/its provider makes creating it again safe .*: the next plan creates it\./);
    expect(cloud.sort()).toEqual(["a", "a", "b"]);
  });

  it("is made again when its provider resumes creates but noted nothing: such a provider notes before it sends", async () => {
    const { stack, cloud, warnings } = await interruptedCreate({ resume: async () => ({ kind: "unknown", message: "never asked" }) });
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(warnings.join("\n")).toMatch(/its provider notes every create before sending it, and nothing was noted, so it never reached the cloud: the next plan creates it\./);
    expect(cloud.sort()).toEqual(["a", "a", "b"]);
  });
});
