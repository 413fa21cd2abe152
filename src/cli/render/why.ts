import { isDeepStrictEqual } from "node:util";
import type { Plan, PlanStep, ReplaceReason } from "../../plan/plan.js";
import { containsUnknown } from "../../core/unknown.js";
import type { ProviderRecord } from "../../state/types.js";
import { changeVerb } from "../../plan/plan-wait.js";
import { nameOf } from "../../core/urn.js";
import { referenceWhy, stackReadReasons } from "./stack-reasons.js";
import { STACK_REFERENCE_TYPE } from "../../program/stack-reference.js";

type Step<K extends PlanStep["kind"]> = Extract<PlanStep, { kind: K }>;

/**
 * What a plan does to a step as dependents' reasons quote it (`is replaced`), or undefined when it does
 * nothing to it (unchanged, a read done now, a wait not needed).
 * @example plannedVerb(replaceStep) // "is replaced"
 */
export function plannedVerb(step: PlanStep): string | undefined {
  if (step.kind === "same" || (step.kind === "read" && !step.deferred) || (step.kind === "wait" && !step.needed)) return undefined;
  return step.kind === "wait" ? "is waited for" : changeVerb(step);
}

/**
 * Attributes the plan changes because they changed outside Cairn (drift): a refresh recorded what the
 * cloud holds (the step's `drift`), or the provider saw the object differ though the inputs did not.
 * @example driftedKeys(updateStep) // ["content"] when only the cloud's copy changed
 */
export function driftedKeys(step: Step<"update"> | Step<"replace">): string[] {
  const sameInputs = step.changed.filter((k) => k in step.olds && k in step.news && !containsUnknown(step.news[k]) && isDeepStrictEqual(step.olds[k], step.news[k]));
  return [...new Set([...step.drift, ...sameInputs])];
}

// One URN index per plan, built on first use: rendering asks for the "why" of every changed step, and a
// map rebuilt per step made a 1% change to 100,000 resources quadratic (34 s). Keyed by the steps array, so
// a plan given new steps gets a new index; weak, so it goes with the plan.
const stepIndexes = new WeakMap<readonly PlanStep[], Map<string, PlanStep>>();

/**
 * The plan's steps by URN, built once per steps array (later calls for the same plan reuse it).
 * @example stepsByUrn(plan).get("urn:cairn:dev::site::aws:acm:Certificate::cert")?.kind // "replace"
 */
function stepsByUrn(plan: Pick<Plan, "steps">): ReadonlyMap<string, PlanStep> {
  let index = stepIndexes.get(plan.steps);
  if (!index) stepIndexes.set(plan.steps, (index = new Map(plan.steps.map((s) => [s.urn as string, s]))));
  return index;
}

/** Dependencies of a step that change in this plan, as `zone (is replaced)` phrases. */
function changingDeps(step: PlanStep, plan: Plan): string[] {
  const byUrn = stepsByUrn(plan);
  const out: string[] = [];
  for (const d of step.deps) {
    const s = byUrn.get(d);
    const verb = s && plannedVerb(s);
    if (!verb) continue;
    out.push(s.kind === "wait" ? `${s.name} (a wait that runs)` : `${nameOf(d)}, which ${verb}`);
  }
  return out;
}

/**
 * `a, b and c`.
 * @example listText(["a", "b", "c"]) // "a, b and c"
 */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Where a changed attribute's new value comes from: the program, or a dependency that changes (value unknown until it has). */
function causes(step: Step<"update"> | Step<"replace">, keys: readonly string[], plan: Plan): string {
  const drifted = new Set(driftedKeys(step));
  const fromDeps = keys.filter((k) => containsUnknown(step.news[k]));
  const parts: string[] = [];
  const edited = keys.filter((k) => !drifted.has(k) && !fromDeps.includes(k));
  const reads = edited.length ? stackReadReasons(step, plan) : [];
  if (edited.length) parts.push(`${listText(edited)} changed ${reads.length ? `(${listText(reads)})` : "in the program"}`);
  const deps = changingDeps(step, plan);
  if (fromDeps.length) parts.push(`${listText(fromDeps)} ${fromDeps.length === 1 ? "comes" : "come"} from ${deps.length ? listText(deps) : "a resource that changes"}`);
  const d = keys.filter((k) => drifted.has(k));
  if (d.length) parts.push(`${listText(d)} changed outside Cairn (drift): the declared value is put back`);
  return parts.join("; ");
}

function formatSettings(p: ProviderRecord | undefined): string {
  const entries = Object.entries(p?.settings ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(" ") : "default";
}

/** Why a replace happens, for each {@link ReplaceReason}. */
function replaceWhy(step: Step<"replace">, plan: Plan): string {
  const reason: ReplaceReason = step.reason;
  switch (reason) {
    case "attributes": {
      const keys = step.replaceKeys.length ? step.replaceKeys : step.changed;
      return `${causes(step, keys, plan)}, and ${keys.length === 1 ? "it forces" : "they force"} a replacement`;
    }
    case "replaceOnChanges":
      return `${causes(step, step.replaceKeys, plan)}, and replaceOnChanges lists ${step.replaceKeys.length === 1 ? "it" : "them"}`;
    case "tainted":
      return "the object is tainted (its create failed part-way)";
    case "requested":
      return "replacement requested with --replace";
    case "provider":
      return `provider settings changed (${formatSettings(step.prior.provider)} → ${formatSettings(step.meta.provider)}): the object moves`;
    case "dependency":
      return `replaced delete-first because it references ${nameOf(step.cause ?? "")}, which is deleted first: it must not be left using an object that is gone`;
    case "triggered":
      return `replaceTriggeredBy: ${step.cause ?? "a value changed"}`;
    default: {
      const never: never = reason;
      return `replace reason: ${String(never)}`;
    }
  }
}

/** `import: adopts the existing object <id>; then <why>` for an adopted object that also changes. */
function adopting(step: Step<"update"> | Step<"replace">, why: string): string {
  return step.adopt ? `import: adopts the existing object ${step.adopt.id}; then ${why}` : why;
}

/**
 * Why a step is in the plan, in words: which inputs changed (in the program, through a dependency, or by
 * drift), `--replace`, a tainted object, a provider move, a resource no longer declared. Undefined when the
 * step speaks for itself (a create, an unchanged resource; waits carry their own `why`).
 *
 * @example whyOf(updateStep, plan) // "content changed in the program"
 */
export function whyOf(step: PlanStep, plan: Plan): string | undefined {
  switch (step.kind) {
    case "create":
      return undefined;
    case "update":
      if (step.type === STACK_REFERENCE_TYPE) return referenceWhy(step);
      return adopting(step, causes(step, step.changed, plan)) || undefined;
    case "replace":
      return adopting(step, replaceWhy(step, plan));
    case "delete":
      if (step.deposed) return "an old object left by an interrupted replace";
      if (plan.mode === "destroy") return undefined;
      return step.retain ? "no longer in the program; retainOnDelete: the cloud object is kept, only forgotten" : "no longer in the program";
    case "read":
      return step.deferred ? "read during apply (its inputs depend on changes in this plan)" : undefined;
    case "wait":
      return step.needed ? step.why : undefined;
    case "same":
      if (step.adopt) return `import: adopts the existing object ${step.adopt.id}, which already matches the program`;
      return step.movedFrom ? `moved from ${step.movedFrom} (an alias): same object, new URN` : undefined;
    default: {
      const never: never = step;
      return never;
    }
  }
}
