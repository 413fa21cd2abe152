import { isDeepStrictEqual } from "node:util";
import { firstValueFrom, type Subject } from "rxjs";
import type { Plan, PlanStep, StepMeta } from "../plan/plan.js";
import type { PlanRuntime } from "../plan/planner.js";
import { ValueResolver, unknownValue } from "../plan/values.js";
import { resolveInputs } from "../plan/resolve-inputs.js";
import { describeLookupKey, readLookup } from "../plan/lookup.js";
import { changedKeys, withIgnoredChanges } from "../plan/decide.js";
import type { ResourceNode } from "../program/node.js";
import type { Urn } from "../program/urn.js";
import { containsUnknown } from "../program/unknown.js";
import type { Clock, OpContext, Provider, ProviderInstance } from "../provider/provider.js";
import { instanceKey, providerInstanceFor } from "../provider/instance.js";
import { IncompleteCreateError } from "../provider/errors.js";
import { findDefinition } from "../provider/registry.js";
import { secretKeys as schemaSecretKeys } from "../provider/schema.js";
import type { Props, ProviderRecord, ResourceState, StateMutation } from "../state/types.js";
import type { ApplySummary, EngineEvent, UnitKind } from "./events.js";
import type { JournalWriter } from "./journal.js";
import { redactSecrets } from "./redact.js";
import { WaitPoller, type WaitRun } from "./waiter.js";
import { describeWaitOutcome, waitLabel, type WaitLabel, type WaitOutcome } from "./wait-outcome.js";
import { rootTarget } from "../wait/wait.js";
import { UNKNOWN } from "../program/unknown.js";

/** What the executor needs to carry out a plan. */
export interface ExecuteInput {
  plan: Plan;
  /** The evaluated program behind the plan (absent for `destroy`, which needs no program). */
  runtime?: PlanRuntime;
  journal: JournalWriter;
  /** How many provider operations may run at once. */
  parallel: number;
  events: Subject<EngineEvent>;
  opContext: (urn: Urn, timeout?: number, provider?: ProviderInstance) => OpContext;
  /** The program's provider instances, keyed by {@link instanceKey}. */
  instances?: ReadonlyMap<string, ProviderInstance>;
  /** Stops starting new work; what is running finishes and is saved (waits stop polling). */
  signal?: AbortSignal;
  /** The clock waits poll by (tests pass a fake one). */
  clock: Clock;
}

interface Unit {
  urn: Urn;
  kind: UnitKind;
  step: PlanStep;
  deps: Unit[];
  dependents: Unit[];
  remaining: number;
  status: "waiting" | "running" | "done" | "failed" | "skipped";
  run: () => Promise<void>;
}

function providerFor(type: string, node: ResourceNode | undefined): Provider<Props, Props> {
  const def = node?.definition ?? findDefinition(type);
  if (!def) throw new Error(`no resource type "${type}" is defined in this program, so its provider is unknown`);
  return def.provider as Provider<Props, Props>;
}

/** A wait ended because the run was cancelled (not a failure). */
class CancelledWait extends Error {}

/** The outcome with provider-written text (errors, failure reasons) masked for secret values. */
function redactOutcome(o: WaitOutcome, secrets: readonly unknown[]): WaitOutcome {
  if (o.kind === "read-error") return { ...o, error: redactSecrets(o.error, secrets) };
  if (o.kind === "failed" && o.reason !== undefined) return { ...o, reason: redactSecrets(o.reason, secrets) };
  return o;
}

function labelOf(step: Extract<PlanStep, { kind: "wait" }>): WaitLabel {
  return { label: waitLabel(step.name, step.named), subject: step.subject, until: step.untilText, timeoutMs: step.timeoutMs };
}

function toState(urn: Urn, type: string, id: string, inputs: Props, outputs: Props, secretKeys: string[], meta: StepMeta): ResourceState {
  const s: ResourceState = { urn, type, id, inputs, outputs, deps: meta.deps };
  if (secretKeys.length) s.secretKeys = secretKeys;
  if (meta.provider) s.provider = meta.provider;
  if (meta.parent) s.parent = meta.parent;
  if (meta.protect) s.protect = true;
  if (meta.retainOnDelete) s.retainOnDelete = true;
  return s;
}

/**
 * Applies a plan: each step runs when the steps it depends on are done, up to `parallel` at once. A failure
 * skips only its dependents ("dependency failed: <urn>"); independent branches finish. Every provider call is
 * journaled as pending first and resolved after, so a crash loses nothing.
 */
export async function execute(input: ExecuteInput): Promise<{ summary: ApplySummary; outputs?: { values: Props; secretKeys: string[] } }> {
  const { plan, runtime, journal, events } = input;
  const started = Date.now();
  const values = new ValueResolver();
  const poller = new WaitPoller({ clock: input.clock, opContext: input.opContext, ...(input.signal ? { signal: input.signal } : {}) });
  const nodeOf = (urn: Urn) => runtime?.nodeByUrn.get(urn);
  const stepNodes = new Set<ResourceNode>();
  const units: Unit[] = [];
  const primary = new Map<string, Unit>();
  const deleteUnits = new Map<string, Unit>();
  const secretsOf = (step: PlanStep): unknown[] => {
    const keys = "secretKeys" in step ? step.secretKeys : [];
    const out: unknown[] = [];
    for (const k of keys) for (const src of ["news", "olds", "outputs"] as const) if (src in step) out.push((step as unknown as Record<string, Props>)[src]![k]);
    return out;
  };

  const publishReal = (node: ResourceNode | undefined, id: string, outputs: Props, secretKeys: string[]) => {
    if (node) values.publish(node, { id, outputs, unknown: new Set(), restUnknown: false, secretKeys: new Set([...secretKeys, ...schemaSecretKeys(node.definition?.schema)]) });
  };

  /** Inputs to send: the planned ones, or re-resolved now that upstream outputs are real. */
  const inputsFor = async (step: Extract<PlanStep, { news: Props }>): Promise<{ news: Props; secretKeys: string[] }> => {
    if (!containsUnknown(step.news)) return { news: step.news, secretKeys: step.secretKeys };
    const node = nodeOf(step.urn)!;
    const r = await resolveInputs(node.inputs, values);
    const news = withIgnoredChanges(r.values, "olds" in step ? step.olds : undefined, node.ignoreChanges);
    if (containsUnknown(news)) throw new Error("some inputs are still unknown after their dependencies were applied");
    return { news, secretKeys: [...new Set([...r.secretKeys, ...step.secretKeys])] };
  };

  // A node's operations use its live provider instance. An object recorded under other settings (the old
  // half of a replace, a resource removed from the program) is reached where state says it lives, with the
  // credentials of the program's instance of the recorded name when it still declares one.
  const ctxFor = (urn: Urn, kind: "create" | "update" | "delete", recorded?: { type: string; provider: ProviderRecord | undefined }) => {
    const node = nodeOf(urn);
    const live = recorded?.provider ? input.instances?.get(instanceKey(recorded.type, recorded.provider.name)) : undefined;
    const provider = recorded ? providerInstanceFor(recorded.type, recorded.provider, live) : node?.provider;
    return input.opContext(urn, node?.customTimeouts[kind], provider);
  };

  const addUnit = (step: PlanStep, kind: UnitKind, run: () => Promise<void>): Unit => {
    const u: Unit = { urn: step.urn, kind, step, deps: [], dependents: [], remaining: 0, status: "waiting", run };
    units.push(u);
    return u;
  };

  // Steps that need no provider call settle at once: their values are the planned ones.
  for (const step of plan.steps) {
    if (step.kind !== "same") continue;
    if (step.movedFrom) {
      const prior = journal.state.resources[step.movedFrom]!;
      journal.mutate([{ kind: "remove", urn: step.movedFrom }, { kind: "upsert", resource: { ...prior, ...toState(step.urn, step.type, prior.id, prior.inputs, prior.outputs, prior.secretKeys ?? [], step.meta), ...(prior.deposed ? { deposed: prior.deposed } : {}) } }]);
    } else {
      const prior = journal.state.resources[step.urn];
      if (prior && metaChanged(prior, step.meta)) journal.mutate([{ kind: "upsert", resource: { ...prior, ...metaFields(step.meta) } }]);
    }
  }

  for (const step of plan.steps) {
    const node = nodeOf(step.urn);
    switch (step.kind) {
      case "same":
        break;
      case "create":
        stepNodes.add(node!);
        primary.set(step.urn, addUnit(step, "create", async () => {
          const provider = providerFor(step.type, node);
          const { news, secretKeys } = await inputsFor(step);
          const op = await journal.begin({ kind: "create", urn: step.urn, type: step.type });
          let r: { id: string; outputs: Props };
          try {
            r = await provider.create({ urn: step.urn, inputs: news, ctx: ctxFor(step.urn, "create") });
          } catch (e) {
            journal.abort(op, e instanceof IncompleteCreateError ? [{ kind: "upsert", resource: { ...toState(step.urn, step.type, e.id, news, e.outputs, secretKeys, step.meta), tainted: true } }] : []);
            throw e;
          }
          journal.end(op, [{ kind: "upsert", resource: toState(step.urn, step.type, r.id, news, r.outputs, secretKeys, step.meta) }]);
          publishReal(node, r.id, r.outputs, secretKeys);
        }));
        break;
      case "update":
        stepNodes.add(node!);
        primary.set(step.urn, addUnit(step, "update", async () => {
          const provider = providerFor(step.type, node);
          const { news, secretKeys } = await inputsFor(step);
          const moved: StateMutation[] = step.movedFrom ? [{ kind: "remove", urn: step.movedFrom }] : [];
          const current = journal.state.resources[step.movedFrom ?? step.urn]!;
          if (changedKeys(step.olds, news).length === 0) {
            // Unknown inputs turned out unchanged: nothing to send to the provider.
            journal.mutate([...moved, { kind: "upsert", resource: { ...current, ...toState(step.urn, step.type, step.id, news, step.outputs, secretKeys, step.meta) } }]);
            publishReal(node, step.id, step.outputs, secretKeys);
            return;
          }
          const op = await journal.begin({ kind: "update", urn: step.urn, type: step.type, id: step.id });
          let outputs: Props;
          try {
            outputs = await provider.update!({ urn: step.urn, id: step.id, olds: step.olds, news, outputs: step.outputs, ctx: ctxFor(step.urn, "update") });
          } catch (e) {
            journal.abort(op, []);
            throw e;
          }
          const next = toState(step.urn, step.type, step.id, news, outputs, secretKeys, step.meta);
          if (current.deposed) next.deposed = current.deposed;
          journal.end(op, [...moved, { kind: "upsert", resource: next }]);
          publishReal(node, step.id, outputs, secretKeys);
        }));
        break;
      case "replace": {
        stepNodes.add(node!);
        const provider = () => providerFor(step.type, node);
        const old = { id: step.id, inputs: step.olds, outputs: step.outputs, ...(step.priorProvider ? { provider: step.priorProvider } : {}) };
        // A provider may hand back the very object being replaced (an idempotent create, an adopted
        // record): then there is nothing old to delete, and deleting it would delete the new one.
        let sameObject = false;
        const deleteOld = async (kind: "replace-delete") => {
          if (step.meta.retainOnDelete) return;
          const op = await journal.begin({ kind, urn: step.urn, type: step.type, id: step.id });
          try {
            await provider().delete({ urn: step.urn, id: step.id, inputs: step.olds, outputs: step.outputs, ctx: ctxFor(step.urn, "delete", { type: step.type, provider: step.priorProvider }) });
          } catch (e) {
            journal.abort(op, []);
            throw e;
          }
          return op;
        };
        const createNew = async (deposed: ResourceState["deposed"]) => {
          const { news, secretKeys } = await inputsFor(step);
          const op = await journal.begin({ kind: "replace-create", urn: step.urn, type: step.type });
          let r: { id: string; outputs: Props };
          try {
            r = await provider().create({ urn: step.urn, inputs: news, ctx: ctxFor(step.urn, "create") });
          } catch (e) {
            journal.abort(op, e instanceof IncompleteCreateError ? [{ kind: "upsert", resource: { ...toState(step.urn, step.type, e.id, news, e.outputs, secretKeys, step.meta), tainted: true, ...(deposed?.length ? { deposed } : {}) } }] : []);
            throw e;
          }
          const next = toState(step.urn, step.type, r.id, news, r.outputs, secretKeys, step.meta);
          if (r.id === step.id && !step.deleteFirst) {
            sameObject = true;
            deposed = deposed?.filter((d) => d.id !== step.id);
            events.next({ type: "diagnostic", severity: "warning", urn: step.urn, message: `The replacement of "${step.urn}" is the same object (id ${r.id}): it was kept, not deleted.` });
          }
          if (deposed?.length) next.deposed = deposed;
          journal.end(op, [...(step.movedFrom ? [{ kind: "remove" as const, urn: step.movedFrom }] : []), { kind: "upsert", resource: next }]);
          publishReal(node, r.id, r.outputs, secretKeys);
        };
        const priorDeposed = journal.state.resources[step.movedFrom ?? step.urn]?.deposed ?? [];
        if (step.deleteFirst) {
          primary.set(step.urn, addUnit(step, "replace", async () => {
            const op = await deleteOld("replace-delete");
            if (op !== undefined) journal.end(op, [{ kind: "remove", urn: step.movedFrom ?? step.urn }]);
            await createNew(priorDeposed);
          }));
        } else {
          const createUnit = addUnit(step, "replace", () =>
            createNew([...priorDeposed, { ...old, ...(step.secretKeys.length ? { secretKeys: step.secretKeys } : {}) }]));
          primary.set(step.urn, createUnit);
          const del = addUnit(step, "delete-replaced", async () => {
            if (sameObject) return;
            const op = await deleteOld("replace-delete");
            const cur = journal.state.resources[step.urn]!;
            const rest = (cur.deposed ?? []).filter((d) => d.id !== step.id);
            const next: ResourceState = { ...cur };
            if (rest.length) next.deposed = rest;
            else delete next.deposed;
            if (op !== undefined) journal.end(op, [{ kind: "upsert", resource: next }]);
            else journal.mutate([{ kind: "upsert", resource: next }]);
          });
          del.deps.push(createUnit);
          deleteUnits.set(`${step.urn}#replaced`, del);
        }
        break;
      }
      case "delete": {
        const u = addUnit(step, "delete", async () => {
          if (step.retain) {
            journal.mutate([{ kind: "remove", urn: step.urn }]);
            return;
          }
          const op = await journal.begin({ kind: step.deposed ? "delete-deposed" : "delete", urn: step.urn, type: step.type, id: step.id });
          try {
            await providerFor(step.type, undefined).delete({ urn: step.urn, id: step.id, inputs: step.olds, outputs: step.outputs, ctx: ctxFor(step.urn, "delete", { type: step.type, provider: step.provider }) });
          } catch (e) {
            journal.abort(op, []);
            throw e;
          }
          if (!step.deposed) {
            journal.end(op, [{ kind: "remove", urn: step.urn }]);
            return;
          }
          const cur = journal.state.resources[step.urn];
          if (!cur) return journal.end(op, []);
          const rest = (cur.deposed ?? []).filter((d) => d.id !== step.id);
          const next: ResourceState = { ...cur };
          if (rest.length) next.deposed = rest;
          else delete next.deposed;
          journal.end(op, [{ kind: "upsert", resource: next }]);
        });
        deleteUnits.set(step.deposed ? `${step.urn}#deposed:${step.id}` : step.urn, u);
        break;
      }
      case "wait": {
        if (!step.needed) break; // its planned value (the target's) is published below, with no reads
        stepNodes.add(node!);
        primary.set(step.urn, addUnit(step, "wait", async () => {
          const target = node!.wait!.target;
          const tv = await firstValueFrom(values.value(target));
          if (tv.id === UNKNOWN) throw new Error(`${waitLabel(step.name, step.named)}: its target ${step.subject} has no id`);
          const root = rootTarget(node!);
          const provider = providerFor(root.type, root);
          const stateInputs = journal.state.resources[root.urn]?.inputs ?? {};
          const secretValues = [...tv.secretKeys].flatMap((k) => [tv.outputs[k], stateInputs[k]]);
          const run: WaitRun = {
            urn: step.urn,
            subject: step.subject,
            target: { urn: root.urn, id: String(tv.id), inputs: root.kind === "lookup" ? {} : stateInputs, outputs: tv.outputs },
            provider,
            ...(root.provider ? { instance: root.provider } : {}),
            until: step.until,
            timeoutMs: step.timeoutMs,
            intervalMs: step.intervalMs,
            secret: tv.secretKeys,
            // A provider's error text could quote a secret attribute: mask those values as everywhere else.
            onPoll: (p) => events.next({ type: "wait-polled", urn: step.urn, name: step.name, ...p, ...(p.note ? { note: redactSecrets(p.note, secretValues) } : {}) }),
          };
          if (step.failWhen) run.failWhen = step.failWhen;
          if (step.reasonAttribute) run.reasonAttribute = step.reasonAttribute;
          const { outcome: raw, snapshot } = await poller.wait(run);
          const outcome = redactOutcome(raw, secretValues);
          const message = describeWaitOutcome(labelOf(step), outcome);
          events.next({ type: "wait-ended", urn: step.urn, name: step.name, outcome, message });
          if (outcome.kind === "cancelled") throw new CancelledWait(message);
          if (outcome.kind !== "satisfied") throw new Error(message);
          // The satisfying read is the target's current truth: record it, as a refresh would, so the next
          // plan sees what downstream resources were given (not the create's stale "pending" values).
          const cur = journal.state.resources[root.urn];
          if (root.kind === "custom" && cur && cur.id === String(tv.id) && !isDeepStrictEqual(cur.outputs, snapshot)) {
            journal.mutate([{ kind: "upsert", resource: { ...cur, outputs: snapshot! } }]);
          }
          values.publish(node!, { id: tv.id, outputs: snapshot!, unknown: new Set(), restUnknown: false, secretKeys: tv.secretKeys });
        }));
        break;
      }
      case "read":
        if (!step.deferred) break;
        stepNodes.add(node!);
        primary.set(step.urn, addUnit(step, "read", async () => {
          const r = await resolveInputs({ key: node!.lookupId }, values);
          const key = r.values.key;
          if (containsUnknown(key) || key === undefined) throw new Error("the id to look up is still unknown after its dependencies were applied");
          const found = await readLookup(node!.definition ?? findDefinition(step.type)!, step.urn, key, input.opContext(step.urn, undefined, node?.provider));
          if (found === undefined) throw new Error(`nothing matches ${describeLookupKey(key)}`);
          publishReal(node, found.id, found.outputs, []);
        }));
        break;
      default: {
        const never: never = step;
        throw new Error(`unhandled step ${JSON.stringify(never)}`);
      }
    }
  }

  // Everything without a unit already has its final value: publish it so dependents can resolve.
  if (runtime) {
    for (const n of runtime.graph.order) {
      if (stepNodes.has(n)) continue;
      values.publish(n, runtime.planned.get(n) ?? unknownValue());
    }
  }

  // Wire unit dependencies.
  const unitFor = (urn: string): Unit | undefined => primary.get(urn) ?? deleteUnits.get(urn);
  // Program units by the URNs they depend on, built once (not a scan of every unit per replace).
  const usersOf = new Map<string, Unit[]>();
  for (const u of units) {
    if (u.kind === "delete-replaced" || u.kind === "delete") continue;
    for (const d of u.step.deps) {
      const list = usersOf.get(d);
      if (list) list.push(u);
      else usersOf.set(d, [u]);
    }
  }
  // Users of a resource include the users of waits on it (they hold the same object, passed through the wait).
  const usersThroughWaits = (urn: string, seen = new Set<string>()): Unit[] => {
    if (seen.has(urn)) return [];
    seen.add(urn);
    return (usersOf.get(urn) ?? []).flatMap((x) => (x.kind === "wait" ? [x, ...usersThroughWaits(x.urn, seen)] : [x]));
  };
  for (const u of units) {
    if (u.kind === "delete-replaced") {
      // The old object goes only after everything that used it has moved to the new one.
      u.deps.push(...usersThroughWaits(u.urn));
      continue;
    }
    for (const d of u.step.deps) {
      const du = unitFor(d);
      if (du && du !== u && !u.deps.includes(du)) u.deps.push(du);
    }
    if (u.kind === "delete" && u.step.kind === "delete" && u.step.deposed) {
      const p = primary.get(u.urn);
      if (p) u.deps.push(p);
    }
  }
  for (const u of units) {
    u.remaining = u.deps.length;
    for (const d of u.deps) d.dependents.push(u);
  }

  const summary: ApplySummary = { ok: true, succeeded: 0, failed: 0, skipped: 0, done: {}, durationMs: 0 };
  const skip = (u: Unit, reason: string, dependency?: Urn) => {
    if (u.status !== "waiting") return;
    u.status = "skipped";
    summary.skipped++;
    events.next({ type: "step-skipped", urn: u.urn, kind: u.kind, reason });
    if (u.step.kind === "wait") {
      const outcome: WaitOutcome = dependency ? { kind: "dependency-failed", dependency } : { kind: "cancelled", reads: 0, elapsedMs: 0, observed: undefined };
      events.next({ type: "wait-ended", urn: u.urn, name: u.step.name, outcome, message: describeWaitOutcome(labelOf(u.step), outcome) });
    }
    const n = nodeOf(u.urn);
    if (n && primary.get(u.urn) === u) values.publish(n, unknownValue());
    for (const d of u.dependents) skip(d, reason, dependency);
  };

  await new Promise<void>((resolve) => {
    const ready: Unit[] = units.filter((u) => u.remaining === 0);
    let running = 0;
    // Waits mostly sleep and share batched reads: they do not take one of the `parallel` slots.
    let busy = 0;
    const pump = () => {
      if (input.signal?.aborted) {
        for (const u of ready.splice(0)) skip(u, "cancelled");
      }
      for (let i = 0; i < ready.length; ) {
        if (ready[i]!.kind === "wait") start(ready.splice(i, 1)[0]!);
        else i++;
      }
      while (busy < input.parallel && ready.length) start(ready.shift()!);
      if (running === 0 && (ready.length === 0 || input.signal?.aborted)) {
        for (const u of units) if (u.status === "waiting") skip(u, "cancelled");
        resolve();
      }
    };
    const start = (u: Unit) => {
      running++;
      const slot = u.kind !== "wait";
      if (slot) busy++;
      u.status = "running";
      const t0 = Date.now();
      events.next({ type: "step-started", urn: u.urn, kind: u.kind });
      u.run().then(
        () => {
          u.status = "done";
          summary.succeeded++;
          summary.done[u.kind] = (summary.done[u.kind] ?? 0) + 1;
          events.next({ type: "step-succeeded", urn: u.urn, kind: u.kind, durationMs: Date.now() - t0 });
          for (const d of u.dependents) if (--d.remaining === 0 && d.status === "waiting") ready.push(d);
        },
        (e: unknown) => {
          if (e instanceof CancelledWait) {
            // Cancelled by the user, not failed: counted and reported as such, and so are its dependents.
            u.status = "skipped";
            summary.skipped++;
            events.next({ type: "step-skipped", urn: u.urn, kind: u.kind, reason: "cancelled" });
            for (const d of u.dependents) skip(d, "cancelled");
            return;
          }
          u.status = "failed";
          summary.failed++;
          summary.ok = false;
          const message = redactSecrets(e instanceof Error ? e.message : String(e), secretsOf(u.step));
          events.next({ type: "step-failed", urn: u.urn, kind: u.kind, error: message });
          const n = nodeOf(u.urn);
          if (n && primary.get(u.urn) === u) values.publish(n, unknownValue());
          for (const d of u.dependents) skip(d, `dependency failed: ${u.urn}`, u.urn);
        },
      ).finally(() => {
        running--;
        if (slot) busy--;
        pump();
      });
    };
    pump();
  });
  if (summary.skipped > 0) summary.ok = false;

  let outputs: { values: Props; secretKeys: string[] } | undefined;
  if (runtime) {
    const r = await resolveInputs(runtime.programOutputs, values);
    const prior = journal.state.outputs;
    const known: Props = {};
    for (const [k, v] of Object.entries(r.values)) known[k] = containsUnknown(v) ? prior[k] : v;
    outputs = { values: known, secretKeys: r.secretKeys };
    journal.mutate([{ kind: "outputs", outputs: known, secretOutputs: r.secretKeys }]);
  } else if (plan.destroy) {
    journal.mutate([{ kind: "outputs", outputs: {}, secretOutputs: [] }]);
  }
  summary.durationMs = Date.now() - started;
  events.next({ type: "summary", summary });
  return { summary, outputs };
}

/** The state fields a step's metadata sets (absent flags are left out, keeping state compact). */
function metaFields(meta: StepMeta): Partial<ResourceState> {
  const s: Partial<ResourceState> = { deps: meta.deps, parent: meta.parent, protect: meta.protect || undefined, retainOnDelete: meta.retainOnDelete || undefined };
  // `provider` stays even when undefined: spread over a prior that had one, it must clear it.
  return { ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)), provider: meta.provider };
}

function metaChanged(prior: ResourceState, meta: StepMeta): boolean {
  return (
    (prior.protect ?? false) !== meta.protect ||
    (prior.retainOnDelete ?? false) !== meta.retainOnDelete ||
    prior.parent !== meta.parent ||
    !isDeepStrictEqual(prior.provider, meta.provider) ||
    prior.deps.length !== meta.deps.length ||
    prior.deps.some((d, i) => d !== meta.deps[i])
  );
}
