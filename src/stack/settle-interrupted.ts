import type { OpContext, Provider, ProviderInstance, ResumeResult } from "../provider/provider.js";
import { operationId } from "../state/journal-format.js";
import { callKind, resumedMutations, resumedText } from "./resume.js";
import type { ProviderSource } from "../program/registry.js";
import type { ResourceDefinition } from "../program/node.js";
import type { JournalWriter } from "../state/journal-writer.js";
import type { PendingOperation, Props, ResourceState, StateMutation } from "../state/types.js";
import type { Urn } from "../core/urn.js";
import { withoutDeposed } from "../apply/record.js";
import { CairnError } from "./errors.js";
import { thrownMessage } from "../core/thrown.js";
import type { ReadRunner } from "../runtime/bounded-read.js";

/** How settling interrupted operations reaches recorded objects, and where it tells the user what was found. */
export interface SettleEnv {
  /** The context of a provider's `resume`, which bounds its own polling. */
  opContext: (urn: Urn, provider?: ProviderInstance) => OpContext;
  /** Makes a provider read, bounded and retried. */
  read: ReadRunner;
  instanceFor: (type: string, r: ResourceState["provider"]) => ProviderInstance | undefined;
  warn: (message: string, urn: Urn) => void;
  providers: ProviderSource;
  /** The stack's definition of a type (its schema says what a resumed create records as secret). */
  definitionOf: (type: string) => ResourceDefinition | undefined;
  /** How the user runs the program (`npx tsx infra.ts`), for the commands a message suggests. */
  command?: string | undefined;
}

/** The recorded object an interrupted operation acted on: the current one, or a deposed one. */
function objectOf(current: ResourceState | undefined, id: string) {
  if (current?.id === id) return { inputs: current.inputs, outputs: current.outputs, provider: current.provider, deposed: false };
  const d = current?.deposed?.find((x) => x.id === id);
  return { inputs: d?.inputs ?? {}, outputs: d?.outputs ?? {}, provider: d?.provider ?? current?.provider, deposed: d !== undefined };
}

/** What reading the object back says to record. */
function settle(current: ResourceState | undefined, id: string, read: Props | undefined, deposed: boolean): StateMutation[] {
  if (current && current.id === id) return read === undefined ? [{ kind: "remove", urn: current.urn }] : [{ kind: "upsert", resource: { ...current, outputs: read } }];
  if (current && deposed && read === undefined) return [{ kind: "upsert", resource: withoutDeposed(current, id) }];
  return [];
}

/**
 * Settles the interrupted operations a crash (or an abandoned call) left pending: reads each object back, then adopts or
 * discards it. A create whose object id was never recorded cannot be read back: it is planned again only
 * when that cannot make a second object (its provider noted nothing yet, or makes creates safe to repeat).
 * Otherwise, once the rest are settled, the run stops naming each such create (see {@link unsettledCreates}).
 * ("Recover" is the word for rebuilding a damaged snapshot, `state recover`; interrupted calls are settled.)
 *
 * @example await settleInterrupted(journal, loaded.pending, providerEnv(ctx));
 */
export async function settleInterrupted(journal: JournalWriter & { end(op: number, m: StateMutation[]): void; flush(): Promise<void> }, pending: readonly PendingOperation[], env: SettleEnv): Promise<void> {
  const unsettled: { p: PendingOperation; loaded: boolean }[] = [];
  for (const p of pending) {
    const what = `${p.kind} of ${p.urn} (started ${p.since})`;
    const provider = env.providers(p.type, p.urn);
    if (p.note && provider?.resume) {
      await resumeOne(journal, p, provider, env, what);
      continue;
    }
    if (p.id === undefined) {
      const again = provider && createAgain(provider);
      if (!again) {
        unsettled.push({ p, loaded: provider !== undefined });
        continue;
      }
      env.warn(`An interrupted ${what} was found. Its object id was never recorded, but ${again}: the next plan creates it.`, p.urn);
      journal.end(p.op, []);
      continue;
    }
    if (!provider) {
      env.warn(`An interrupted ${what} was found. No provider for type ${p.type} is loaded, so it cannot be checked.`, p.urn);
      journal.end(p.op, []);
      continue;
    }
    const current = journal.state.resources[p.urn];
    const o = objectOf(current, p.id);
    let read: Props | undefined;
    try {
      const id = p.id;
      read = (await env.read(p.urn, env.instanceFor(p.type, o.provider), (ctx) => provider.read({ urn: p.urn, id, inputs: o.inputs, outputs: o.outputs, ctx }))) as Props | undefined;
    } catch (e) {
      throw new CairnError(`An interrupted ${what} could not be checked: ${thrownMessage(e, `the provider of ${p.type}`)}. Nothing was changed; run again when the provider is reachable.`);
    }
    env.warn(`An interrupted ${what} was found: the object ${read === undefined ? "is gone; it was removed from state" : "exists; its current attributes were adopted"}.`, p.urn);
    journal.end(p.op, settle(current, p.id, read, o.deposed));
  }
  if (!unsettled.length) return;
  await journal.flush(); // what was settled stays settled
  throw unsettledCreates(unsettled, env.command ?? "npx tsx infra.ts");
}

/**
 * Why an interrupted create without a recorded id may be made again, or undefined when that could make a
 * second object. A provider with `resume` notes a create before sending it (nothing noted: never sent).
 */
function createAgain(provider: Provider): string | undefined {
  if (provider.resume) return "its provider notes every create before sending it, and nothing was noted, so it never reached the cloud";
  if (provider.idempotentCreate) return "its provider makes creating it again safe (it finds or rewrites what the interrupted create made)";
  return undefined;
}

/**
 * The error that stops a run whose interrupted creates may each have made an object the state does not
 * record, and whose providers can neither find it (`resume`) nor create it again safely (`idempotentCreate`):
 * naming each, and the two ways on once the user knows what became of it.
 *
 * @example throw unsettledCreates([{ p, loaded: true }], "npx tsx infra.ts")
 */
export function unsettledCreates(ops: readonly { p: PendingOperation; loaded: boolean }[], command: string): CairnError {
  const one = ops.length === 1 ? ops[0]!.p : undefined;
  const type = one?.type ?? "<type>";
  const urn = one?.urn ?? "<urn>";
  return new CairnError(
    `${one ? "An interrupted create" : `${ops.length} interrupted creates`} may have made ${one ? "an object" : "objects"} the state does not record:\n` +
      ops.map(({ p, loaded }) => `  - ${p.urn} (a ${p.type}, started ${p.since}${loaded ? "" : "; no provider of that type is loaded"})\n`).join("") +
      `${one ? "Its provider" : "Their providers"} can neither find out how a create ended (no resume) nor make one again safely (no idempotentCreate): ` +
      `creating ${one ? "it" : "them"} again could make second objects, so this run stopped before planning anything. Find out whether ${one ? "the object exists" : "each object exists"}. ` +
      `If it does, adopt it: \`${command} state import ${type} ${urn} <id> --forget-interrupted ${urn}\`. ` +
      `If it does not: \`${command} up --forget-interrupted ${urn}\` creates it${one ? "" : " (the option repeats)"}.`,
  );
}

/** Settles a pending operation its provider can resume (it noted a request): asks how it ended, records that. */
async function resumeOne(journal: JournalWriter & { end(op: number, m: StateMutation[]): void }, p: PendingOperation, provider: Provider, env: SettleEnv, what: string): Promise<void> {
  const current = journal.state.resources[p.urn];
  const instance = env.instanceFor(p.type, objectOf(current, p.id ?? current?.id ?? "").provider);
  const ctx = env.opContext(p.urn, instance);
  ctx.operation = { id: operationId(p), note: async () => {} };
  let found: ResumeResult;
  try {
    found = await provider.resume!({ urn: p.urn, kind: callKind(p.kind), ...(p.id !== undefined ? { id: p.id } : {}), note: p.note!, ctx });
  } catch (e) {
    throw new CairnError(`An interrupted ${what} could not be checked: ${(e as Error).message}. Nothing was changed; run again when the provider is reachable.`);
  }
  if (found.kind === "unknown") throw new CairnError(`An interrupted ${what} cannot be settled safely: ${found.message}`);
  env.warn(`An interrupted ${what} was resumed: ${resumedText(found)}.`, p.urn);
  journal.end(p.op, resumedMutations(p, found, current, env.definitionOf(p.type), instance));
}
