import { AsyncLocalStorage } from "node:async_hooks";
import type { ResourceNode } from "./node.js";
import type { Urn } from "../core/urn.js";
import type { Resolvable } from "./resolver.js";
import type { ProviderInstance } from "../provider/provider.js";
import type { ConfigValue } from "./config-value.js";
import type { StackAccess } from "../state/stack-access.js";
import type { Origin } from "./deferral/deferral.js";
import { LateDeclarationError } from "./deferral/late-declaration.js";
import { DeclarationSites } from "../core/declaration-site.js";
import { UserError, type Diagnostic } from "../core/diagnostic.js";
import { refuseAtEntry } from "./error-text.js";

/**
 * A problem found while evaluating a program (a missing config value), reported with the others at the end.
 * @example ctx.diagnostics.push({ severity: "error", summary: 'Missing required configuration "region"' });
 */
export type EvalDiagnostic = Diagnostic;

/**
 * Everything one evaluation of a program records. Scoped per run with AsyncLocalStorage, so two
 * programs (or two tests) can evaluate in one process at the same time.
 */
export class EvalContext {
  readonly nodes: ResourceNode[] = [];
  readonly byUrn = new Map<Urn, ResourceNode>();
  readonly diagnostics: EvalDiagnostic[] = [];
  /** Outputs made by `apply` while the program ran: planning runs those nothing used, so none is dropped unseen. */
  readonly applies: Resolvable[] = [];
  /** Where the program declared its nodes: one site per place in its code, shared by the nodes declared there. */
  readonly sites = new DeclarationSites();
  /** Set once the run's plan is made: a callback that declares a resource after that is refused (see {@link currentContext}). */
  sealed = false;
  private readonly listeners = new Set<(node: ResourceNode) => void>();

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

  /** Records a node; a second node with the same URN is an error naming both, and both their lines. */
  register(node: ResourceNode): void {
    const prior = this.byUrn.get(node.urn);
    if (prior) throw duplicateError(prior, node);
    this.byUrn.set(node.urn, node);
    node.index = this.nodes.length;
    this.nodes.push(node);
    if (this.listeners.size) for (const l of this.listeners) l(node);
  }

  /**
   * Calls `listener` for each node registered from now on (the planner plans those a callback declares
   * while planning); returns how to stop.
   *
   * @example const stop = ctx.listen((n) => planNode(n)); … stop();
   */
  listen(listener: (node: ResourceNode) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

/** Two nodes with one URN: the second's site is where the error is; the first's is named in the text. */
function duplicateError(prior: ResourceNode, node: ResourceNode): UserError {
  const first = prior.site?.toString();
  const firstAt = first ? ` The first is declared at ${first}.` : "";
  if (node.kind === "wait") {
    return new UserError({
      summary: `Two waits have the identity ${node.urn}: ${describe(prior)} and ${describe(node)}.`,
      detail: `${firstAt.trim()} Waits on one target are told apart by their predicates; give one of them a different \`name\` (or a different \`until\`).`.trim(),
      urn: node.urn,
      site: node.site,
    });
  }
  return new UserError({
    summary: `Duplicate resource URN ${node.urn}: ${describe(prior)} and ${describe(node)} have the same type and name${node.parent ? " under the same parent" : ""}.`,
    detail: `${firstAt.trim()} Give one of them a different name.`.trim(),
    urn: node.urn,
    site: node.site,
  });
}

function describe(n: ResourceNode): string {
  if (n.kind === "wait") return `${n.name} (on ${n.wait.target.urn})`;
  const what = n.kind === "lookup" ? "lookup" : n.kind === "component" ? "component" : "resource";
  return `${what} "${n.name}" (${n.type})`;
}

// Which evaluation code belongs to is kept in two places, both process-wide on purpose (two stacks in one
// process each find their own): `storage`, across `await`s, for a program's body while it is evaluated; and
// `callbacks`, the `apply` callbacks on the JavaScript call stack, for code a callback runs later (while
// planning or applying, when the storage is off). Neither holds a run's records: those are its EvalContext's.

/**
 * The evaluation a program's code runs in, across its `await`s. On only while an evaluation runs (see
 * {@link StorageSwitch}): after that, `getStore()` answers undefined everywhere.
 */
const storage = new AsyncLocalStorage<EvalContext>();

/**
 * Keeps {@link storage} on while any evaluation runs, in any stack of the process, and switches it off when
 * the last one ends: an enabled AsyncLocalStorage makes Node track every promise, and plans and applies make
 * tens of thousands of them. Code that runs after an evaluation (callbacks while planning and applying)
 * finds its evaluation through its callback's frame instead ({@link ApplyStack}).
 */
class StorageSwitch {
  /** Evaluations running now: two that overlap keep the storage on until the last ends. */
  #running = 0;

  /** Runs `evaluation` with the storage on, and switches it off after if no other evaluation runs. */
  async during<T>(evaluation: () => T): Promise<Awaited<T>> {
    this.#running++;
    try {
      return await evaluation();
    } finally {
      if (--this.#running === 0) storage.disable();
    }
  }
}

const storageSwitch = new StorageSwitch();

/**
 * Runs `fn` (synchronous) with `ctx` as the current evaluation: for declaring resources outside a program
 * (tests). It switches the storage on, uncounted: the next evaluation to end switches it off.
 */
export function runInContext<T>(ctx: EvalContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/**
 * Runs a program function (which may be async) as the evaluation `ctx`, to its end; the storage is on
 * meanwhile, and off after unless another evaluation still runs (see {@link StorageSwitch}).
 *
 * @example const returned = await evaluateInContext(ctx, () => fn({ stack, project, config }));
 */
export async function evaluateInContext<T>(ctx: EvalContext, fn: () => T): Promise<Awaited<T>> {
  return storageSwitch.during(() => storage.run(ctx, fn));
}

/**
 * An `apply` callback running now: the evaluation whose output it is (undefined for an output made
 * outside any), where its value came from, and, when it runs on stand-ins while planning, where what it
 * declares is collected instead of being registered.
 */
export interface ApplyFrame {
  readonly owner: EvalContext | undefined;
  readonly origin: Origin;
  /** Set for a run on stand-ins: the nodes it declared (never registered). */
  readonly probe?: ResourceNode[];
  /** The evaluation in async scope when the callback started (another program run from a callback has its own). */
  readonly scope: EvalContext | undefined;
  /** How many resources it declared. */
  declared: number;
  /** How many outputs it made with `apply` (a run on stand-ins neither tracks nor runs them). */
  made: number;
}

/**
 * The `apply` callbacks running now, innermost last. Exact without any async scope: a callback's synchronous
 * part runs between {@link enterApply} and {@link leaveApply} with nothing else interleaved, so the innermost
 * frame is the callback whose code runs now, unless that code is another evaluation's (a program run from
 * inside a callback: its storage scope differs from the frame's, and it is not taken for the callback).
 * What a callback does after an `await` runs outside its frame. Scoping the stack with AsyncLocalStorage
 * instead would keep the storage on through planning and applying, for nothing this does not already know.
 */
class ApplyStack {
  readonly #frames: ApplyFrame[] = [];

  push(frame: ApplyFrame): void {
    this.#frames.push(frame);
  }

  pop(): void {
    this.#frames.pop();
  }

  /** The callback of the code running in storage scope `scope`, if one runs. */
  current(scope: EvalContext | undefined): ApplyFrame | undefined {
    const top = this.#frames[this.#frames.length - 1];
    return top && top.scope === scope ? top : undefined;
  }
}

const callbacks = new ApplyStack();

/**
 * Marks an `apply` callback as running: a resource declared now belongs to `owner`, declared in a
 * callback on `origin` (or to `probe`, for a run on stand-ins). {@link leaveApply} ends it.
 *
 * @example const frame = enterApply(owner, origin); try { result = f(value); } finally { leaveApply(); }
 */
export function enterApply(owner: EvalContext | undefined, origin: Origin, probe?: ResourceNode[]): ApplyFrame {
  const frame: ApplyFrame = { owner, origin, scope: storage.getStore(), declared: 0, made: 0, ...(probe ? { probe } : {}) };
  callbacks.push(frame);
  return frame;
}

/** Ends what {@link enterApply} began. */
export function leaveApply(): void {
  callbacks.pop();
}

/** The `apply` callback of the code running now, if one runs (not one of another program run from inside it). */
function currentFrame(): ApplyFrame | undefined {
  return callbacks.current(storage.getStore());
}

/** The evaluation the evaluation running now belongs to, for an `apply` made now (undefined outside one). */
export function evaluationNow(): EvalContext | undefined {
  const frame = currentFrame();
  if (frame?.probe) return undefined; // an apply made on stand-ins never declares for real
  return storage.getStore() ?? frame?.owner;
}

/** Where a declaration goes: the evaluation, and the callback it is made in (if any). */
export interface Declaring {
  ctx: EvalContext;
  frame: ApplyFrame | undefined;
}

/**
 * The evaluation a resource declared now belongs to, with the callback declaring it; a clear error when
 * it is declared outside a program (naming the line, `called`), or inside a callback of a program whose
 * plan is made already.
 */
export function currentContext(what: string, called?: NodeJS.CallSite): Declaring {
  const frame = currentFrame();
  if (frame) {
    if (!frame.owner) {
      throw new Error(
        `${what} was created inside an apply() callback of an output made outside any program. Declare it in the function given to program(name, fn), ` +
          "or in a callback of an output that program made.",
      );
    }
    if (frame.owner.sealed && !frame.probe) {
      throw new LateDeclarationError(
        `${what} was declared inside an apply() callback on ${frame.origin.waitsFor} that first ran after the plan was made, so the plan could not include it. ` +
          "up applies it in its next round, when the value is known while planning (preview shows such resources as deferred when it can foresee them).",
      );
    }
    return { ctx: frame.owner, frame };
  }
  const ctx = storage.getStore();
  if (!ctx) throw outsideProgram(what, called);
  return { ctx, frame: undefined };
}

/**
 * The error for a declaration outside any program (at a module's top level, or after the program function
 * returned), at the user's line. Made in the file the process started with, while it loads, it ends the
 * process with that message (see {@link refuseAtEntry}).
 */
function outsideProgram(what: string, called: NodeJS.CallSite | undefined): UserError {
  const e = new UserError({
    summary: `${what} was declared outside a program (at a module's top level, or after the program function returned).`,
    detail: "Move it into the function given to program(name, fn): resources are declared each time the program runs, for the stack it runs for.",
    site: new DeclarationSites().siteOf(called),
  });
  refuseAtEntry(e, called?.getFileName());
  return e;
}

/**
 * Records an output made by `apply` in the evaluation running now (none outside one).
 * @example trackApply(derived);
 */
export function trackApply(o: Resolvable): void {
  const frame = currentFrame();
  if (frame) frame.made++;
  // Made on stand-ins: running it for real would declare what only a stand-in named.
  if (frame?.probe) return;
  evaluationNow()?.applies.push(o);
}
