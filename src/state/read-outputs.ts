import type { OutputReader, StoredOutputs } from "./backend.js";
import type { Props } from "./types.js";
import { thrownMessage } from "../core/thrown.js";
import { UserError } from "../core/diagnostic.js";

/** A stack by project and name, as messages print it: `network/prod`. */
export interface StackName {
  project: string;
  stack: string;
}

/** `network/prod`. @example stackText({ project: "network", stack: "prod" }) // "network/prod" */
export function stackText(s: StackName): string {
  return `${s.project}/${s.stack}`;
}

/** Another stack's outputs as last committed: plain ones and secret ones apart, so each keeps its secrecy. */
export interface ReadOutputs {
  values: Props;
  secretValues: Props;
}

/**
 * Reads the outputs of stack `target` from `backend` as last committed (the snapshot with the journal's
 * finished records replayed), without taking its lock: a run in progress there only publishes its
 * outputs when it ends, so a reader sees the previous run's or the new run's outputs, never a mix.
 * Throws, naming both stacks and what to do, when the stack does not exist or its state cannot be read.
 *
 * @example await readStackOutputs(backend, { project: "app", stack: "prod" }, { project: "network", stack: "prod" }) // { values: { vpcId: "vpc-1" }, secretValues: {} }
 */
export async function readStackOutputs(backend: OutputReader, reader: StackName, target: StackName): Promise<ReadOutputs> {
  const where = `stack ${stackText(reader)} reads the outputs of stack ${stackText(target)}`;
  const call = `stackOutputs("${target.project}", { stack: "${target.stack}" })`;
  try {
    let read: StoredOutputs;
    try {
      read = await backend.readOutputs(); // the outputs alone: a reader never parses the other stack's resources
    } catch (e) {
      const msg = thrownMessage(e, "the state backend");
      const hint = /passphrase/i.test(msg)
        ? ` Its secrets need its passphrase: use the same CAIRN_PASSPHRASE for both stacks, or pass it as ${call.replace(" })", ", passphrase })")}.`
        : "";
      throw new UserError(`${where}, whose state in ${backend.url} cannot be read: ${msg}.${hint}`);
    }
    if (!read.exists) {
      throw new UserError(`${where}, which does not exist in ${backend.url}. Run up on ${stackText(target)} first, or fix the project, stack or backend given to ${call}.`);
    }
    if (read.project !== target.project) {
      throw new UserError(`${where}, but ${backend.url} holds stack "${target.stack}" of project "${read.project}". Give ${call} the backend where ${stackText(target)} lives (backend: "…").`);
    }
    const secret = new Set(read.secretOutputs);
    const out: ReadOutputs = { values: {}, secretValues: {} };
    for (const [k, v] of Object.entries(read.outputs)) (secret.has(k) ? out.secretValues : out.values)[k] = v;
    return out;
  } finally {
    await backend.close();
  }
}
