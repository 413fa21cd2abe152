import { isDeepStrictEqual } from "node:util";
import { firstValueFrom } from "rxjs";
import type { Plan, PlanStep } from "../plan/plan.js";
import { knownValue, unknownValue, type ValueResolver } from "../runtime/values.js";
import type { GraphNode } from "../program/node.js";
import type { NodeValues } from "../program/node-table.js";
import type { StateMutation } from "../state/types.js";
import type { JournalWriter } from "../state/journal-writer.js";
import { recordFor, sameRecord, sameRecordIsPrior } from "./record.js";
import { secretsOf } from "./handlers/common.js";

/**
 * Records what needs no provider call before anything runs: what a refresh found, renames (`aliases`) and
 * option changes (protect, retainOnDelete, timeouts, dependencies) of unchanged resources.
 */
export function recordPrelude(plan: Plan, journal: JournalWriter): void {
  if (plan.refresh.length) journal.mutate(plan.refresh);
  const mutations: StateMutation[] = [];
  for (const step of plan.steps) {
    // An adopted object (`import`) is recorded first: as it is, or for the update or replace that follows.
    if ((step.kind === "same" || step.kind === "update" || step.kind === "replace") && step.adopt) {
      mutations.push({ kind: "upsert", resource: recordFor(step.urn, step.type, step.meta, step.adopt) });
      continue;
    }
    if (step.kind !== "same") continue;
    const prior = journal.state.resources[step.movedFrom ?? step.urn];
    if (!prior || (!step.movedFrom && sameRecordIsPrior(step, prior))) continue;
    const next = sameRecord(step, prior);
    if (step.movedFrom) mutations.push({ kind: "remove", urn: step.movedFrom }, { kind: "upsert", resource: next });
    else if (!isDeepStrictEqual(next, prior)) mutations.push({ kind: "upsert", resource: next });
  }
  if (mutations.length) journal.mutate(mutations);
}

/** The value of a node whose step makes no value at apply: from state, from the plan, or passed through. */
function settledValue(node: GraphNode, step: PlanStep | undefined, journal: JournalWriter, values: ValueResolver): void {
  const record = journal.state.resources[node.urn];
  if (step?.kind === "wait" && node.kind === "wait") {
    // Not needed: it held on a recorded read and nothing it guards changed, so it hands on its target's value unread.
    void firstValueFrom(values.value(node.wait.target)).then((v) => values.publish(node, v));
  } else if (step?.kind === "read" && step.outputs) {
    values.publish(node, knownValue(step.id, step.outputs, secretsOf(node, undefined)));
  } else if (record) {
    values.publish(node, knownValue(record.id, record.outputs, secretsOf(node, record.secretKeys)));
  } else {
    values.publish(node, unknownValue(secretsOf(node, undefined)));
  }
}

/**
 * Publishes the values of every program node no action will produce (unchanged resources, reads done while
 * planning, waits that are not needed, nodes outside `--target`), so the actions that read them can resolve.
 */
export function publishSettled(order: readonly GraphNode[], plan: Plan, producing: NodeValues<GraphNode, true>, journal: JournalWriter, values: ValueResolver): void {
  let told: Map<string, PlanStep> | undefined; // made only if a node is settled (none in a fresh up)
  for (const n of order) {
    if (producing.has(n)) continue;
    told ??= stepsThatTell(plan);
    settledValue(n, told.get(n.urn), journal, values);
  }
}

/**
 * The steps a settled node's value comes from rather than from its record: waits not needed and reads done
 * while planning (few). A map of every step cost ~70 ms at 100,000 unchanged resources, for nothing.
 */
function stepsThatTell(plan: Plan): Map<string, PlanStep> {
  const out = new Map<string, PlanStep>();
  for (const s of plan.steps) if (s.kind === "wait" || s.kind === "read") out.set(s.urn, s);
  return out;
}
