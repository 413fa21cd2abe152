/**
 * The conformance sweep of one type on the fake Cloud Control, through Cairn's engine: create → refresh →
 * preview with a refresh (no changes) → change one mutable property (no write-only value lost) → import the
 * object into a fresh stack (no changes) → destroy. The first stage that fails is the type's result.
 */
import { Program } from "../../src/index.js";
import { hasChanges, type Plan } from "../../src/plan/plan.js";
import { fromCloud } from "../../src/providers/aws/cloudcontrol/convert.js";
import { loadType, moduleOf } from "../../src/providers/aws/cloudcontrol/types.js";
import type { TypeInfo } from "../../src/providers/aws/cloudcontrol/type-spec.js";
import type { FakeCloudControl } from "../../src/testing/cloudcontrol/fake-cloud.js";
import { schemaProblems } from "../../src/testing/cloudcontrol/fake-validate.js";
import { touches } from "../../src/testing/cloudcontrol/fake-paths.js";
import { changedModel, minimalFromSchema, minimalFromSpec } from "./model.js";

/** The sweep's stages, in order. */
export const STAGES = ["model", "create", "refresh", "preview", "change", "import", "destroy"] as const;
/** One stage. */
export type Stage = (typeof STAGES)[number];

/** One type's result: `failed` names the first stage that failed, and why. */
export interface SweepResult {
  type: string;
  passed: Stage[];
  failed?: { stage: Stage; reason: string };
  /** The property the change stage changed, or why it changed none. */
  changed?: string;
}

/**
 * What the sweep runs against. The stacks use the default AWS provider, configured from the environment to
 * reach the fake (`fake.env`), as a user's program run against `cairn fake-aws` does.
 */
export interface SweepContext {
  cloud: FakeCloudControl;
  schemaOf: (typeName: string) => Record<string, unknown> | undefined;
}

type Json = Parameters<typeof fromCloud>[1][string];
type ResourceClass = new (name: string, args: unknown, opts?: { import?: string }) => unknown;

let runs = 0;

async function classOf(info: TypeInfo): Promise<ResourceClass> {
  const mod = (await import(`cairn-iac/aws/${moduleOf(info.cfnType)}`)) as Record<string, unknown>;
  const cls = Object.values(mod).find((v) => typeof v === "function" && (v as { type?: string }).type === info.token);
  if (!cls) throw new Error(`no class of ${info.token} in cairn-iac/aws/${moduleOf(info.cfnType)}`);
  return cls as ResourceClass;
}

const changes = (plan: Plan): string =>
  plan.steps
    .filter((s) => s.kind !== "same")
    .map((s) => `${s.kind}${"changed" in s && Array.isArray(s.changed) ? ` (${s.changed.join(", ")})` : ""}${"replaceKeys" in s && Array.isArray(s.replaceKeys) ? ` (${s.replaceKeys.join(", ")})` : ""}`)
    .concat(plan.drift.map((d) => `drift: ${d.kind === "drift" ? d.changed.join(", ") : "gone"}`), plan.refresh.map((m) => `state: ${m.kind}`))
    .join("; ");

/** Runs the stages for one type. @example const r = await sweepType(ctx, "AWS::SQS::Queue"); */
export async function sweepType(ctx: SweepContext, cfnType: string): Promise<SweepResult> {
  const result: SweepResult = { type: cfnType, passed: [] };
  const fail = (stage: Stage, reason: string) => ((result.failed = { stage, reason: reason.replace(/\s+/g, " ").slice(0, 400) }), result);
  const info = await loadType(cfnType);
  if (!info) return fail("model", "Cairn generates no such type");
  const schema = ctx.schemaOf(cfnType);
  const model = schema ? minimalFromSchema(schema, info) : minimalFromSpec(info);
  const invalid = schema && schemaProblems(schema, model);
  if (invalid) return fail("model", `no schema-valid minimal model: ${invalid}`);
  result.passed.push("model");
  const cls = await classOf(info);
  const n = ++runs;
  let inputs = fromCloud(info, model as Record<string, Json>);
  const failures: string[] = [];
  const stackOf = (name: string, fn: () => void) => {
    const stack = new Program(`sweep${n}`, fn).stack({ backend: `memory://${name}-${n}`, passphrase: "sweep" });
    stack.events.subscribe((e) => void (e.type === "step-failed" && failures.push(e.error)));
    return stack;
  };
  const stack = stackOf("sweep", () => void new cls("obj", inputs));
  const up = async (stage: Stage) => {
    const r = await stack.up();
    return r.summary?.ok ? undefined : fail(stage, failures.join("; ") || "up failed");
  };
  try {
    if (await up("create")) return result;
    result.passed.push("create");
    await stack.refresh();
    result.passed.push("refresh");
    const again = await stack.preview({ refresh: true });
    if (hasChanges(again)) return fail("preview", `changes after a refresh: ${changes(again)}`);
    result.passed.push("preview");
    const change = changedModel(info, schema, model);
    if (change) {
      const mark = ctx.cloud.lostWriteOnly.length;
      inputs = fromCloud(info, change.model as Record<string, Json>);
      result.changed = change.property;
      if (await up("change")) return result;
      // A write-only value that is also create-only cannot be re-sent (the patch would be refused) and only
      // matters at create: losing it from the update's model is what AWS does too.
      const createOnly = (path: string) => info.registry.createOnly.some((c) => touches(path.split("/"), c));
      const lost = ctx.cloud.lostWriteOnly.slice(mark).map((l) => l.path).filter((p) => !createOnly(p));
      if (lost.length) return fail("change", `write-only values lost by the update: ${lost.join(", ")}`);
    } else result.changed = "(no mutable property the sweep can change)";
    result.passed.push("change");
    const id = ctx.cloud.objects(cfnType).at(-1)?.identifier;
    if (!id) return fail("import", "the fake holds no object to import");
    const adopted = stackOf("import", () => void new cls("obj", inputs, { import: id }));
    const imported = await adopted.preview();
    if (imported.steps.some((s) => s.kind !== "same") || imported.diagnostics.some((d) => d.severity === "error")) return fail("import", `import plans changes: ${changes(imported)} ${imported.diagnostics.map((d) => d.summary).join("; ")}`);
    result.passed.push("import");
    const down = await stack.destroy();
    if (!down.summary?.ok) return fail("destroy", failures.join("; ") || "destroy failed");
    if (ctx.cloud.objects(cfnType).length) return fail("destroy", "the object is still there");
    result.passed.push("destroy");
    return result;
  } catch (e) {
    const stage = STAGES[result.passed.length] ?? "destroy";
    return fail(stage, (e as Error).message);
  }
}
