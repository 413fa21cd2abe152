import { isDeepStrictEqual } from "node:util";
import type { DriftFinding } from "../plan/plan.js";
import type { ProviderInstance } from "../provider/provider.js";
import type { ProviderSource } from "../program/registry.js";
import type { Props, ResourceState, StackState, StateMutation } from "../state/types.js";
import { nameOf, type Urn } from "../core/urn.js";
import { thrownMessage } from "../core/thrown.js";
import type { ReadRunner } from "../runtime/bounded-read.js";
import { CairnError } from "./errors.js";
import { copyOfResources } from "../state/mutations.js";
import { limitedMap } from "../core/limited-map.js";

/**
 * The record after a refresh read `read`: outputs as read, and each recorded input (only what the program
 * declared: nothing the cloud chose becomes one) that the read reports otherwise as observed, so the next
 * plan diffs the program against what the cloud holds. Inputs that changed are listed in `drift` until the
 * next apply of the resource.
 */
export function refreshedRecord(r: ResourceState, read: Props): { record: ResourceState; inputDrift: string[] } {
  const inputs = { ...r.inputs };
  const inputDrift: string[] = [...(r.drift ?? [])];
  for (const k of Object.keys(r.inputs)) {
    if (!(k in read) || isDeepStrictEqual(read[k], r.inputs[k])) continue;
    inputs[k] = read[k];
    if (!inputDrift.includes(k)) inputDrift.push(k);
  }
  const record: ResourceState = { ...r, inputs, outputs: read };
  if (inputDrift.length) record.drift = inputDrift;
  return { record, inputDrift };
}

/** How to reach each recorded object, and where to report what cannot be read. */
export interface RefreshEnv {
  /** Makes a provider read, bounded and retried. */
  read: ReadRunner;
  instanceFor: (type: string, r: ResourceState["provider"]) => ProviderInstance | undefined;
  warn: (message: string, urn: Urn) => void;
  providers: ProviderSource;
  /** How many objects are read at once (`--parallel`). */
  parallel: number;
}

/**
 * Reads one recorded object: the mutation recording what changed, and a finding when that is drift (a
 * declared input changed) or the object is gone. A change to what the program does not declare (a status,
 * a value the cloud chose) is recorded, and is not drift.
 */
async function refreshOne(r: ResourceState, env: RefreshEnv, stop: AbortSignal): Promise<{ finding?: DriftFinding; mutation: StateMutation } | undefined> {
  const provider = env.providers(r.type, r.urn);
  if (!provider) {
    env.warn(`Cannot refresh ${r.urn}: no provider for type ${r.type} is loaded.`, r.urn);
    return undefined;
  }
  let read: Props | undefined;
  try {
    read = (await env.read(r.urn, env.instanceFor(r.type, r.provider), (ctx) => provider.read({ urn: r.urn, id: r.id, inputs: r.inputs, outputs: r.outputs, ctx }), stop)) as Props | undefined;
  } catch (e) {
    throw new CairnError(`Could not refresh "${nameOf(r.urn)}" (${r.urn}): ${thrownMessage(e, `the provider of ${r.type}`)}. Nothing was changed; run again when its provider answers.`);
  }
  if (read === undefined) return { finding: { kind: "gone", urn: r.urn, type: r.type }, mutation: { kind: "remove", urn: r.urn } };
  if (isDeepStrictEqual(read, r.outputs) && !Object.keys(r.inputs).some((k) => k in read && !isDeepStrictEqual(read[k], r.inputs[k]))) return undefined;
  const { record } = refreshedRecord(r, read);
  const changed = Object.keys(r.inputs).filter((k) => k in read && !isDeepStrictEqual(read[k], r.inputs[k]));
  const mutation: StateMutation = { kind: "upsert", resource: record };
  return changed.length ? { finding: { kind: "drift", urn: r.urn, type: r.type, changed }, mutation } : { mutation };
}

/**
 * Reads every recorded resource: what is gone, what drifted (a declared input changed), and the state
 * mutations that record it (gone objects removed, changed ones with observed inputs and fresh outputs).
 * Changes nothing in the cloud.
 *
 * @example const { findings, mutations } = await readAll(state, env);
 */
export async function readAll(state: StackState, env: RefreshEnv): Promise<{ findings: DriftFinding[]; mutations: StateMutation[] }> {
  // `--parallel` at a time, as the apply's calls: every read at once would put the whole stack's requests
  // in flight against a cloud's rate limits, and hold each one's memory until the last answered.
  // Once a read fails the refresh has failed: no other read retries (reads in flight finish), rather than
  // keep calling the cloud, and the process, going after the command has ended.
  const stop = new AbortController();
  const results = await limitedMap(Object.values(state.resources), env.parallel, (r) => refreshOne(r, env, stop.signal)).catch((e: unknown) => {
    stop.abort(e);
    throw e;
  });
  const found = results.filter((x) => x !== undefined);
  return { findings: found.flatMap((x) => (x.finding ? [x.finding] : [])), mutations: found.map((x) => x.mutation) };
}

/** The state as a refresh's mutations leave it (a copy; the original is untouched). */
export function afterRefresh(state: StackState, mutations: readonly StateMutation[]): StackState {
  if (mutations.length === 0) return state;
  const resources = copyOfResources(state.resources);
  for (const m of mutations) {
    if (m.kind === "remove") delete resources[m.urn];
    else if (m.kind === "upsert") resources[m.resource.urn] = m.resource;
  }
  return { ...state, resources };
}
