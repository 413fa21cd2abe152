import * as z from "zod/mini";
import type { Urn } from "../../core/urn.js";
import { nameOf } from "../../core/urn.js";
import type { Predicate } from "../../core/predicate.js";
import { formatDuration } from "../../core/duration.js";
import { actionId, addFields, jsonBase, jsonParts, planParts, plainAction } from "./step-parts.js";
import type { ActionBase, ActionSpec, StepBase, StepKindSpec } from "./step-parts.js";

/** A `wait(…)`: it polls its target until `until` holds, and gates what reads it. It has no row in state. */
export interface WaitStep extends StepBase {
  kind: "wait";
  /** Display name: the user's `name`, or `wait(<target>)`. */
  name: string;
  named: boolean;
  /** The resource, lookup or wait waited on, and its name as predicates print it. */
  target: Urn;
  subject: string;
  until: Predicate;
  untilText: string;
  /** The failure condition in force: the wait's own, or the target type's default. */
  failWhen?: Predicate;
  failWhenText?: string;
  reasonAttribute?: string;
  timeoutMs: number;
  intervalMs: number;
  /** The timeout is the default (the type's, else Cairn's): plans print it only when it is not. */
  defaultTimeout: boolean;
  /** False when it held on a recorded read and nothing around it changed since: it is skipped and makes no reads. */
  needed: boolean;
  /** Why it runs, or why it is not needed. */
  why: string;
  /** It runs because it has not held yet (whatever `why` names first): what uses it waits for that. */
  notHeld?: boolean;
  /** Whether `until` holds on the last known state ("ready now?"); null when that state is not known yet. */
  readyNow: boolean | null;
}

/** Polling the target until the wait ends. */
export type WaitAction = ActionBase<"wait", WaitStep>;

/** A wait as a saved plan holds it. */
export const waitSchema = z.object({
  ...planParts.base, kind: z.literal("wait"), name: z.string(), named: z.boolean(), target: planParts.urn, subject: z.string(), until: z.unknown(), untilText: z.string(),
  failWhen: z.optional(z.unknown()), failWhenText: z.optional(z.string()), reasonAttribute: z.optional(z.string()),
  timeoutMs: z.number().check(z.positive()), intervalMs: z.number().check(z.positive()), defaultTimeout: z.boolean(), needed: z.boolean(), why: z.string(),
  notHeld: z.optional(z.boolean()), readyNow: z.nullable(z.boolean()),
});

/** A wait as `--json` prints it: its target, condition, timeout, and whether it runs. */
export const waitJson = z.strictObject({
  ...jsonParts.base, op: z.literal("wait"), target: z.string(), until: z.string(), fail_when: z.optional(z.string()), timeout_ms: z.number(), needed: z.boolean(), ready_now: z.nullable(z.boolean()),
});

/** The lines under a wait that runs: its timeout when not the default, its failure condition, what it follows, why. */
function lines(step: WaitStep): string[] {
  const out: string[] = [];
  if (!step.defaultTimeout) out.push(`timeout ${formatDuration(step.timeoutMs, { short: true })}`);
  if (step.failWhenText) out.push(`fails at once when ${step.failWhenText}`);
  const after = step.deps.filter((d) => d !== step.target).map(nameOf);
  if (after.length) out.push(`after ${after.join(", ")}`);
  out.push(step.why);
  return out;
}

/** The wait step kind. */
export const waitStep: StepKindSpec<WaitStep, WaitAction, z.infer<typeof waitJson>> = {
  kind: "wait",
  deletesOrReplaces: false,
  inProgram: true,
  recorded: false,
  holdsOn: () => false,
  look: () => "wait",
  changing: (step) => step.needed,
  // A wait changes nothing by itself: it only runs around changes.
  changes: () => false,
  listed: () => true,
  counted: (step) => step.needed,
  countText: (n) => `${n} wait${n === 1 ? "" : "s"}`,
  actions: (step) => (step.needed ? [{ id: actionId(step, "wait"), kind: "wait", step, index: -1 }] : []),
  operations: (step, plan) => (step.needed ? [{ type: plan.waitedType(step.target), operation: "read", polled: true }] : []),
  decision: (step) => `${step.needed ? "runs" : "not needed"} (${step.why})`,
  whatHappens: "runs",
  label: () => ">",
  color: "blue",
  line: (step, c) => {
    const text = `> ${step.name} (until ${step.untilText})`;
    return step.needed ? c.blue(text) : c.dim(`${text}  not needed`);
  },
  displayName: (step) => step.name,
  notNeeded: (step) => (step.needed ? undefined : step.why),
  asDependency: (step) => `${step.name} (a wait that runs)`,
  why: (step) => (step.needed ? step.why : undefined),
  details: (step, _plan, declared, o) => (step.needed ? [...lines(step), ...declared].map(o.colors.dim) : []),
  toJson: (step) =>
    addFields(jsonBase(step, step.needed ? step.why : undefined, step.name, "cairn:wait"), {
      target: step.target, until: step.untilText, fail_when: step.failWhenText || undefined, timeout_ms: step.timeoutMs, needed: step.needed, ready_now: step.readyNow,
    }),
};

/** The wait action kind. */
export const waitAction: ActionSpec<WaitAction> = {
  ...plainAction,
  kind: "wait",
  callsProvider: false,
  // Waits mostly sleep between reads: they take no `--parallel` slot.
  slot: false,
  polls: true,
  makesValue: true,
  releases: false,
  deletesObject: false,
  doneText: "waited for",
  runningText: "waiting for",
  afterFailure: (command) => `nothing after the wait ran; run \`${command} up\` again once the target is ready`,
};
