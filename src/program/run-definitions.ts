import type { ResourceDefinition, ResourceNode } from "./node.js";
import { findDefinition, type ProviderOverrides, type ProviderSource } from "./registry.js";

/**
 * The type definitions one stack has seen in its program's evaluations, by token: what its runs use for an
 * object in state the program no longer declares (deleted, refreshed, resumed). They belong to the stack, not
 * to the process, so two stacks whose programs define one token with different providers (two tests, two
 * programs in one process) each reach their own; only a token the stack never saw falls back to the
 * process's definitions ({@link findDefinition}, which answers only when that is unambiguous).
 *
 * @example
 * const defs = new RunDefinitions();
 * defs.learn(evaluation.nodes);
 * const providers = defs.source(options.providers);
 */
export class RunDefinitions {
  private readonly byType = new Map<string, ResourceDefinition>();

  /** Remembers the definitions of an evaluation's resources and lookups (the latest evaluation wins). */
  learn(nodes: readonly ResourceNode[]): void {
    for (const n of nodes) if (n.kind === "custom" || n.kind === "lookup") this.byType.set(n.type, n.definition);
  }

  /** The definition of `type` for this stack: its program's, else the process's only one. */
  find(type: string): ResourceDefinition | undefined {
    return this.byType.get(type) ?? findDefinition(type);
  }

  /**
   * Where this stack's provider calls get their provider: the node's definition, else {@link RunDefinitions.find};
   * `overrides` (mocks) are asked first and given that provider.
   */
  source(overrides?: ProviderOverrides): ProviderSource {
    return (type, urn, definition) => {
      const own = (definition ?? this.find(type))?.provider;
      return overrides ? overrides(type, urn, own) ?? own : own;
    };
  }
}
