import type { GraphNode } from "../program/node.js";
import type { NodeValues } from "../program/node-table.js";
import { nameOf, type Urn } from "../core/urn.js";
import type { StackState } from "../state/types.js";
import type { PlanDiagnostic, PlanStep } from "./plan.js";
import { stepKindOf } from "./steps/index.js";


/**
 * `"b" → "a"`: the chain of references that forces `urn` to be replaced delete-first, from the resource
 * itself to the one whose own delete-first replace started it (each references the next).
 *
 * @example deleteFirstChain("urn:…::b", new Map([["urn:…::b", "urn:…::a"]])) // '"b" → "a"'
 */
export function deleteFirstChain(urn: string, forced: ReadonlyMap<Urn, Urn>): string {
  const chain = [urn];
  for (let at = forced.get(urn as Urn); at && !chain.includes(at); at = forced.get(at)) chain.push(at);
  return chain.map((u) => `"${nameOf(u)}"`).join(" → ");
}

/**
 * Resources that must also be replaced delete-first because an object they reference is replaced
 * delete-first: its delete cannot wait for them to be re-created (they need it to exist first), so they
 * are deleted before it and re-created after. A resource that no longer depends on it is left alone (it
 * lets go when it is updated, before the delete).
 *
 * @returns new entries (URN → the dependency deleted first), and errors for those that cannot be replaced
 */
export function cascadeDeleteFirst(
  steps: NodeValues<GraphNode, PlanStep>,
  state: StackState,
  forced: ReadonlyMap<Urn, Urn>,
  inTarget: ReadonlySet<GraphNode> | undefined,
): { add: Map<Urn, Urn>; errors: PlanDiagnostic[] } {
  const add = new Map<Urn, Urn>();
  const errors: PlanDiagnostic[] = [];
  const deleteFirst: Extract<PlanStep, { kind: "replace" }>[] = [];
  // forEach, not `for…of`: no iterator result per step while this code is not yet optimised.
  steps.forEach((s) => {
    if (s.kind === "replace" && s.deleteFirst) deleteFirst.push(s);
  });
  if (deleteFirst.length === 0) return { add, errors };
  const byStateUrn = new Map<string, { node: GraphNode; step: PlanStep }>();
  for (const [node, step] of steps) byStateUrn.set("movedFrom" in step && step.movedFrom ? step.movedFrom : step.urn, { node, step });
  for (const step of deleteFirst) {
    const stateUrn = step.movedFrom ?? step.urn;
    for (const r of Object.values(state.resources)) {
      if (!r.deps.includes(stateUrn as Urn)) continue;
      const user = byStateUrn.get(r.urn);
      if (!user || !stepKindOf(user.step).holdsOn(user.step) || forced.has(user.step.urn) || add.has(user.step.urn)) continue;
      if (!("meta" in user.step) || !user.step.meta.deps.includes(step.urn)) continue;
      if (inTarget && !inTarget.has(user.node)) {
        errors.push({
          severity: "error",
          urn: user.step.urn,
          summary: `"${nameOf(step.urn)}" is deleted before it is re-created, so "${user.node.name}", which references it, must be replaced the same way; but it is outside --target. Add --target ${user.step.urn}.`,
        });
        continue;
      }
      add.set(user.step.urn, step.urn);
    }
  }
  return { add, errors };
}
