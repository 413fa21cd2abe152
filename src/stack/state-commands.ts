// The state commands (`state show/rm/mv/import/unprotect`, `migrate`): they change records, never the cloud.
import type { Urn } from "../core/urn.js";
import { openBackend } from "../state/open-backend.js";
import type { StateBackend } from "../state/backend.js";
import { migrateStack, type MigrateResult } from "../state/migrate.js";
import type { Props, ResourceState, StackState, StateMutation } from "../state/types.js";
import { CairnError } from "./errors.js";
import { dependentsOf, findResource, planForget, planRename, type ForgetPlan, type ImportPlan, type RenamePlan, type StateEdit, type UnprotectPlan } from "./state-edit.js";
import { declaredResource, knownInputs, planImport } from "./import.js";
import { evaluate } from "./evaluations.js";
import { locked } from "./locked.js";
import { readRunner } from "./op-context.js";
import type { RunContext } from "./run-context.js";
import type { StackParts } from "./stack-parts.js";

/** Asks whether to go ahead with a state change's plan (default: yes). */
interface Confirmed<P> {
  confirm?: (plan: P) => Promise<boolean>;
}

/**
 * A recorded resource by URN or name (unique), with the recorded resources that depend on it.
 * @example (await showResource(parts, "db")).dependents // ["urn:…::app"]
 */
export async function showResource(parts: StackParts, ref: string): Promise<{ resource: ResourceState; dependents: Urn[] }> {
  const { state } = await parts.backend.load();
  const resource = findResource(state, ref);
  return { resource, dependents: dependentsOf(state, resource.urn).map((r) => r.urn) };
}

/**
 * Forgets resources (URNs or names) without deleting their cloud objects (`state rm`).
 * @example await forget(ctx, ["cache"], { force: true })
 */
export async function forget(ctx: RunContext, refs: readonly string[], opts: { force?: boolean } & Confirmed<ForgetPlan>): Promise<StateEdit<ForgetPlan>> {
  return editState(ctx, "state rm", (state) => planForget(state, refs, { force: opts.force ?? false }), opts.confirm);
}

/**
 * Renames a recorded resource without replacing its object (`state mv`); the moved record takes its parent
 * from the program when the program evaluates.
 *
 * @example await rename(ctx, "old-name", "new-name", {})
 */
export async function rename(ctx: RunContext, from: string, to: string, opts: Confirmed<RenamePlan>): Promise<StateEdit<RenamePlan>> {
  const declared = new Map<Urn, Urn | undefined>();
  try {
    const ev = await evaluate(ctx, await ctx.backend.readConfig());
    for (const n of ev.nodes) declared.set(n.urn, n.parent?.urn);
  } catch {
    // Parents are then kept or dropped by their types; the next up records the program's.
  }
  return editState(ctx, "state mv", (state) => planRename(state, from, to, declared), opts.confirm);
}

/**
 * Reads an existing object through its type's provider and adopts it as the program's resource `name`.
 * @example await importResource(ctx, "aws:s3:Bucket", "logs", "my-logs", {})
 */
export async function importResource(ctx: RunContext, type: string, name: string, id: string, opts: Confirmed<ImportPlan>): Promise<StateEdit<ImportPlan>> {
  const { runtime } = await ctx.evaluations.prepare();
  const node = declaredResource(runtime.graph.order, type, name, ctx.program.name);
  const provider = ctx.providers(type, node.urn, node.definition);
  const reads = readRunner(ctx);
  const read = provider && (() => reads(node.urn, node.provider, (c) => provider.read({ urn: node.urn, id, inputs: knownInputs(node), outputs: {}, ctx: c }) as Promise<Props | undefined>));
  return editState<ImportPlan>(ctx, "state import", (state) => planImport(state, { node, graph: runtime.graph, type, id, read }), opts.confirm, { create: true });
}

/**
 * Clears `protect` on a recorded resource (`state unprotect`).
 * @example await unprotect(ctx, "db", {})
 */
export async function unprotect(ctx: RunContext, ref: string, opts: Confirmed<UnprotectPlan>): Promise<StateEdit<UnprotectPlan>> {
  return editState<UnprotectPlan>(ctx, "state unprotect", (state) => {
    const resource = findResource(state, ref);
    const { protect: _was, ...rest } = resource;
    return { resource, mutations: resource.protect ? [{ kind: "upsert", resource: rest }] : [] };
  }, opts.confirm);
}

/**
 * Copies the stack to another backend (a URL, or a backend instance) under both locks, and verifies the copy.
 * @example await migrate(parts, "postgres://db/cairn")
 */
export async function migrate(parts: StackParts, to: string | StateBackend): Promise<MigrateResult> {
  const target =
    typeof to === "string"
      ? openBackend({ backend: to, stack: parts.name, project: parts.program.name, passphrase: parts.options.passphrase ?? process.env.CAIRN_PASSPHRASE })
      : to;
  return migrateStack(parts.backend, target);
}

/** Plans a state change, confirms it, and writes it as a new version after the current one is kept. */
async function editState<P extends { mutations: StateMutation[] }>(
  ctx: RunContext,
  command: string,
  plan: (state: StackState) => P | Promise<P>,
  confirm: Confirmed<P>["confirm"],
  opts: { create?: boolean } = {},
): Promise<StateEdit<P>> {
  const { backend } = ctx;
  return locked(ctx, command, async (state) => {
    if (!opts.create && state.serial === 0 && !(await backend.summary()).exists) throw new CairnError(`Stack "${ctx.name}" does not exist in ${backend.url}; nothing was changed.`);
    const p = await plan(state);
    if (p.mutations.length === 0 || (confirm && !(await confirm(p)))) return { ...p, applied: false };
    const journal = backend.openJournal(state);
    // The state before the change must be a stored version, so `state rollback` can bring it back.
    const kept = (await backend.history()).some((h) => h.version === state.serial);
    const before = kept ? state : await journal.compact();
    journal.mutate(p.mutations);
    const saved = await journal.compact();
    await journal.close();
    return { ...p, applied: true, previousVersion: before.serial, version: saved.serial };
  });
}
