import { firstValueFrom } from "rxjs";
import type { Graph } from "../graph/graph.js";
import type { GraphNode, WaitNode } from "../program/node.js";
import type { NodeValues } from "../program/node-table.js";
import { UNKNOWN } from "../core/unknown.js";
import type { Props } from "../state/types.js";
import { DEFAULT_WAIT_INTERVAL, DEFAULT_WAIT_TIMEOUT, rootTarget } from "../wait/wait.js";
import { evaluate, formatPredicate } from "../core/predicate.js";
import { isChanging, type PlanStep } from "./plan.js";
import { stepKindOf } from "./steps/index.js";
import type { ResourceValue } from "../runtime/values.js";
import type { PlanContext } from "./context.js";
import { deferNode, dependencyDeferrals } from "./deferral.js";
import { heldMark, stillHeld } from "../wait/held.js";
import { resolveInputs } from "../runtime/resolve-inputs.js";
import { containsUnknown } from "../core/unknown.js";
import type { Resolver } from "../program/output.js";

/** How a step reads in a wait's "runs because ..." note: `is replaced`. */
const whatHappensTo = (s: PlanStep): string => stepKindOf(s).whatHappens;

/**
 * The value a wait that runs hands on: the snapshot of a read still to come, so every attribute is
 * "known after apply" but the id and the attributes the type declares stable.
 */
function gatedValue(target: ResourceValue, node: WaitNode): ResourceValue {
  const stable = Object.entries(rootTarget(node).definition.schema?.outputs ?? {}).filter(([, a]) => a.stable).map(([k]) => k);
  const outputs: Props = {};
  for (const k of stable) if (k in target.outputs && !target.unknown.has(k)) outputs[k] = target.outputs[k];
  return { id: target.id, outputs, unknown: new Set(), restUnknown: true, secretKeys: target.secretKeys };
}

/** The reason a wait runs when nothing around it changes but it has not held: `healthy has not held yet`. */
const notHeld = (name: string) => `${name} has not held yet`;

/**
 * Whether the wait's `until` held in an earlier run and still counts (see `src/wait/held.ts`). For a
 * target with a state record, the record must carry the wait's mark; a lookup has none, but this plan read
 * it afresh, so `until` holding on that read is a read made in this run.
 */
function heldBefore(node: WaitNode, target: ResourceValue, untilText: string, ctx: PlanContext): boolean {
  const root = rootTarget(node);
  if (root.kind === "lookup") return target.id !== UNKNOWN && !target.restUnknown && evaluate(node.wait.until, { id: target.id, ...target.outputs });
  return stillHeld(ctx.input.state.resources[root.urn], { mark: heldMark(node.urn, untilText), until: node.wait.until, id: target.id });
}

/**
 * Why the wait runs: its target or a dependency changes (or a user of it does, found by an earlier pass),
 * or its condition has not held since its target was last written.
 */
function reasonsToRun(node: WaitNode, deps: readonly GraphNode[], ctx: PlanContext, held: () => boolean): string[] {
  const reasons: string[] = [];
  for (const d of deps) {
    const s = ctx.steps.get(d);
    if (s && isChanging(s)) reasons.push(`${d === node.wait.target ? d.name : `${d.name} (a dependency)`} ${whatHappensTo(s)}`);
  }
  if (reasons.length) return reasons;
  if (!held()) return [notHeld(node.name)];
  const user = ctx.forced.waits.get(node.urn);
  return user ? [user] : [];
}

/** A wait's step: the target's planned value passes through, gated (unknown) when the wait runs. */
export async function planWait(node: WaitNode, ctx: PlanContext): Promise<void> {
  const spec = node.wait;
  const scope = ctx.resolver.scope(node);
  const targetValue = await firstValueFrom(scope.value(spec.target));
  const graphDeps = ctx.input.graph.deps.get(node) ?? [];
  // A dependency's step is recorded before its value is published: wait for all of them, or a slow
  // provider diff would make a changing dependency look unchanged (and the wait wrongly not needed).
  const { deferred, extra } = await dependencyDeferrals(node, graphDeps, scope, targetValue.deferred);
  if (deferred.length) return deferNode(node, deferred, ctx);
  const deps = extra.length ? [...graphDeps, ...extra] : graphDeps;
  const untilText = formatPredicate(spec.until, spec.subject);
  const held = () => heldBefore(node, targetValue, untilText, ctx);
  // Outside `--target` the wait does not run: it hands its value on only when it held before.
  if (ctx.inTarget && !ctx.inTarget.has(node)) return ctx.publish(node, held() ? targetValue : gatedValue(targetValue, node));
  const schemaWait = rootTarget(node).definition.schema?.wait;
  const defaultTimeout = schemaWait?.timeout ?? DEFAULT_WAIT_TIMEOUT;
  const timeoutMs = spec.timeout ?? defaultTimeout;
  const failWhen = spec.failWhen ?? schemaWait?.failWhen;
  const reasons = reasonsToRun(node, deps, ctx, held);
  const known = targetValue.id !== UNKNOWN && !targetValue.restUnknown && targetValue.unknown.size === 0;
  const step: PlanStep = {
    kind: "wait", urn: node.urn, type: node.type, deps: deps.map((d) => d.urn),
    name: node.name, named: spec.named, target: spec.target.urn, subject: spec.subject,
    until: spec.until, untilText,
    timeoutMs, intervalMs: spec.interval ?? schemaWait?.interval ?? DEFAULT_WAIT_INTERVAL, defaultTimeout: timeoutMs === defaultTimeout,
    needed: reasons.length > 0,
    why: reasons.length ? `runs because ${reasons.join(", ")}` : "not needed: nothing it guards changes",
    readyNow: known ? evaluate(spec.until, { id: targetValue.id, ...targetValue.outputs }) : null,
  };
  if (failWhen) {
    step.failWhen = failWhen;
    step.failWhenText = formatPredicate(failWhen, spec.subject);
  }
  if (schemaWait?.reasonAttribute) step.reasonAttribute = schemaWait.reasonAttribute;
  if (reasons.length === 1 && reasons[0] === notHeld(node.name)) step.notHeld = true;
  ctx.steps.set(node, step);
  ctx.publish(node, step.needed ? gatedValue(targetValue, node) : targetValue);
}

/** The users of each wait (nodes that list it among their dependencies). */
function waitUsers(graph: Graph): Map<GraphNode, GraphNode[]> {
  const users = new Map<GraphNode, GraphNode[]>();
  // Most programs have no wait: then no list of dependencies is looked at.
  if (!graph.order.some((n) => n.kind === "wait")) return users;
  for (const [n, ds] of graph.deps) {
    for (const d of ds) {
      if (d.kind !== "wait") continue;
      const list = users.get(d);
      if (list) list.push(n);
      else users.set(d, [n]);
    }
  }
  return users;
}

/**
 * For waits that run only because they have not held yet, says instead that a user of theirs changes, when
 * one does: that is what the reader of the plan expects to see (a user created, a user updated).
 *
 * @example explainByUsers(graph, ctx.steps)
 */
export function explainByUsers(graph: Graph, steps: NodeValues<GraphNode, PlanStep>): void {
  for (const [wait, users] of waitUsers(graph)) {
    const step = steps.get(wait);
    if (step?.kind !== "wait" || !step.notHeld) continue;
    const u = users.find((x) => {
      const s = steps.get(x);
      return s !== undefined && isChanging(s);
    });
    if (u) step.why = `runs because ${u.name} uses it and ${whatHappensTo(steps.get(u)!)}`;
  }
}

/**
 * Waits that must run because something that uses them changes, though nothing they guard does. The
 * planner plans again with these forced to run: their values become "known after apply", so what uses
 * them is planned against the read still to come rather than the last recorded state.
 */
export function waitsNeededByUsers(graph: Graph, steps: NodeValues<GraphNode, PlanStep>): Map<GraphNode, string> {
  const out = new Map<GraphNode, string>();
  for (const [wait, users] of waitUsers(graph)) {
    const step = steps.get(wait);
    if (step?.kind !== "wait" || step.needed) continue;
    for (const u of users) {
      const s = steps.get(u);
      if (s && isChanging(s)) {
        out.set(wait, `${u.name} uses it and ${whatHappensTo(s)}`);
        break;
      }
    }
  }
  return out;
}

/**
 * For each stack output not known because a wait it reads has not held yet, the note the plan prints with
 * it: `waits for healthy, which has not held yet`. Empty (and nothing resolved again) when no wait of the
 * plan runs for that reason.
 *
 * @example await outputNotes(programOutputs, resolver, outs.values, ctx.steps, graph) // { url: "waits for healthy, which has not held yet" }
 */
export async function outputNotes(outputs: Record<string, unknown>, resolver: Resolver, values: Props, steps: NodeValues<GraphNode, PlanStep>, graph: Graph): Promise<Record<string, string>> {
  const open = graph.order.filter((n) => n.kind === "wait" && steps.get(n)?.kind === "wait" && (steps.get(n) as { notHeld?: boolean }).notHeld);
  const notes: Record<string, string> = {};
  if (!open.length) return notes;
  for (const key of Object.keys(outputs)) {
    if (!containsUnknown(values[key])) continue;
    // One output at a time: the waits it reads are among its own dependencies.
    const { deps } = await resolveInputs({ [key]: outputs[key] }, resolver);
    const waits = open.filter((w) => deps.includes(w as never));
    if (waits.length) notes[key] = `waits for ${waits.map((w) => w.name).join(", ")}, which ${waits.length === 1 ? "has" : "have"} not held yet`;
  }
  return notes;
}
