import type { Urn } from "../core/urn.js";
import type { ResourceState, StackState } from "../state/types.js";
import type { PlanDiagnostic, PlanStep } from "./plan.js";
import { priorOf } from "./context.js";
import { deleteLoss } from "./data-loss.js";

/** Recorded resources that depend on each URN. */
function dependentsIndex(state: StackState): Map<string, ResourceState[]> {
  const out = new Map<string, ResourceState[]>();
  for (const r of Object.values(state.resources)) {
    for (const d of r.deps) {
      const list = out.get(d);
      if (list) list.push(r);
      else out.set(d, [r]);
    }
  }
  return out;
}

/**
 * The URNs a destroy of `targets` removes: the targets and, transitively, every recorded resource that
 * depends on one (it would be left referencing an object that no longer exists).
 *
 * @example destroyScope(state, ["urn:…::zone"]) // zone and the records in it
 */
export function destroyScope(state: StackState, targets: readonly string[]): Set<string> {
  const dependents = dependentsIndex(state);
  const out = new Set<string>();
  const visit = (urn: string) => {
    if (out.has(urn) || !state.resources[urn]) return;
    out.add(urn);
    for (const r of dependents.get(urn) ?? []) visit(r.urn);
  };
  for (const t of targets) visit(t);
  return out;
}

/**
 * A delete step for a recorded resource, or for one of its deposed objects; marked as data loss when its
 * type is `stateful` and the object goes (not retained, not deposed).
 */
function deleteStep(r: ResourceState, stateful: (type: string) => boolean, deposed?: NonNullable<ResourceState["deposed"]>[number]): PlanStep {
  const o = deposed ?? r;
  const step: PlanStep = {
    kind: "delete", urn: r.urn, type: r.type, deps: [], id: o.id, olds: o.inputs, outputs: o.outputs,
    retain: deposed ? false : (r.retainOnDelete ?? false), deposed: deposed !== undefined, secretKeys: o.secretKeys ?? [],
    prior: priorOf({ deps: deposed ? (deposed.deps ?? r.deps) : r.deps, provider: deposed?.provider ?? r.provider, timeouts: r.timeouts }),
  };
  // Asked only of an object that goes: most deletes are of types with no schema lookup needed.
  const loss = !step.retain && !step.deposed ? deleteLoss(step, stateful(r.type)) : undefined;
  if (loss) step.dataLoss = loss;
  return step;
}

/**
 * Deletes for state entries the program no longer declares, and for every deposed object (old objects an
 * interrupted replace left behind). Their order comes from the action graph: an object is deleted only
 * after everything that references it lets go.
 *
 * @param inScope which state entries may be deleted (undefined: all)
 */
export function planDeletes(
  state: StackState,
  /** True for the records the program (or a later round) keeps. */
  claimed: (urn: string) => boolean,
  inScope: ReadonlySet<string> | undefined,
  diagnostics: PlanDiagnostic[],
  /** True for a type whose objects hold data (their deletes are marked as data loss). */
  stateful: (type: string) => boolean = () => false,
): PlanStep[] {
  const out: PlanStep[] = [];
  // Every record is looked at, in a change to 100,000 resources too: no list of them, no empty list each.
  for (const urn in state.resources) {
    const r = state.resources[urn]!;
    if (inScope && !inScope.has(r.urn)) continue;
    if (r.deposed) for (const d of r.deposed) out.push(deleteStep(r, stateful, d));
    if (claimed(r.urn)) continue;
    if (r.protect && !r.retainOnDelete) {
      diagnostics.push({
        severity: "error",
        urn: r.urn,
        summary: `${r.urn} is protected and cannot be deleted. It is no longer in the program: put it back, or set protect: false on it and run up before removing it (or run \`state unprotect ${r.urn}\`).`,
      });
    }
    out.push(deleteStep(r, stateful));
  }
  return out;
}

/** Refuses deletes whose provider no loaded code defines. */
export function checkDeleteProviders(steps: readonly PlanStep[], known: (type: string, urn: Urn) => boolean, diagnostics: PlanDiagnostic[]): void {
  for (const s of steps) {
    if (s.kind === "delete" && !s.retain && !known(s.type, s.urn)) {
      diagnostics.push({
        severity: "error",
        urn: s.urn as Urn,
        summary: `Cannot delete ${s.urn}: no resource type "${s.type}" is defined in this program, so its provider is unknown. Keep importing the module that defines "${s.type}" until its resources are deleted.`,
      });
    }
  }
}
