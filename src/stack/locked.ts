import type { PendingOperation, StackState, StateMutation } from "../state/types.js";
import { loadTypeModules } from "../program/load-types.js";
import { watchIdle } from "./liveness.js";
import { settleInterrupted } from "./settle-interrupted.js";
import { providerEnv, type RunContext } from "./run-context.js";
import { note, type StackParts } from "./stack-parts.js";
import { rewriteError } from "../core/diagnostic.js";

/**
 * Runs `fn` holding the stack's lock, with the state loaded and interrupted operations settled. If the
 * process would go idle before `fn` ends (a promise that never settles), `fn`'s work is told to stop.
 *
 * @example const plan = await locked(ctx, "preview", (state, idle) => planAgainst(ctx, state, opts, idle, true));
 */
export async function locked<T>(ctx: RunContext, command: string, fn: (state: StackState, idle: AbortSignal) => Promise<T>): Promise<T> {
  const lock = await ctx.backend.lock({ command });
  const idle = watchIdle();
  try {
    for (const n of lock.notes) note(ctx, "warning", n);
    const loaded = await ctx.backend.load();
    for (const n of loaded.notes) note(ctx, "warning", n);
    const types = learnRecords(ctx, loaded.state);
    await learnConfigSecrets(ctx);
    let state = loaded.state;
    await loadTypeModules([...types, ...loaded.pending.map((p) => p.type)]);
    if (loaded.pending.length) {
      const journal = await ctx.backend.openJournal(state);
      await settleInterrupted(journal, forgotten(ctx, journal, loaded.pending), providerEnv(ctx));
      state = await journal.compact();
      await journal.close();
    }
    return await fn(state, idle.signal);
  } catch (e) {
    // Errors reach people too: the same redaction as events (a provider may quote a secret in its message).
    rewriteError(e, (text) => ctx.secrets.redact(text));
    throw e;
  } finally {
    idle.dispose();
    await lock.release();
  }
}

/** Closes the interrupted operations `forgetInterrupted` names (saying so) and returns the others, to settle. */
function forgotten(parts: StackParts, journal: { end(op: number, m: StateMutation[]): void }, pending: readonly PendingOperation[]): PendingOperation[] {
  const forget = new Set(parts.options.forgetInterrupted ?? []);
  const rest: PendingOperation[] = [];
  for (const p of pending) {
    if (!forget.has(p.urn)) {
      rest.push(p);
      continue;
    }
    note(parts, "warning", `The interrupted ${p.kind} of ${p.urn} (started ${p.since}) was forgotten, as --forget-interrupted asked: nothing was recorded for it. If it made an object, adopt it with the resource's import option (or state import), or delete it by hand.`, p.urn);
    journal.end(p.op, []);
  }
  return rest;
}

/**
 * Remembers the secrets of the loaded state, so no event or error shows them, and returns the types its
 * records are of (their modules are loaded): one walk of the records, not two (a walk is costly in a large
 * stack).
 */
function learnRecords(parts: StackParts, state: StackState): Set<string> {
  const types = new Set<string>();
  for (const urn in state.resources) {
    const r = state.resources[urn]!;
    parts.secrets.addResource(r);
    types.add(r.type);
  }
  parts.secrets.addProps(state.outputs, state.secretOutputs ?? []);
  return types;
}

/** Remembers the secrets of the stack's config, so no event or error shows them. */
async function learnConfigSecrets(parts: StackParts): Promise<void> {
  try {
    for (const v of Object.values(await parts.backend.readConfig())) if (v.secret) parts.secrets.add(v.value);
  } catch {
    // Without the passphrase secret config cannot be read; nothing of it can be shown either.
  }
}
