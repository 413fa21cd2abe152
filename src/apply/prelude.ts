import type { Plan, PlanStep } from "../plan/plan.js";
import { knownValue, unknownValue, type ValueResolver } from "../runtime/values.js";
import type { GraphNode } from "../program/node.js";
import type { NodeValues } from "../program/node-table.js";
import type { StateMutation } from "../state/types.js";
import type { JournalWriter } from "../state/journal-writer.js";
import { secretsOf } from "./handlers/common.js";
import { stepHandlerOf } from "./handlers/index.js";

/**
 * Records what needs no provider call before anything runs: what a refresh found, then what each step's
 * kind records first (`StepHandler.before`: adopted objects, renames and option changes of unchanged resources).
 *
 * @example recordPrelude(plan, journal) // before the scheduler starts
 */
export function recordPrelude(plan: Plan, journal: JournalWriter): void {
  if (plan.refresh.length) journal.mutate(plan.refresh);
  const mutations: StateMutation[] = [];
  for (const step of plan.steps) stepHandlerOf(step).before?.(step, journal.state, mutations);
  if (mutations.length) journal.mutate(mutations);
}

/** The value of a node whose step makes no value at apply: what its step's kind says, else from state. */
function valueWithoutAction(node: GraphNode, step: PlanStep | undefined, journal: JournalWriter, values: ValueResolver): void {
  if (step && stepHandlerOf(step).withoutAction?.(step, node, values)) return;
  const record = journal.state.resources[node.urn];
  if (record) values.publish(node, knownValue(record.id, record.outputs, secretsOf(node, record.secretKeys)));
  else values.publish(node, unknownValue(secretsOf(node, undefined)));
}

/**
 * Publishes the values of every program node no action will produce (unchanged resources, reads done while
 * planning, waits that are not needed, nodes outside `--target`), so the actions that read them can resolve.
 *
 * @example publishWithoutActions(graph.order, plan, producedByActions, journal, values)
 */
export function publishWithoutActions(order: readonly GraphNode[], plan: Plan, producing: NodeValues<GraphNode, true>, journal: JournalWriter, values: ValueResolver): void {
  let told: Map<string, PlanStep> | undefined; // made only if a node gets its value without an action (none in a fresh up)
  for (const n of order) {
    if (producing.has(n)) continue;
    told ??= stepsThatTell(plan);
    valueWithoutAction(n, told.get(n.urn), journal, values);
  }
}

/**
 * The steps whose kind may give a node no action runs for its value rather than its record (`StepHandler.withoutAction`:
 * reads and waits, few): the map holds those alone, not every step.
 */
function stepsThatTell(plan: Plan): Map<string, PlanStep> {
  const out = new Map<string, PlanStep>();
  for (const s of plan.steps) if (stepHandlerOf(s).withoutAction) out.set(s.urn, s);
  return out;
}
