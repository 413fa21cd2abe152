import { evaluateProgram, type Evaluation } from "../program/evaluate.js";
import type { ConfigValue } from "../program/config.js";
import type { ResourceNode } from "../program/node.js";
import type { Plan } from "../plan/plan.js";
import type { ProviderInstance } from "../provider/provider.js";
import { instanceKey, providerInstanceFor } from "../provider/instance.js";
import type { ProviderRecord } from "../state/types.js";
import { withPlannedOutputs } from "../state/stack-access.js";
import { thrownMessage } from "../core/thrown.js";
import { CairnError } from "./errors.js";
import { DiagnosticsError, isUserError } from "../core/diagnostic.js";
import { preparedFrom, type Prepared } from "./prepared.js";
import { note, type StackParts } from "./stack-parts.js";

/**
 * Evaluates the stack's program with its config, its default providers, and the other stacks it reads
 * (as the `upstream` plans leave their outputs, when given).
 *
 * @example const ev = await evaluate(parts, await parts.backend.readConfig());
 */
export async function evaluate(parts: StackParts, config: Record<string, ConfigValue>, upstream?: readonly Plan[]): Promise<Evaluation> {
  const planned = upstream?.length ? new Map(upstream.map((p) => [`${p.project}/${p.stack}`, { values: p.outputs, secretKeys: p.secretOutputs }])) : undefined;
  const stacks = planned ? withPlannedOutputs(parts.access, planned) : parts.access;
  const providers = parts.options.defaultProviders;
  return evaluateProgram(parts.program, { stack: parts.name, config, stacks, ...(providers ? { providers } : {}) });
}

/**
 * The program's evaluations for one stack: the latest one (applying a plan this process just made needs no
 * second), and the provider instances they declare (an object is reached with the instance that made it).
 *
 * @example const { runtime } = await new Evaluations(parts).prepare();
 */
export class Evaluations {
  /** The program's provider instances by package and name, from its latest evaluation. */
  readonly live = new Map<string, ProviderInstance>();
  private prepared: Prepared | undefined;

  constructor(private readonly parts: StackParts) {}

  /** The latest evaluation, ready to plan: applying a plan this process just made needs no second one. */
  get latest(): Prepared | undefined {
    return this.prepared;
  }

  /** Evaluates the program into a graph, with its fingerprint. */
  async prepare(upstream?: readonly Plan[]): Promise<Prepared> {
    const { program } = this.parts;
    const config = await this.parts.backend.readConfig();
    let ev: Evaluation;
    try {
      ev = await evaluate(this.parts, config, upstream);
    } catch (e) {
      // A user's error names its own site and what to do: it needs no wrapping.
      if (e instanceof CairnError || isUserError(e)) throw e;
      const message = thrownMessage(e, "the program");
      const site = program.location.site?.toString();
      const fix = message.includes("program(...) at") ? "" : `. Fix the error in the program's body${site ? ` (the program(...) at ${site})` : ""}`;
      throw new CairnError(`The program "${program.name}" failed while declaring its resources: ${fix ? message.replace(/\.$/, "") : message}${fix}`);
    }
    if (ev.diagnostics.length) throw new DiagnosticsError(ev.diagnostics, `The program "${program.name}" has ${ev.diagnostics.length} problem(s):`);
    this.remember(ev);
    this.prepared = preparedFrom(ev, config);
    return this.prepared;
  }

  /**
   * Evaluates the program, best effort, to learn its provider instances: destroy, refresh and settling
   * interrupted operations must reach each object with the credentials of the instance that made it, yet still work when the
   * program no longer evaluates (then the recorded region/endpoint and the default credentials are used).
   */
  async declareProviders(): Promise<void> {
    try {
      this.remember(await evaluate(this.parts, await this.parts.backend.readConfig()));
    } catch (e) {
      note(this.parts, "warning", `The program could not be evaluated (${thrownMessage(e, "the program")}); resources with a named provider instance are reached with their recorded settings and the default credentials.`);
    }
  }

  /** Learns the definitions and provider instances of evaluated (or newly declared) resources. */
  remember(ev: { nodes: readonly ResourceNode[] }): void {
    this.parts.definitions.learn(ev.nodes);
    for (const n of ev.nodes) if (n.provider) this.live.set(instanceKey(n.provider.package, n.provider.name), n.provider);
  }

  /** The instance for an object recorded with `record`: the program's live one of that name, else the record. */
  instanceFor(type: string, record: ProviderRecord | undefined): ProviderInstance | undefined {
    // No record: the package's default, which is the stack's `defaultProviders` instance when it names one
    // (as for a resource the program declares without a provider).
    if (!record) return this.parts.options.defaultProviders?.[type.split(":")[0]!];
    return providerInstanceFor(type, record, this.live.get(instanceKey(type, record.name)));
  }
}
