/**
 * Settling an interrupted operation from what its provider found out (`Provider.resume`): the state
 * changes each {@link ResumeResult} means, for each kind of operation.
 */
import type { ProviderInstance, ResumeResult } from "../provider/provider.js";
import { providerRecord } from "../provider/instance.js";
import type { ResourceDefinition } from "../program/node.js";
import { readAsInputs } from "./import.js";
import type { DeposedObject, OperationKind, PendingOperation, Props, ResourceState, StateMutation } from "../state/types.js";
import { withoutDeposed } from "../apply/record.js";

/** The kind of call an operation made: what `Provider.resume` is told. */
export function callKind(kind: OperationKind): "create" | "update" | "delete" {
  return kind === "create" || kind === "replace-create" ? "create" : kind === "update" ? "update" : "delete";
}

/**
 * The record of an object a resumed create made: what was read is its outputs, never its inputs (a value
 * the cloud chose, such as a generated name, is not one the program declared); its inputs are marked
 * unknown, so the next plan compares what the program declares against the object as read. An object it
 * replaced is kept as deposed, for that plan to delete.
 */
function createdRecord(p: PendingOperation, current: ResourceState | undefined, id: string, outputs: Props, def: ResourceDefinition | undefined, instance: ProviderInstance | undefined): ResourceState {
  const { secretKeys } = readAsInputs(outputs, def?.schema, []);
  const r: ResourceState = { urn: p.urn, type: p.type, id, inputs: {}, outputs, deps: current?.deps ?? [], inputsUnknown: true };
  if (secretKeys.length) r.secretKeys = secretKeys;
  // Where the object lives: the instance the resume asked (a first create has no record to say it).
  const provider = current?.provider ?? providerRecord(instance);
  if (provider) r.provider = provider;
  if (current?.parent) r.parent = current.parent;
  const deposed: DeposedObject[] = [...(current?.deposed ?? [])];
  if (current && current.id !== id) deposed.push({ id: current.id, inputs: current.inputs, outputs: current.outputs, deps: current.deps, ...(current.secretKeys ? { secretKeys: current.secretKeys } : {}) });
  if (deposed.length) r.deposed = deposed;
  return r;
}

/**
 * The state changes that settle pending operation `p`, given what its provider found; `unknown` is not
 * settled here (the caller stops the run).
 *
 * `instance` is the provider instance the resume asked (where a created object lives).
 *
 * @example resumedMutations(p, { kind: "created", id: "q-1", outputs }, state.resources[p.urn], def, instance)
 */
export function resumedMutations(p: PendingOperation, found: Exclude<ResumeResult, { kind: "unknown" }>, current: ResourceState | undefined, def: ResourceDefinition | undefined, instance?: ProviderInstance): StateMutation[] {
  switch (found.kind) {
    case "created":
      return [{ kind: "upsert", resource: createdRecord(p, current, found.id, found.outputs, def, instance) }];
    case "present":
      if (current && current.id === p.id) return [{ kind: "upsert", resource: { ...current, outputs: found.outputs } }];
      return [];
    case "absent":
      if (p.id === undefined || !current) return [];
      if (current.id === p.id) return [{ kind: "remove", urn: current.urn }];
      return current.deposed?.some((d) => d.id === p.id) ? [{ kind: "upsert", resource: withoutDeposed(current, p.id) }] : [];
    default: {
      const never: never = found;
      throw new Error(`unhandled resume result ${JSON.stringify(never)}`);
    }
  }
}

/** What the user is told a resumed operation came to. */
export function resumedText(found: Exclude<ResumeResult, { kind: "unknown" }>): string {
  switch (found.kind) {
    case "created":
      return `its request had finished: the object ${found.id} was created and is now recorded`;
    case "present":
      return "its request had finished: the object's current attributes were adopted";
    case "absent":
      return "its request had finished: there is no object (nothing was created, or the delete went through)";
    default: {
      const never: never = found;
      return String(never);
    }
  }
}
