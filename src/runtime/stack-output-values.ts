import { findCycle } from "../program/cycles.js";
import type { Resolver } from "../program/output.js";
import { thrownMessage } from "../core/thrown.js";
import { resolveInputs, type ResolvedInputs } from "./resolve-inputs.js";

/**
 * Resolves the program's stack outputs, as {@link resolveInputs} does; when that fails, the error names the
 * stack output that failed: an `apply()` callback feeding it threw, or its value refers back to itself (a
 * cyclic object, which would otherwise overflow the stack with no word of where).
 *
 * @example const outs = await resolveStackOutputs(program.programOutputs, resolver);
 */
export async function resolveStackOutputs(outputs: Record<string, unknown>, r: Resolver): Promise<ResolvedInputs> {
  try {
    return await resolveInputs(outputs, r);
  } catch (e) {
    throw await namedFailure(outputs, r, e);
  }
}

/** The error of the first stack output that fails on its own (each resolved alone; settled values are cached). */
async function namedFailure(outputs: Record<string, unknown>, r: Resolver, error: unknown): Promise<Error> {
  for (const [k, v] of Object.entries(outputs)) {
    const cycle = safeCycle(v, k);
    if (cycle) return new Error(`stack output "${cycle.at}" refers back to "${cycle.to}" (a cyclic object): stack outputs are stored as JSON, which cannot hold it; return plain data from the program`);
    try {
      await resolveInputs({ [k]: v }, r);
    } catch (e) {
      if (e instanceof RangeError) return new Error(`stack output "${k}" holds a value that refers back to itself (a cyclic object, reached through an apply() or a promise), or one nested too deeply: stack outputs are stored as JSON; return plain data from the program`);
      return new Error(`stack output "${k}" could not be computed: ${thrownMessage(e, "an apply() callback")}`);
    }
  }
  return error instanceof Error ? error : new Error(thrownMessage(error, "the program"));
}

function safeCycle(v: unknown, k: string): { at: string; to: string } | undefined {
  try {
    return findCycle(v, k);
  } catch {
    return undefined; // nested too deeply to walk: the resolution says so
  }
}
