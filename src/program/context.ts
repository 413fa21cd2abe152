import { AsyncLocalStorage } from "node:async_hooks";
import type { ResourceNode } from "./node.js";
import type { Urn } from "../core/urn.js";
import type { Settleable } from "./resolver.js";
import type { ProviderInstance } from "../provider/provider.js";
import type { ConfigValue } from "./config-value.js";
import type { StackAccess } from "../state/stack-access.js";

/** A problem found while evaluating a program, reported with the others at the end (each once). */
export interface EvalDiagnostic {
  message: string;
  urn?: Urn;
}

/**
 * Everything one evaluation of a program records. Scoped per run with AsyncLocalStorage, so two
 * programs (or two tests) can evaluate in one process at the same time.
 */
export class EvalContext {
  readonly nodes: ResourceNode[] = [];
  readonly byUrn = new Map<Urn, ResourceNode>();
  readonly diagnostics: EvalDiagnostic[] = [];
  /** Outputs made by `apply` while the program ran: planning runs those nothing used, so none is dropped unseen. */
  readonly applies: Settleable[] = [];

  constructor(
    readonly project: string,
    readonly stack: string,
    /** How to run the program, for messages: e.g. `npx tsx infra.ts`. */
    readonly command: string,
    /** Provider instances for resources that name none (and whose parents name none), by package. */
    readonly defaultProviders: Readonly<Record<string, ProviderInstance>> = {},
    /** The stack's config values, for types that complete their inputs from it (default tags). */
    readonly config: Readonly<Record<string, ConfigValue>> = {},
    /** How `stackOutputs` reaches other stacks' state: the running stack's backend (absent outside a stack). */
    readonly stacks?: StackAccess,
  ) {}

  /** Records a node; a second node with the same URN is an error naming both. */
  register(node: ResourceNode): void {
    const prior = this.byUrn.get(node.urn);
    if (prior && node.kind === "wait") {
      throw new Error(
        `Two waits have the identity ${node.urn}: ${describe(prior)} and ${describe(node)}. ` +
          "Waits on one target are told apart by their predicates; give one of them a different `name` (or a different `until`).",
      );
    }
    if (prior) {
      throw new Error(
        `Duplicate resource URN ${node.urn}: ${describe(prior)} and ${describe(node)} have the same type and name` +
          `${node.parent ? " under the same parent" : ""}. Give one of them a different name.`,
      );
    }
    this.byUrn.set(node.urn, node);
    this.nodes.push(node);
  }
}

function describe(n: ResourceNode): string {
  if (n.kind === "wait") return `${n.name} (on ${n.wait.target.urn})`;
  const what = n.kind === "lookup" ? "lookup" : n.kind === "component" ? "component" : "resource";
  return `${what} "${n.name}" (${n.type})`;
}

const storage = new AsyncLocalStorage<EvalContext>();

/** Runs `fn` with `ctx` as the current evaluation. */
export function runInContext<T>(ctx: EvalContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/**
 * Evaluations running now, in every stack of the process: the storage above is what keeps each one's
 * records apart; this only says when none runs, so it can be switched off. Two evaluations that overlap
 * keep it on until the last ends.
 */
let evaluating = 0;

/**
 * Runs a program function (which may be async) as the evaluation `ctx`, to its end. When no evaluation is
 * left running the storage is switched off: an enabled AsyncLocalStorage makes Node track every promise,
 * and plans and applies make tens of thousands of them.
 *
 * @example const returned = await evaluateInContext(ctx, () => fn({ stack, project, config }));
 */
export async function evaluateInContext<T>(ctx: EvalContext, fn: () => T): Promise<Awaited<T>> {
  evaluating++;
  try {
    return await storage.run(ctx, fn);
  } finally {
    if (--evaluating === 0) storage.disable();
  }
}

/**
 * The `apply` callbacks on the call stack now, innermost last, each with the evaluation it runs in
 * (undefined when it runs while planning or applying, outside any). A callback runs synchronously, so this
 * describes the current call stack only; tagging each with its evaluation keeps another evaluation started
 * from inside a callback (a program run from a callback) from being taken for that callback.
 */
const applying: (EvalContext | undefined)[] = [];

/**
 * Marks an `apply` callback as running (a resource its evaluation declares now is refused); {@link leaveApply} ends it.
 * @example enterApply(); try { result = f(value); } finally { leaveApply(); }
 */
export function enterApply(): void {
  applying.push(storage.getStore());
}

/** Ends what {@link enterApply} began. */
export function leaveApply(): void {
  applying.pop();
}

/**
 * True while an `apply` callback of the code running now runs (creating a resource there is refused).
 * @example if (insideApply()) throw new Error("declare it in the program function");
 */
export function insideApply(): boolean {
  return applying.length > 0 && applying[applying.length - 1] === storage.getStore();
}

/** The current evaluation, or a clear error when a resource is created outside one. */
export function currentContext(what: string): EvalContext {
  if (insideApply()) {
    throw new Error(
      `${what} was created inside an apply() callback. Resources must be declared directly in the program function: ` +
        "create it there and pass the output as an input (inputs accept Outputs), instead of creating it from a callback.",
    );
  }
  const ctx = storage.getStore();
  if (!ctx) {
    throw new Error(
      `${what} was created outside a program. Declare resources inside the function given to program(name, fn) ` +
        "(not at module top level, not inside apply() callbacks, not after the function has returned).",
    );
  }
  return ctx;
}

/**
 * Records an output made by `apply` in the evaluation running now (none outside one).
 * @example trackApply(derived);
 */
export function trackApply(o: Settleable): void {
  storage.getStore()?.applies.push(o);
}
